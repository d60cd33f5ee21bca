/// Decodes BI_RLE8 and BI_RLE4 bitmap streams into RGBA.
///
/// Pixels the stream skips (with a delta or an early end of line) are left
/// transparent, as browsers show them. Every read is bounds-checked and the
/// work is bounded by the stream's length (at most 255 pixels per two bytes).
enum DIBRunLengthDecoder {
  /// Decodes the stream at `start`; returns the pixels and whether any were left transparent.
  static func decode(_ reader: ByteReader, header: DIBHeader, start: Int) throws(ImageError) -> (
    [UInt8], Bool
  ) {
    let (width, height) = (header.size.width, header.size.height)
    let isRLE4 = header.compression == .rle4
    var rgba = [UInt8](repeating: 0, count: width * height * 4)
    var written = 0
    var (x, row) = (0, 0)
    var offset = start

    func put(_ index: Int) {
      defer { x += 1 }
      guard x < width, row < height else { return }
      let y = header.isTopDown ? row : height - 1 - row
      let out = (y * width + x) * 4
      let color = index < header.palette.count ? header.palette[index] : (0, 0, 0)
      (rgba[out], rgba[out + 1], rgba[out + 2]) = color
      if rgba[out + 3] == 0 { written += 1 }
      rgba[out + 3] = 255
    }

    decoding: while true {
      let count = Int(try reader.u8(offset))
      let value = try reader.u8(offset + 1)
      offset += 2
      if count > 0 {  // a run: `count` pixels of `value` (RLE4: alternating nibbles)
        for i in 0..<count { put(isRLE4 ? Int(i % 2 == 0 ? value >> 4 : value & 0x0F) : Int(value)) }
        continue
      }
      switch value {
      case 0:
        (x, row) = (0, row + 1)
      case 1:
        break decoding
      case 2:
        x += Int(try reader.u8(offset))
        row += Int(try reader.u8(offset + 1))
        offset += 2
      default:  // absolute mode: `value` literal pixels, padded to a 16-bit boundary
        let literal = Int(value)
        let length = isRLE4 ? (literal + 1) / 2 : literal
        for i in 0..<literal {
          let byte = try reader.u8(offset + (isRLE4 ? i / 2 : i))
          put(isRLE4 ? Int(i % 2 == 0 ? byte >> 4 : byte & 0x0F) : Int(byte))
        }
        offset += length + length % 2
      }
      if row >= height { break }
    }
    return (rgba, written < width * height)
  }
}
