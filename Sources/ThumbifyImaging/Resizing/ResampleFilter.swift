import Foundation

/// The reconstruction filter a resize convolves with.
package enum ResampleFilter: String, Sendable, Hashable, CaseIterable {
  /// Lanczos with 3 lobes: the sharpest, the default (as libvips and Pillow).
  case lanczos3
  /// Mitchell–Netravali cubic (B = C = 1/3): softer, fewer ringing artefacts, 2-pixel support.
  case mitchell
  /// Triangle (bilinear when reducing with an area-weighted support): the cheapest.
  case triangle

  /// The kernel's half-width in source pixels at scale 1.
  package var support: Double {
    switch self {
    case .lanczos3: 3
    case .mitchell: 2
    case .triangle: 1
    }
  }

  /// The kernel's weight at distance `x` (in filter units) from the sample centre.
  package func weight(_ x: Double) -> Double {
    let x = abs(x)
    switch self {
    case .lanczos3:
      if x < 1e-12 { return 1 }
      if x >= 3 { return 0 }
      let pix = Double.pi * x
      return 3 * sin(pix) * sin(pix / 3) / (pix * pix)
    case .mitchell:
      let b = 1.0 / 3
      let c = 1.0 / 3
      if x < 1 {
        return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6
      }
      if x < 2 {
        return
          ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x
          + (8 * b + 24 * c)) / 6
      }
      return 0
    case .triangle:
      return x < 1 ? 1 - x : 0
    }
  }
}
