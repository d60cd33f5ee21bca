extension PixelBuffer {
  /// The RGB buffer with the alpha channel removed (for images known to be opaque).
  func droppingAlpha() -> PixelBuffer {
    guard channels == 4 else { return self }
    var rgb = [UInt8](repeating: 0, count: width * height * 3)
    for index in 0..<(width * height) {
      rgb[index * 3] = pixels[index * 4]
      rgb[index * 3 + 1] = pixels[index * 4 + 1]
      rgb[index * 3 + 2] = pixels[index * 4 + 2]
    }
    return PixelBuffer(width: width, height: height, channels: 3, pixels: rgb)
  }
}
