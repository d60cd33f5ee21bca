/// Decodes Windows BMP files: a 14-byte file header, then a DIB (see ``DIBDecoder``).
struct BMPDecoder: ImageDecoding {
  func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
    let file = ByteReader(data, format: .bmp)
    let pixelOffset = Int(try file.u32le(10))
    let dib = try file.window(at: 14, count: file.count - 14)
    let buffer = try DIBDecoder.decode(
      dib, pixelOffset: pixelOffset - 14, isIconEntry: false, options: options)
    return DecodedImage(
      buffer: buffer, format: .bmp, originalSize: Size(width: buffer.width, height: buffer.height))
  }
}
