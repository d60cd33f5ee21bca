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
    let region =
      region
      ?? ThumbnailGeometry.Region(
        x: 0, y: 0, width: Double(source.width), height: Double(source.height))
    guard source.width > 0, source.height > 0, output.width > 0, output.height > 0 else { return source }
    var working = source
    if source.hasAlpha { AlphaPremultiplier.premultiply(&working) }
    var result = shrinkAndConvolve(working, to: output, region: region)
    if source.hasAlpha { AlphaPremultiplier.unpremultiply(&result) }
    return result
  }

  /// The box pre-shrink (when the reduction is at least 2 × `preShrinkGap`), then ``convolve(_:to:region:)``.
  func shrinkAndConvolve<Image: SeparablyResamplable>(
    _ source: Image, to output: Size, region: ThumbnailGeometry.Region
  ) -> Image {
    var working = source
    var region = region
    if let gap = preShrinkGap {
      let ratio = min(region.width / Double(output.width), region.height / Double(output.height))
      let factor = Int(ratio / gap)
      if factor >= 2 {
        working = source.boxShrunk(by: factor)
        let inverse = 1 / Double(factor)
        region = region.scaled(by: inverse, inverse)
        region.width = min(region.width, Double(working.width) - region.x)
        region.height = min(region.height, Double(working.height) - region.y)
      }
    }
    return convolve(working, to: output, region: region)
  }

  /// The separable resize of `region` of `source` to `output`: the horizontal pass over only the
  /// source rows the vertical pass reads, then the vertical pass; a pass whose axis is unchanged is
  /// skipped. One plan for RGB(A) buffers and Y′CbCr planes.
  func convolve<Image: SeparablyResamplable>(
    _ source: Image, to output: Size, region: ThumbnailGeometry.Region
  )
    -> Image
  {
    let isIdentityX =
      output.width == source.width && region.x == 0 && region.width == Double(source.width)
    let isIdentityY =
      output.height == source.height && region.y == 0 && region.height == Double(source.height)
    if isIdentityX && isIdentityY { return source }
    let vertical = ResampleCoefficients.cached(
      sourceLength: source.height, offset: region.y, span: region.height, outputLength: output.height,
      filter: filter)
    let firstRow = vertical.starts.first ?? 0
    let lastRow = min(source.height, (vertical.starts.last ?? 0) + vertical.taps)
    let horizontalPass: Image
    if isIdentityX {
      horizontalPass = source
    } else {
      let horizontal = ResampleCoefficients.cached(
        sourceLength: source.width, offset: region.x, span: region.width, outputLength: output.width,
        filter: filter)
      horizontalPass = source.horizontalPass(rows: firstRow..<lastRow, coefficients: horizontal)
    }
    if isIdentityY { return horizontalPass }
    // The horizontal pass holds rows firstRow..<lastRow (or every row when it was skipped).
    return horizontalPass.verticalPass(rowOffset: isIdentityX ? 0 : firstRow, coefficients: vertical)
  }

}

/// An image the separable resize runs on: an RGB(A) ``PixelBuffer`` or one ``SamplePlane``.
protocol SeparablyResamplable {
  var width: Int { get }
  var height: Int { get }
  /// Source rows `rows`, each resampled horizontally by `coefficients`.
  func horizontalPass(rows: Range<Int>, coefficients: ResampleCoefficients) -> Self
  /// Every column resampled vertically; row 0 of `self` is source row `rowOffset`.
  func verticalPass(rowOffset: Int, coefficients: ResampleCoefficients) -> Self
  /// The mean of each `factor`×`factor` block (``BoxShrinker``).
  func boxShrunk(by factor: Int) -> Self
}

extension PixelBuffer: SeparablyResamplable {
  func horizontalPass(rows: Range<Int>, coefficients: ResampleCoefficients) -> PixelBuffer {
    ConvolutionKernels.horizontal(self, rows: rows, coefficients: coefficients)
  }

  func verticalPass(rowOffset: Int, coefficients: ResampleCoefficients) -> PixelBuffer {
    ConvolutionKernels.vertical(self, rowOffset: rowOffset, coefficients: coefficients)
  }

  func boxShrunk(by factor: Int) -> PixelBuffer { BoxShrinker.shrink(self, by: factor) }
}
