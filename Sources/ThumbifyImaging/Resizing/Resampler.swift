/// Resizes `PixelBuffer`s by separable convolution.
///
/// A resize is a horizontal and a vertical pass, in whichever order costs less
/// (vertical first for a reduction of both axes, as libvips does), each with
/// fixed-point coefficients computed once per axis (`ResampleCoefficients`). RGBA images are premultiplied first and
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
package struct Resampler: Sendable {
  package var filter: ResampleFilter
  /// The box pre-shrink keeps at least this much reduction for the filter;
  /// `nil` disables it (a pure filter resize, the quality reference).
  package var preShrinkGap: Double?

  package init(filter: ResampleFilter = .lanczos3, preShrinkGap: Double? = 2) {
    self.filter = filter
    self.preShrinkGap = preShrinkGap
  }

  /// Makes the thumbnail `geometry` describes from a (possibly shrunk-on-load) decoded image.
  ///
  /// `geometry` is in the source's full-resolution coordinates; it is mapped
  /// onto `image.buffer`, whatever scale the decoder chose.
  package func resize(_ image: DecodedImage, geometry: ThumbnailGeometry) -> PixelBuffer {
    let buffer = image.buffer
    let factorX = image.exactScale ?? Double(buffer.width) / Double(max(1, image.originalSize.width))
    let factorY = image.exactScale ?? Double(buffer.height) / Double(max(1, image.originalSize.height))
    return resize(buffer, to: geometry.output, region: geometry.region.scaled(by: factorX, factorY))
  }

  /// Resamples `region` of `source` (in its own pixels) to `output` pixels.
  package func resize(_ source: PixelBuffer, to output: Size, region: ThumbnailGeometry.Region? = nil)
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
    _ source: Image, to output: Size, region: ThumbnailGeometry.Region, mapping: SampleMapping? = nil
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
    return convolve(working, to: output, region: region, mapping: mapping)
  }

  /// The separable resize of `region` of `source` to `output`: one pass per axis, over only the
  /// source rows and columns the other pass reads, in the cheaper order; a pass whose axis is
  /// unchanged is skipped. One plan for RGB(A) buffers and Y′CbCr planes.
  ///
  /// The last pass writes its samples through `mapping` when given (rounding once; an unchanged size
  /// still takes one pass for it).
  func convolve<Image: SeparablyResamplable>(
    _ source: Image, to output: Size, region: ThumbnailGeometry.Region, mapping: SampleMapping? = nil
  )
    -> Image
  {
    let isIdentityX =
      output.width == source.width && region.x == 0 && region.width == Double(source.width)
    let isIdentityY =
      output.height == source.height && region.y == 0 && region.height == Double(source.height)
    if isIdentityX && isIdentityY && mapping == nil { return source }
    func last(_ coefficients: ResampleCoefficients) -> ResampleCoefficients {
      mapping.map { coefficients.mapped(by: $0) } ?? coefficients
    }
    let vertical = ResampleCoefficients.cached(
      sourceLength: source.height, offset: region.y, span: region.height, outputLength: output.height,
      filter: filter)
    if isIdentityX {
      return source.verticalPass(rowOffset: 0, columns: 0..<source.width, coefficients: last(vertical))
    }
    let horizontal = ResampleCoefficients.cached(
      sourceLength: source.width, offset: region.x, span: region.width, outputLength: output.width,
      filter: filter)
    if isIdentityY { return source.horizontalPass(rows: 0..<source.height, coefficients: last(horizontal)) }
    let rows = vertical.sourceRange(length: source.height)
    let columns = horizontal.sourceRange(length: source.width)
    // Each order's multiply-adds, in vertical-pass units: the horizontal kernels cost more per tap.
    let horizontalTaps = Double(horizontal.taps * output.width) * Image.horizontalCostPerTap
    let verticalTaps = Double(vertical.taps * output.height)
    let horizontalFirst = Double(rows.count) * horizontalTaps + Double(output.width) * verticalTaps
    let verticalFirst = Double(columns.count) * verticalTaps + Double(output.height) * horizontalTaps
    if verticalFirst < horizontalFirst {
      // The vertical pass keeps columns `columns`, so the horizontal windows move left by their start.
      return source.verticalPass(rowOffset: 0, columns: columns, coefficients: vertical)
        .horizontalPass(
          rows: 0..<output.height, coefficients: last(horizontal.shifted(by: -columns.lowerBound)))
    }
    // The horizontal pass holds rows `rows`.
    return source.horizontalPass(rows: rows, coefficients: horizontal)
      .verticalPass(rowOffset: rows.lowerBound, columns: 0..<output.width, coefficients: last(vertical))
  }

}

/// An image the separable resize runs on: an RGB(A) ``PixelBuffer`` or one ``SamplePlane``.
protocol SeparablyResamplable {
  var width: Int { get }
  var height: Int { get }
  /// Source rows `rows`, each resampled horizontally by `coefficients`.
  func horizontalPass(rows: Range<Int>, coefficients: ResampleCoefficients) -> Self
  /// Columns `columns`, each resampled vertically; row 0 of `self` is source row `rowOffset`.
  func verticalPass(rowOffset: Int, columns: Range<Int>, coefficients: ResampleCoefficients) -> Self
  /// A horizontal pass's cost per tap and output sample over the vertical pass's (`convolve` picks
  /// the cheaper order with it): measured with `perf` on the corpus (docs/imaging.md).
  static var horizontalCostPerTap: Double { get }
  /// The mean of each `factor`×`factor` block (``BoxShrinker``).
  func boxShrunk(by factor: Int) -> Self
}

extension PixelBuffer: SeparablyResamplable {
  func horizontalPass(rows: Range<Int>, coefficients: ResampleCoefficients) -> PixelBuffer {
    ConvolutionKernels.horizontal(self, rows: rows, coefficients: coefficients)
  }

  func verticalPass(rowOffset: Int, columns: Range<Int>, coefficients: ResampleCoefficients) -> PixelBuffer {
    ConvolutionKernels.vertical(self, rowOffset: rowOffset, columns: columns, coefficients: coefficients)
  }

  /// Two taps of one pixel per `pmaddwd`, against sixteen samples' worth vertically.
  static var horizontalCostPerTap: Double { 2.8 }

  func boxShrunk(by factor: Int) -> PixelBuffer { BoxShrinker.shrink(self, by: factor) }
}
