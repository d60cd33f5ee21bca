/// Converts RGBA pixels between straight and premultiplied alpha.
///
/// Resampling premultiplied pixels weights each colour by its opacity, so a
/// fully transparent (often black) neighbour contributes nothing to an edge's
/// colour: no dark halos.
enum AlphaPremultiplier {
  /// `round(c * a / 255)` for each colour sample.
  static func premultiply(_ image: inout PixelBuffer) {
    guard image.channels == 4 else { return }
    image.pixels.withUnsafeMutableBufferPointer { pixels in
      var index = 0
      while index < pixels.count {
        let alpha = UInt32(pixels[index + 3])
        if alpha != 255 {
          for channel in 0..<3 {
            let product = UInt32(pixels[index + channel]) * alpha + 128
            pixels[index + channel] = UInt8(truncatingIfNeeded: (product + (product >> 8)) >> 8)
          }
        }
        index += 4
      }
    }
  }

  /// `round(c * 255 / a)`, clamped to 255; fully transparent pixels become 0.
  static func unpremultiply(_ image: inout PixelBuffer) {
    guard image.channels == 4 else { return }
    image.pixels.withUnsafeMutableBufferPointer { pixels in
      var index = 0
      while index < pixels.count {
        let alpha = UInt32(pixels[index + 3])
        if alpha == 0 {
          pixels[index] = 0
          pixels[index + 1] = 0
          pixels[index + 2] = 0
        } else if alpha != 255 {
          let reciprocal = reciprocals[Int(alpha)]
          for channel in 0..<3 {
            let value = (UInt32(pixels[index + channel]) * reciprocal + 0x8000) >> 16
            pixels[index + channel] = UInt8(truncatingIfNeeded: min(value, 255))
          }
        }
        index += 4
      }
    }
  }

  /// `255 / a` in 16.16 fixed point.
  private static let reciprocals: [UInt32] = (0..<256).map { alpha in
    alpha == 0 ? 0 : (UInt32(255) << 16 + UInt32(alpha) / 2) / UInt32(alpha)
  }
}
