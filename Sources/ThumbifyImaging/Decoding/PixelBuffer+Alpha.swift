extension PixelBuffer {
  /// Whether every pixel is fully opaque (always true for RGB).
  ///
  /// - Complexity: O(*n*) in the number of pixels for RGBA; stops at the first translucent pixel.
  package var isOpaque: Bool {
    guard channels == 4 else { return true }
    return pixels.withUnsafeBufferPointer { samples in
      var index = 3
      while index < samples.count {
        if samples[index] != 255 { return false }
        index += 4
      }
      return true
    }
  }

  /// The RGB buffer with the alpha channel removed (meant for opaque images: alpha is dropped, not composited).
  func droppingAlpha() -> PixelBuffer {
    guard channels == 4 else { return self }
    let count = width * height
    let rgb = [UInt8](unsafeUninitializedCapacity: count * 3) { out, initialized in
      pixels.withUnsafeBufferPointer { rgba in
        for index in 0..<count {
          out[index * 3] = rgba[index * 4]
          out[index * 3 + 1] = rgba[index * 4 + 1]
          out[index * 3 + 2] = rgba[index * 4 + 2]
        }
      }
      initialized = count * 3
    }
    return PixelBuffer(width: width, height: height, channels: 3, pixels: rgb)
  }
}
