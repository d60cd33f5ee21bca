/// The parsed header of a device-independent bitmap (BITMAPCOREHEADER, BITMAPINFOHEADER, V2–V5).
struct DIBHeader {
  /// BI_RGB, BI_RLE8, BI_RLE4, BI_BITFIELDS, BI_ALPHABITFIELDS.
  enum Compression: UInt32 {
    case rgb = 0
    case rle8 = 1
    case rle4 = 2
    case bitfields = 3
    case alphaBitfields = 6
  }

  var size: Size
  var isTopDown: Bool
  var bitCount: Int
  var compression: Compression
  /// Red, green, blue and alpha masks for 16- and 32-bit bitfield images.
  var masks: (red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32)
  /// The colour table, as RGB.
  var palette: [(UInt8, UInt8, UInt8)]
  /// The offset of the first byte after the header, masks and colour table.
  var endOffset: Int

  /// Parses the header at the start of `reader`; `isIconEntry` halves the height (ICO stores XOR and AND masks).
  init(_ reader: ByteReader, isIconEntry: Bool) throws(ImageError) {
    let headerSize = Int(try reader.u32le(0))
    let width: Int
    var height: Int
    var compressionValue: UInt32 = 0
    var colorsUsed = 0
    let paletteEntrySize: Int
    if headerSize == 12 {
      width = Int(try reader.u16le(4))
      height = Int(try reader.u16le(6))
      bitCount = Int(try reader.u16le(10))
      paletteEntrySize = 3
    } else if headerSize >= 40 && headerSize <= 256 {
      width = Int(try reader.i32le(4))
      height = Int(try reader.i32le(8))
      bitCount = Int(try reader.u16le(14))
      compressionValue = try reader.u32le(16)
      colorsUsed = Int(try reader.u32le(32))
      paletteEntrySize = 4
    } else {
      throw .corrupt(
        format: reader.format, message: "The bitmap header size \(headerSize) is not one thumbify reads.")
    }
    guard let compression = Compression(rawValue: compressionValue) else {
      throw .unsupportedFormat(reader.format)  // JPEG- or PNG-in-BMP, CMYK and other rarities
    }
    self.compression = compression
    isTopDown = height < 0 && !isIconEntry
    height = abs(height)
    if isIconEntry { height /= 2 }
    size = Size(width: width, height: height)
    guard [1, 2, 4, 8, 16, 24, 32].contains(bitCount) else {
      throw .corrupt(format: reader.format, message: "A bitmap cannot have \(bitCount) bits per pixel.")
    }
    var offset = headerSize
    // BI_RGB: 5-5-5 for 16 bits; for 32 bits the fourth byte is alpha unless it is zero everywhere (see DIBDecoder).
    masks =
      bitCount == 16 ? (0x7C00, 0x03E0, 0x001F, 0) : (0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000)
    if compression == .bitfields || compression == .alphaBitfields {
      let hasAlphaMask = compression == .alphaBitfields || headerSize >= 56
      let maskOffset = 40
      masks = (
        try reader.u32le(maskOffset), try reader.u32le(maskOffset + 4), try reader.u32le(maskOffset + 8),
        hasAlphaMask ? try reader.u32le(maskOffset + 12) : 0
      )
      if headerSize == 40 { offset += compression == .alphaBitfields ? 16 : 12 }
    }
    // A mask must be one run of bits (as Chromium's decoder requires): MaskChannel scales the run
    // after its lowest set bit, and a gap (0x0F0F) made its value overflow the 8-bit channel.
    for mask in [masks.red, masks.green, masks.blue, masks.alpha] where mask != 0 {
      let run = mask >> mask.trailingZeroBitCount
      guard run & (run &+ 1) == 0 else {
        let hex = String(mask, radix: 16, uppercase: true)
        throw .corrupt(format: reader.format, message: "The colour mask 0x\(hex) is not one run of bits.")
      }
    }
    let paletteCount = bitCount <= 8 ? min(colorsUsed > 0 ? colorsUsed : 1 << bitCount, 1 << bitCount) : 0
    var palette: [(UInt8, UInt8, UInt8)] = []
    palette.reserveCapacity(paletteCount)
    for index in 0..<paletteCount {
      let entry = offset + index * paletteEntrySize
      palette.append((try reader.u8(entry + 2), try reader.u8(entry + 1), try reader.u8(entry)))
    }
    self.palette = palette
    endOffset = offset + paletteCount * paletteEntrySize
  }

  /// Bytes per stored row: rows are padded to 4 bytes.
  var stride: Int { (size.width * bitCount + 31) / 32 * 4 }
}
