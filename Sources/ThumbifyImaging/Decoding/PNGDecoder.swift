import CPNG

/// Decodes PNG through libpng's simplified API (`png_image`).
///
/// Palette, gray, 16-bit, tRNS and interlaced images all come out as 8-bit
/// RGB, or RGBA (straight alpha) when the image has an alpha channel or tRNS.
/// 16-bit samples without gAMA/sRGB are taken as sRGB-encoded, as browsers do.
/// The header is read first (`png_image_begin_read_from_memory`) so the pixel
/// limit is checked before the output buffer is allocated. Interlaced 16-bit
/// images take a detour around a libpng bug (see `PNGDecoder+Interlaced16.swift`).
struct PNGDecoder: ImageDecoding {
  func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
    let buffer = try data.withUnsafeBufferPointer { (png) throws(ImageError) -> PixelBuffer in
      try Self.decode(UnsafeRawBufferPointer(png), options: options)
    }
    return DecodedImage(
      buffer: buffer, format: .png, originalSize: Size(width: buffer.width, height: buffer.height))
  }

  /// Decodes PNG bytes held in memory; ICO entries call this directly.
  static func decode(_ png: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageError) -> PixelBuffer
  {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    defer { png_image_free(&image) }
    guard let base = png.baseAddress, png_image_begin_read_from_memory(&image, base, png.count) != 0 else {
      throw .corrupt(format: .png, message: message(of: &image))
    }
    let size = Size(width: Int(image.width), height: Int(image.height))
    try options.checkPixels(size, format: .png)
    image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
    let hasAlpha = image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
    // Byte 28 is IHDR's interlace method (IHDR is always the first chunk).
    let isInterlaced = png.count > 28 && png[28] != 0
    if image.format & UInt32(PNG_FORMAT_FLAG_LINEAR) != 0 && isInterlaced {
      return try decodeInterlaced16(&image, size: size, hasAlpha: hasAlpha)
    }
    // PNG_FORMAT_RGB / PNG_FORMAT_RGBA are compound macros Swift does not import; these are their definitions.
    image.format = UInt32(PNG_FORMAT_FLAG_COLOR) | (hasAlpha ? UInt32(PNG_FORMAT_FLAG_ALPHA) : 0)
    let channels = hasAlpha ? 4 : 3
    var pixels = [UInt8](repeating: 0, count: size.width * size.height * channels)
    let finished = pixels.withUnsafeMutableBytes {
      png_image_finish_read(&image, nil, $0.baseAddress, Int32(size.width * channels), nil)
    }
    guard finished != 0 else { throw .corrupt(format: .png, message: message(of: &image)) }
    return PixelBuffer(width: size.width, height: size.height, channels: channels, pixels: pixels)
  }

  /// Whether the header says the image has no alpha: a gray, RGB or palette colour
  /// type (IHDR byte 25: 0, 2 or 3) and no tRNS chunk before the first IDAT.
  /// `false` for anything it cannot read, so damaged files keep the RGB path
  /// and libpng's own error.
  static func isOpaque(_ data: [UInt8]) -> Bool {
    guard data.count > 33, [0, 2, 3].contains(data[25]) else { return false }
    var offset = 33  // the signature (8) and IHDR (4 + 4 + 13 + 4)
    while offset + 8 <= data.count {
      let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
      if type == "IDAT" { return true }
      if type == "tRNS" || length > data.count { return false }
      offset += 12 + length
    }
    return false
  }

  /// libpng's message for the last failure, as a sentence.
  static func message(of image: inout png_image) -> String {
    let text = withUnsafeBytes(of: &image.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    return text.isEmpty ? "libpng reported no message." : text
  }
}
