/// Decodes device-independent bitmap pixels: the body of BMP files and of BMP entries in ICO/CUR files.
///
/// Handles 1/2/4/8-bit palette, 16/24/32-bit, BI_RGB, BI_BITFIELDS and
/// BI_ALPHABITFIELDS, RLE8 and RLE4, bottom-up and top-down rows. Every read is
/// bounds-checked; data that ends early is ``ImageError/corrupt(format:message:)``.
/// The result is RGBA: alpha from the bitmap's alpha channel when it is not
/// all zero, else from an icon's AND mask, and zero where an RLE stream skipped
/// pixels (``ImageDecoder`` reduces an opaque result to RGB).
enum DIBDecoder {
  /// Decodes the bitmap whose header starts `reader`.
  ///
  /// - Parameters:
  ///   - pixelOffset: Where the pixels start in `reader` (a BMP's `bfOffBits` − 14); `nil` means right after the colour table.
  ///   - isIconEntry: Whether this is an ICO/CUR entry: height doubled in the header, AND mask after the pixels.
  static func decode(_ reader: ByteReader, pixelOffset: Int?, isIconEntry: Bool, options: DecodeOptions)
    throws(ImageError) -> PixelBuffer
  {
    let header = try DIBHeader(reader, isIconEntry: isIconEntry)
    try options.checkPixels(header.size, format: reader.format)
    let start = pixelOffset ?? header.endOffset
    var rgba: [UInt8]
    var hasAlpha: Bool
    switch header.compression {
    case .rle8, .rle4:
      (rgba, hasAlpha) = try DIBRunLengthDecoder.decode(reader, header: header, start: start)
    case .rgb, .bitfields, .alphaBitfields:
      (rgba, hasAlpha) = try decodeUncompressed(reader, header: header, start: start)
    }
    if isIconEntry && !hasAlpha {
      try applyANDMask(reader, header: header, start: start + header.stride * header.size.height, to: &rgba)
    }
    return PixelBuffer(width: header.size.width, height: header.size.height, channels: 4, pixels: rgba)
  }

  /// Decodes uncompressed rows into RGBA; reports whether any alpha value was non-zero (and so is meaningful).
  private static func decodeUncompressed(_ reader: ByteReader, header: DIBHeader, start: Int)
    throws(ImageError)
    -> ([UInt8], Bool)
  {
    let (width, height, stride) = (header.size.width, header.size.height, header.stride)
    guard reader.contains(start, count: stride * height) else {
      throw .corrupt(
        format: reader.format,
        message: "The pixel data is truncated: \(stride * height) bytes are needed at offset \(start), "
          + "\(max(0, reader.count - start)) are there.")
    }
    let channels = [header.masks.red, header.masks.green, header.masks.blue, header.masks.alpha].map(
      MaskChannel.init)
    var rgba = [UInt8](repeating: 255, count: width * height * 4)
    var anyAlpha = false
    let bytes = reader.bytes
    for row in 0..<height {
      let y = header.isTopDown ? row : height - 1 - row
      let rowStart = reader.start + start + row * stride
      var out = y * width * 4
      for x in 0..<width {
        switch header.bitCount {
        case 24:
          let p = rowStart + x * 3
          (rgba[out], rgba[out + 1], rgba[out + 2]) = (bytes[p + 2], bytes[p + 1], bytes[p])
        case 16, 32:
          let p = rowStart + x * (header.bitCount / 8)
          var value = UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8
          if header.bitCount == 32 { value |= UInt32(bytes[p + 2]) << 16 | UInt32(bytes[p + 3]) << 24 }
          (rgba[out], rgba[out + 1], rgba[out + 2]) = (
            channels[0](value), channels[1](value), channels[2](value)
          )
          if channels[3].isPresent {
            rgba[out + 3] = channels[3](value)
            anyAlpha = anyAlpha || rgba[out + 3] != 0
          }
        default:
          let bit = x * header.bitCount
          let index =
            Int(bytes[rowStart + bit / 8] >> (8 - header.bitCount - bit % 8)) & ((1 << header.bitCount) - 1)
          let color = index < header.palette.count ? header.palette[index] : (0, 0, 0)
          (rgba[out], rgba[out + 1], rgba[out + 2]) = color
        }
        out += 4
      }
    }
    if channels[3].isPresent && !anyAlpha {  // an all-zero alpha channel is padding, not transparency
      for index in Swift.stride(from: 3, to: rgba.count, by: 4) { rgba[index] = 255 }
    }
    return (rgba, anyAlpha)
  }

  /// Clears alpha where an icon's 1-bit AND mask is set; a missing mask leaves the icon opaque.
  private static func applyANDMask(
    _ reader: ByteReader, header: DIBHeader, start: Int, to rgba: inout [UInt8]
  )
    throws(ImageError)
  {
    let (width, height) = (header.size.width, header.size.height)
    let stride = (width + 31) / 32 * 4
    guard reader.contains(start, count: stride * height) else { return }
    for row in 0..<height {
      let y = height - 1 - row
      for x in 0..<width where try reader.u8(start + row * stride + x / 8) & (0x80 >> UInt8(x % 8)) != 0 {
        rgba[(y * width + x) * 4 + 3] = 0
      }
    }
  }
}

/// One colour channel of a 16- or 32-bit bitmap: a bit mask, scaled to 8 bits when read.
struct MaskChannel {
  let mask: UInt32
  let shift: UInt32
  let bits: UInt32

  init(_ mask: UInt32) {
    self.mask = mask
    shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
    bits = UInt32((mask >> shift).trailingNonzeroBitCount)
  }

  var isPresent: Bool { mask != 0 }

  /// The channel's value in `pixel`, scaled to 0…255.
  func callAsFunction(_ pixel: UInt32) -> UInt8 {
    guard bits > 0 else { return 0 }
    let value = (pixel & mask) >> shift
    if bits >= 8 { return UInt8(truncatingIfNeeded: value >> (bits - 8)) }
    let maximum = (UInt32(1) << bits) - 1
    return UInt8((value * 255 + maximum / 2) / maximum)
  }
}

extension UInt32 {
  /// The number of consecutive one bits from the least significant bit.
  fileprivate var trailingNonzeroBitCount: Int { (~self).trailingZeroBitCount }
}
