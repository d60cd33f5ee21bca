/// Resizes `PixelBuffer`s by separable convolution.
///
/// A resize is a horizontal pass over the source rows the output needs, then
/// a vertical pass, each with fixed-point coefficients computed once per axis
/// (`ResampleCoefficients`). RGBA images are premultiplied first and
/// unpremultiplied after, so transparent pixels' colours never bleed into
/// edges as dark fringes. Large reductions first take an integer box
/// average (`BoxShrinker`), as libvips's `shrink` does, leaving the filter a
/// residual reduction of 2–4×.
///
/// ```swift
/// let resampler = Resampler()   // Lanczos3
/// let geometry = ThumbnailGeometry(source: image.originalSize, box: Size(width: 600, height: 315), fit: .cover)
/// let thumbnail = resampler.resize(image, geometry: geometry)
/// ```
public struct Resampler: Sendable {
  public var filter: ResampleFilter
  /// The box pre-shrink keeps at least this much reduction for the filter;
  /// `nil` disables it (a pure filter resize, the quality reference).
  public var preShrinkGap: Double?

  public init(filter: ResampleFilter = .lanczos3, preShrinkGap: Double? = 2) {
    self.filter = filter
    self.preShrinkGap = preShrinkGap
  }

  /// Makes the thumbnail `geometry` describes from a (possibly shrunk-on-load) decoded image.
  ///
  /// `geometry` is in the source's full-resolution coordinates; it is mapped
  /// onto `image.buffer`, whatever scale the decoder chose.
  public func resize(_ image: DecodedImage, geometry: ThumbnailGeometry) -> PixelBuffer {
    let buffer = image.buffer
    let factorX = Double(buffer.width) / Double(max(1, image.originalSize.width))
    let factorY = Double(buffer.height) / Double(max(1, image.originalSize.height))
    return resize(buffer, to: geometry.output, region: geometry.region.scaled(by: factorX, factorY))
  }

  /// Resamples `region` of `source` (in its own pixels) to `output` pixels.
  public func resize(_ source: PixelBuffer, to output: Size, region: ThumbnailGeometry.Region? = nil)
    -> PixelBuffer
  {
    var region =
      region
      ?? ThumbnailGeometry.Region(
        x: 0, y: 0, width: Double(source.width), height: Double(source.height))
    guard source.width > 0, source.height > 0, output.width > 0, output.height > 0 else { return source }
    var working = source
    if source.hasAlpha { AlphaPremultiplier.premultiply(&working) }
    if let gap = preShrinkGap {
      let ratio = min(region.width / Double(output.width), region.height / Double(output.height))
      let factor = Int(ratio / gap)
      if factor >= 2 {
        working = BoxShrinker.shrink(working, by: factor)
        let inverse = 1 / Double(factor)
        region = region.scaled(by: inverse, inverse)
        region.width = min(region.width, Double(working.width) - region.x)
        region.height = min(region.height, Double(working.height) - region.y)
      }
    }
    var result = convolve(working, to: output, region: region)
    if source.hasAlpha { AlphaPremultiplier.unpremultiply(&result) }
    return result
  }

  private func convolve(_ source: PixelBuffer, to output: Size, region: ThumbnailGeometry.Region)
    -> PixelBuffer
  {
    let isIdentityX =
      output.width == source.width && region.x == 0 && region.width == Double(source.width)
    let isIdentityY =
      output.height == source.height && region.y == 0 && region.height == Double(source.height)
    if isIdentityX && isIdentityY { return source }
    let vertical = ResampleCoefficients(
      sourceLength: source.height, offset: region.y, span: region.height, outputLength: output.height,
      filter: filter)
    let firstRow = vertical.starts.first ?? 0
    let lastRow = min(source.height, (vertical.starts.last ?? 0) + vertical.taps)
    let horizontalPass: PixelBuffer
    if isIdentityX {
      horizontalPass = source
    } else {
      let horizontal = ResampleCoefficients(
        sourceLength: source.width, offset: region.x, span: region.width, outputLength: output.width,
        filter: filter)
      horizontalPass = ConvolutionKernels.horizontal(
        source, rows: firstRow..<lastRow, coefficients: horizontal)
    }
    if isIdentityY { return horizontalPass }
    // The horizontal pass holds rows firstRow..<lastRow (or every row when it was skipped).
    let rowOffset = isIdentityX ? 0 : firstRow
    return ConvolutionKernels.vertical(horizontalPass, rowOffset: rowOffset, coefficients: vertical)
  }
}
