/// A decoded image: 8-bit samples, rows top to bottom, tightly packed.
///
/// `channels` is 3 (RGB) or 4 (RGBA, straight — not premultiplied — alpha).
/// Decoders convert gray, palette, CMYK and 16-bit sources to one of these two
/// layouts so that every later stage handles exactly two shapes.
package struct PixelBuffer: Sendable, Equatable {
  package var width: Int
  package var height: Int
  package var channels: Int
  package var pixels: [UInt8]

  package init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
    precondition(channels == 3 || channels == 4, "PixelBuffer holds RGB or RGBA")
    precondition(pixels.count == width * height * channels, "pixel count does not match the size")
    self.width = width
    self.height = height
    self.channels = channels
    self.pixels = pixels
  }

  package var hasAlpha: Bool { channels == 4 }
  package var bytesPerRow: Int { width * channels }
}
