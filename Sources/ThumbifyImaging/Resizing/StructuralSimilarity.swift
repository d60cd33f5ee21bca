/// SSIM (Wang et al. 2004) between two images of the same size, on luma
/// (BT.601) over 8×8 windows with stride 4, alpha composited over white.
///
/// 1 means identical; ≥ 0.98 is visually indistinguishable for thumbnails.
package enum StructuralSimilarity {
  /// The mean SSIM of `a` and `b`, or `nil` when their sizes differ.
  package static func ssim(_ a: PixelBuffer, _ b: PixelBuffer) -> Double? {
    guard a.width == b.width, a.height == b.height else { return nil }
    let lumaA = luma(a)
    let lumaB = luma(b)
    let width = a.width
    let height = a.height
    let window = min(8, width, height)
    let c1 = (0.01 * 255) * (0.01 * 255)
    let c2 = (0.03 * 255) * (0.03 * 255)
    var total = 0.0
    var windows = 0
    for top in stride(from: 0, through: height - window, by: 4) {
      for left in stride(from: 0, through: width - window, by: 4) {
        var sumA = 0.0
        var sumB = 0.0
        var sumAA = 0.0
        var sumBB = 0.0
        var sumAB = 0.0
        for y in top..<(top + window) {
          for x in left..<(left + window) {
            let va = lumaA[y * width + x]
            let vb = lumaB[y * width + x]
            sumA += va
            sumB += vb
            sumAA += va * va
            sumBB += vb * vb
            sumAB += va * vb
          }
        }
        let n = Double(window * window)
        let meanA = sumA / n
        let meanB = sumB / n
        let varianceA = sumAA / n - meanA * meanA
        let varianceB = sumBB / n - meanB * meanB
        let covariance = sumAB / n - meanA * meanB
        total +=
          ((2 * meanA * meanB + c1) * (2 * covariance + c2))
          / ((meanA * meanA + meanB * meanB + c1) * (varianceA + varianceB + c2))
        windows += 1
      }
    }
    return windows == 0 ? 1 : total / Double(windows)
  }

  private static func luma(_ image: PixelBuffer) -> [Double] {
    let channels = image.channels
    return (0..<(image.width * image.height)).map { pixel in
      let base = pixel * channels
      let alpha = channels == 4 ? Double(image.pixels[base + 3]) / 255 : 1
      let y =
        0.299 * Double(image.pixels[base]) + 0.587 * Double(image.pixels[base + 1]) + 0.114
        * Double(image.pixels[base + 2])
      return y * alpha + 255 * (1 - alpha)
    }
  }
}
