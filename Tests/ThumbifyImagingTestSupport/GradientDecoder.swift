import ThumbifyImaging

/// A test double decoder: "decodes" any bytes to a generated gradient whose size and hue come
/// from the bytes (`"<width>x<height>:<hue>"`), so tests make real thumbnails (real resize, real
/// WebP encode, real blob store, real ThumbHash) without depending on a decoder.
package struct GradientDecoder: ImageDecoding {
  package init() {}

  package func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
    let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == "x" || $0 == ":" })
    guard fields.count == 3, let width = Int(fields[0]), let height = Int(fields[1]), let hue = Int(fields[2])
    else { throw .corrupt(format: .png, message: "not a gradient specification") }
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
      for x in 0..<width {
        let offset = (y * width + x) * 3
        pixels[offset] = UInt8((x * 255 / max(1, width - 1) + hue) % 256)
        pixels[offset + 1] = UInt8((y * 255 / max(1, height - 1) + hue * 2) % 256)
        pixels[offset + 2] = UInt8((hue * 3 + (x + y) % 64) % 256)
      }
    }
    let buffer = PixelBuffer(width: width, height: height, channels: 3, pixels: pixels)
    return DecodedImage(buffer: buffer, format: .png, originalSize: Size(width: width, height: height))
  }
}
