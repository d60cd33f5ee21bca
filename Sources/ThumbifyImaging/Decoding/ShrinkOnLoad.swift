import ThumbifySystem

/// The shrink-on-load rule: how small a decoder may decode and still serve the thumbnail.
///
/// A thumbnail of an image of upright size *w*×*h* fitted into a target *W*×*H*
/// is scaled by *s* = min(*W*/*w*, *H*/*h*) for ``Fit/contain`` and
/// max(*W*/*w*, *H*/*h*) for ``Fit/cover``, never above 1 (no upscaling). The
/// decoded image must be at least ⌈*w*·*s*⌉×⌈*h*·*s*⌉ times the headroom in both
/// dimensions (capped at the full size).
enum ShrinkOnLoad {
  /// The size the thumbnail of an image of `size` will have, before any crop (never larger than `size`).
  static func finalSize(of size: Size, target: Size, fit: Fit) -> Size {
    guard size.width > 0, size.height > 0 else { return size }
    // The scale is the resizer's own, so decoder and resizer cannot disagree on it; only
    // the rounding differs: up here, so the decode is never a pixel short.
    let scale = ThumbnailGeometry(source: size, box: target, fit: fit).scale
    return Size(
      width: max(1, Int((Double(size.width) * scale - 1e-9).rounded(.up))),
      height: max(1, Int((Double(size.height) * scale - 1e-9).rounded(.up))))
  }

  /// The smallest size, in stored orientation, a decode of an image stored as `stored` must produce.
  ///
  /// - Returns: `stored` itself when `options` has no target.
  /// - Parameter headroom: overrides ``DecodeOptions/shrinkHeadroom`` (JPEG passes its own).
  static func requiredSize(
    stored: Size, orientation: ExifOrientation, options: DecodeOptions, headroom: Double? = nil
  ) -> Size {
    guard let target = options.target else { return stored }
    let upright = orientation.upright(stored)
    let final = finalSize(of: upright, target: target, fit: options.fit)
    let headroom = max(1, headroom ?? options.shrinkHeadroom)
    let needed = Size(
      width: Int(clamping: Double(final.width) * headroom, rounding: .up, in: 0...max(0, upright.width)),
      height: Int(clamping: Double(final.height) * headroom, rounding: .up, in: 0...max(0, upright.height)))
    return orientation.upright(needed)  // the swap is its own inverse
  }

  /// The smallest of `factors` whose scaled size (rounded up, as libjpeg does) covers `required`.
  ///
  /// - Parameter factors: Candidate (numerator, denominator) pairs; `1/1` is always considered.
  static func smallestFactor(
    stored: Size, required: Size, among factors: [(num: Int, denom: Int)]
  ) -> (num: Int, denom: Int) {
    let sorted = factors.sorted { $0.num * $1.denom < $1.num * $0.denom }
    for factor in sorted {
      let scaled = scaledSize(stored, by: factor)
      if scaled.width >= required.width && scaled.height >= required.height { return factor }
    }
    return (1, 1)
  }

  /// `size` scaled by `factor` and rounded up (TurboJPEG's `TJSCALED`).
  static func scaledSize(_ size: Size, by factor: (num: Int, denom: Int)) -> Size {
    Size(
      width: (size.width * factor.num + factor.denom - 1) / factor.denom,
      height: (size.height * factor.num + factor.denom - 1) / factor.denom)
  }
}
