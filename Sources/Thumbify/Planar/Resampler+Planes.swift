/// Resizing Y′CbCr planes: each plane by the same separable convolution as RGB.
///
/// A linear filter commutes with the affine Y′CbCr ↔ RGB transform, so
/// resizing the planes is the same resize as in RGB up to rounding and
/// clipping, with 1.5 samples per output pixel instead of 3 when the chroma
/// stays subsampled.
extension Resampler {
  /// Makes the planar thumbnail `geometry` describes from (possibly shrunk-on-load) decoded planes.
  ///
  /// - Parameter chromaFactor: the chroma subsampling of the result ((2, 2) for WebP, (1, 1) for RGB output).
  public func resize(_ decoded: DecodedPlanes, geometry: ThumbnailGeometry, chromaFactor: (x: Int, y: Int))
    -> YCbCrImage
  {
    let image = decoded.image
    let factorX = Double(image.width) / Double(max(1, decoded.originalSize.width))
    let factorY = Double(image.height) / Double(max(1, decoded.originalSize.height))
    return resize(
      image, to: geometry.output, region: geometry.region.scaled(by: factorX, factorY),
      chromaFactor: chromaFactor)
  }

  /// Resamples `region` of `image` (in luma pixels) to `output` luma pixels and chroma subsampled by `chromaFactor`.
  ///
  /// Chroma sample *j* of the result is centred on output luma position
  /// `chromaFactor.x · (j + ½)`, the JPEG/VP8 (centred) siting, mapped onto the
  /// source chroma plane through its own subsampling.
  public func resize(
    _ image: YCbCrImage, to output: Size, region: ThumbnailGeometry.Region? = nil,
    chromaFactor: (x: Int, y: Int)
  ) -> YCbCrImage {
    let region =
      region ?? ThumbnailGeometry.Region(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
    let target = (x: max(1, chromaFactor.x), y: max(1, chromaFactor.y))
    let chromaOutput = YCbCrImage.chromaSize(of: output, factor: target)
    let source = (x: Double(max(1, image.chromaFactor.x)), y: Double(max(1, image.chromaFactor.y)))
    let chromaRegion = ThumbnailGeometry.Region(
      x: region.x / source.x, y: region.y / source.y,
      width: Double(chromaOutput.width) * Double(target.x) / source.x
        * (region.width / Double(max(1, output.width))),
      height: Double(chromaOutput.height) * Double(target.y) / source.y
        * (region.height / Double(max(1, output.height))))
    return YCbCrImage(
      luma: resize(image.luma, to: output, region: region),
      cb: resize(image.cb, to: chromaOutput, region: chromaRegion),
      cr: resize(image.cr, to: chromaOutput, region: chromaRegion),
      range: image.range, chromaFactor: target)
  }

  /// Resamples `region` of one plane to `output` samples (box pre-shrink, then the filter).
  func resize(_ plane: SamplePlane, to output: Size, region: ThumbnailGeometry.Region) -> SamplePlane {
    guard plane.width > 0, plane.height > 0, output.width > 0, output.height > 0 else { return plane }
    var working = plane
    var region = region
    if let gap = preShrinkGap {
      let ratio = min(region.width / Double(output.width), region.height / Double(output.height))
      let factor = Int(ratio / gap)
      if factor >= 2 {
        let shrunk = BoxShrinker.shrinkSamples(
          plane.samples, width: plane.width, height: plane.height, channels: 1, by: factor)
        working = SamplePlane(width: shrunk.width, height: shrunk.height, samples: shrunk.samples)
        let inverse = 1 / Double(factor)
        region = region.scaled(by: inverse, inverse)
        region.width = min(region.width, Double(working.width) - region.x)
        region.height = min(region.height, Double(working.height) - region.y)
      }
    }
    return convolve(working, to: output, region: region)
  }

  private func convolve(_ source: SamplePlane, to output: Size, region: ThumbnailGeometry.Region)
    -> SamplePlane
  {
    let isIdentityX = output.width == source.width && region.x == 0 && region.width == Double(source.width)
    let isIdentityY =
      output.height == source.height && region.y == 0 && region.height == Double(source.height)
    if isIdentityX && isIdentityY { return source }
    let vertical = ResampleCoefficients(
      sourceLength: source.height, offset: region.y, span: region.height, outputLength: output.height,
      filter: filter)
    let firstRow = vertical.starts.first ?? 0
    let lastRow = min(source.height, (vertical.starts.last ?? 0) + vertical.taps)
    let horizontalPass: SamplePlane
    if isIdentityX {
      horizontalPass = source
    } else {
      let horizontal = ResampleCoefficients(
        sourceLength: source.width, offset: region.x, span: region.width, outputLength: output.width,
        filter: filter)
      horizontalPass = PlaneKernels.horizontal(source, rows: firstRow..<lastRow, coefficients: horizontal)
    }
    if isIdentityY { return horizontalPass }
    return PlaneKernels.vertical(
      horizontalPass, rowOffset: isIdentityX ? 0 : firstRow, coefficients: vertical)
  }
}
