extension PixelBuffer {
  /// The buffer turned upright for an image stored with `orientation`.
  ///
  /// Values 5–8 swap width and height. ``ExifOrientation/up`` returns the buffer unchanged.
  ///
  /// - Complexity: O(*n*) in the number of pixels, with one new buffer of the same size.
  package func oriented(_ orientation: ExifOrientation) -> PixelBuffer {
    guard orientation != .up else { return self }
    let upright = orientation.upright(Size(width: width, height: height))
    let output = Self.orientedSamples(pixels, width: width, height: height, channels: channels, orientation)
    return PixelBuffer(width: upright.width, height: upright.height, channels: channels, pixels: output)
  }

  /// `w`×`h` pixels of `c` interleaved samples turned upright (the upright size is `orientation.upright`).
  static func orientedSamples<Sample>(
    _ pixels: [Sample], width w: Int, height h: Int, channels c: Int, _ orientation: ExifOrientation
  ) -> [Sample] {
    let upright = orientation.upright(Size(width: w, height: h))
    let (ow, oh) = (upright.width, upright.height)
    // For the upright pixel (x, y), the stored pixel is at start + x * dx + y * dy (in pixels).
    let (start, dx, dy): (Int, Int, Int)
    switch orientation {
    case .up: (start, dx, dy) = (0, 1, w)
    case .upMirrored: (start, dx, dy) = (w - 1, -1, w)
    case .down: (start, dx, dy) = (w * h - 1, -1, -w)
    case .downMirrored: (start, dx, dy) = (w * (h - 1), 1, -w)
    case .leftMirrored: (start, dx, dy) = (0, w, 1)
    case .right: (start, dx, dy) = (w * (h - 1), -w, 1)
    case .rightMirrored: (start, dx, dy) = (w * h - 1, -w, -1)
    case .left: (start, dx, dy) = (w - 1, w, -1)
    }
    return [Sample](unsafeUninitializedCapacity: ow * oh * c) { out, initialized in
      pixels.withUnsafeBufferPointer { source in
        var o = 0
        for y in 0..<oh {
          var s = (start + y * dy) * c
          for _ in 0..<ow {
            for k in 0..<c { out.initializeElement(at: o + k, to: source[s + k]) }
            o += c
            s += dx * c
          }
        }
      }
      initialized = ow * oh * c
    }
  }
}
