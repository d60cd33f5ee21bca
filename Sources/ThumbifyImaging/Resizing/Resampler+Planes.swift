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
  package func resize(_ decoded: DecodedPlanes, geometry: ThumbnailGeometry, chromaFactor: (x: Int, y: Int))
    -> YCbCrImage
  {
    let image = decoded.image
    let factorX = decoded.exactScale ?? Double(image.width) / Double(max(1, decoded.originalSize.width))
    let factorY = decoded.exactScale ?? Double(image.height) / Double(max(1, decoded.originalSize.height))
    return resize(
      image, to: geometry.output, region: geometry.region.scaled(by: factorX, factorY),
      chromaFactor: chromaFactor)
  }

  /// Resamples `region` of `image` (in luma pixels) to `output` luma pixels and chroma subsampled by `chromaFactor`.
  ///
  /// Chroma sample *j* of the result is centred on output luma position
  /// `chromaFactor.x · (j + ½)`, the JPEG/VP8 (centred) siting, mapped onto the
  /// source chroma plane through its own subsampling.
  package func resize(
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
    return shrinkAndConvolve(plane, to: output, region: region)
  }
}

extension SamplePlane: SeparablyResamplable {
  func horizontalPass(rows: Range<Int>, coefficients: ResampleCoefficients) -> SamplePlane {
    PlaneKernels.horizontal(self, rows: rows, coefficients: coefficients)
  }

  func verticalPass(rowOffset: Int, columns: Range<Int>, coefficients: ResampleCoefficients) -> SamplePlane {
    PlaneKernels.vertical(self, rowOffset: rowOffset, columns: columns, coefficients: coefficients)
  }

  /// Eight taps per `pmaddwd`, the weights padded to a multiple of eight, and a transpose-add.
  static var horizontalCostPerTap: Double { 1.7 }

  func boxShrunk(by factor: Int) -> SamplePlane {
    let shrunk = BoxShrinker.shrinkSamples(samples, width: width, height: height, channels: 1, by: factor)
    return SamplePlane(width: shrunk.width, height: shrunk.height, samples: shrunk.samples)
  }
}
