/// Where a thumbnail's pixels come from and how large it is: the one size
/// computation shared by shrink-on-load decoding and resizing.
///
/// The output size is always computed from the source's full-resolution
/// (upright) size, so an image decoded at a reduced DCT scale gives the same
/// thumbnail size as one decoded in full.
///
/// ```swift
/// let geometry = ThumbnailGeometry(source: Size(width: 4000, height: 3000),
///                                  box: Size(width: 600, height: 315), fit: .contain)
/// geometry.output  // 420x315
/// ```
package struct ThumbnailGeometry: Sendable, Hashable {
  /// The thumbnail's size in pixels.
  package var output: Size
  /// The scale factor from source to output pixels (≤ 1 unless upscaling was allowed).
  package var scale: Double
  /// The part of the source (in full-resolution pixels) that ends up in the
  /// thumbnail: the whole image for `contain`, a centred crop for `cover`.
  package var region: Region

  /// A rectangle in source pixels; fractional so crops stay centred exactly.
  package struct Region: Sendable, Hashable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
      self.x = x
      self.y = y
      self.width = width
      self.height = height
    }

    /// The same region in an image `factor` times the size (a shrunk decode).
    package func scaled(by factorX: Double, _ factorY: Double) -> Region {
      Region(x: x * factorX, y: y * factorY, width: width * factorX, height: height * factorY)
    }
  }

  /// Fits a source of `source` size into `box`.
  ///
  /// - Parameters:
  ///   - source: the full-resolution, upright size of the image.
  ///   - box: the target box.
  ///   - fit: `contain` scales the whole image inside the box; `cover` fills the
  ///     box and crops the overflow around the centre.
  ///   - allowsUpscaling: when false (the default) an image smaller than the box
  ///     keeps its size (and `cover` only crops what overflows the box).
  package init(source: Size, box: Size, fit: Fit, allowsUpscaling: Bool = false) {
    let sourceWidth = Double(max(1, source.width))
    let sourceHeight = Double(max(1, source.height))
    let boxWidth = Double(max(1, box.width))
    let boxHeight = Double(max(1, box.height))
    let scaleX = boxWidth / sourceWidth
    let scaleY = boxHeight / sourceHeight
    var scale = fit == .contain ? min(scaleX, scaleY) : max(scaleX, scaleY)
    if !allowsUpscaling { scale = min(scale, 1) }
    var width = max(1, Int((sourceWidth * scale).rounded()))
    var height = max(1, Int((sourceHeight * scale).rounded()))
    if fit == .cover {
      width = min(width, Int(boxWidth))
      height = min(height, Int(boxHeight))
    }
    let regionWidth = min(sourceWidth, Double(width) / scale)
    let regionHeight = min(sourceHeight, Double(height) / scale)
    self.output = Size(width: width, height: height)
    self.scale = scale
    self.region = Region(
      x: (sourceWidth - regionWidth) / 2, y: (sourceHeight - regionHeight) / 2,
      width: regionWidth, height: regionHeight)
  }

  /// Whether a decode at `decoded` size (a reduced-scale decode of the
  /// source) still has at least as many pixels as the thumbnail needs.
  ///
  /// The property shrink-on-load (`ShrinkOnLoad`, built on `scale`) guarantees
  /// for the scale a decoder picks.
  package func isCovered(by decoded: Size, source: Size) -> Bool {
    let factorX = Double(decoded.width) / Double(max(1, source.width))
    let factorY = Double(decoded.height) / Double(max(1, source.height))
    return region.width * factorX >= Double(output.width) && region.height * factorY >= Double(output.height)
  }
}
