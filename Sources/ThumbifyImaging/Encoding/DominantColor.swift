/// The dominant colour of an image: the mean of the most populated cell of a
/// 4-bit-per-channel colour histogram, weighted by alpha.
package enum DominantColor {
  /// `#rrggbb` for `image`; `#000000` for a fully transparent image.
  package static func hex(of image: PixelBuffer) -> String {
    var counts = [Double](repeating: 0, count: 4096)
    var sums = [SIMD3<Double>](repeating: .zero, count: 4096)
    let channels = image.channels
    image.pixels.withUnsafeBufferPointer { pixels in
      var index = 0
      while index < pixels.count {
        let r = pixels[index]
        let g = pixels[index + 1]
        let b = pixels[index + 2]
        let weight = channels == 4 ? Double(pixels[index + 3]) / 255 : 1
        let cell = Int(r >> 4) << 8 | Int(g >> 4) << 4 | Int(b >> 4)
        counts[cell] += weight
        sums[cell] += SIMD3(Double(r), Double(g), Double(b)) * weight
        index += channels
      }
    }
    var best = 0
    for cell in counts.indices where counts[cell] > counts[best] { best = cell }
    guard counts[best] > 0 else { return "#000000" }
    let mean = sums[best] / counts[best]
    return "#" + [mean.x, mean.y, mean.z].map { hexByte(UInt8(min(255, max(0, $0.rounded())))) }.joined()
  }

  private static func hexByte(_ value: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(value >> 4)], digits[Int(value & 15)]])
  }
}
