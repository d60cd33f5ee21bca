/// Resizing Y′CbCr planes: each plane by the same separable convolution as RGB.
///
/// A linear filter commutes with the affine Y′CbCr ↔ RGB transform, so
/// resizing the planes is the same resize as in RGB up to rounding and
/// clipping, with 1.5 samples per output pixel instead of 3 when the chroma
/// stays subsampled.
extension Resampler {
  /// Makes the planar thumbnail `geometry` describes from (possibly shrunk-on-load) decoded planes.
  ///
  /// - Parameters:
  ///   - chromaFactor: the chroma subsampling of the result ((2, 2) for WebP, (1, 1) for RGB output).
  ///   - range: the result's range; a full-range decode resized to limited range (WebP's) is mapped by
  ///     the resize's last pass, rounding once.
  package func resize(
    _ decoded: DecodedPlanes, geometry: ThumbnailGeometry, chromaFactor: (x: Int, y: Int),
    range: YCbCrImage.Range? = nil
  ) -> YCbCrImage {
    let image = decoded.image
    let factorX = decoded.exactScale ?? Double(image.width) / Double(max(1, decoded.originalSize.width))
    let factorY = decoded.exactScale ?? Double(image.height) / Double(max(1, decoded.originalSize.height))
    return resize(
      image, to: geometry.output, region: geometry.region.scaled(by: factorX, factorY),
      chromaFactor: chromaFactor, range: range)
  }

  /// Resamples `region` of `image` (in luma pixels) to `output` luma pixels and chroma subsampled by `chromaFactor`.
  ///
  /// Chroma sample *j* of the result is centred on output luma position
  /// `chromaFactor.x · (j + ½)`, the JPEG/VP8 (centred) siting, mapped onto the
  /// source chroma plane through its own subsampling.
  ///
  /// A full-range image asked for in limited `range` is mapped by each plane's last pass (16 + Y·219/255,
  /// 128 + (C − 128)·224/255): one rounding where resizing and then ``YCbCrImage/limitedRange()`` round
  /// twice, which costs luma precision the encoder keeps (docs/imaging.md, "One rounding"). A
  /// limited-range image is not mapped back to full range (the result keeps `image.range`).
  package func resize(
    _ image: YCbCrImage, to output: Size, region: ThumbnailGeometry.Region? = nil,
    chromaFactor: (x: Int, y: Int), range: YCbCrImage.Range? = nil
  ) -> YCbCrImage {
    let mapsToLimited = image.range == .full && range == .limited
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
    let lumaMapping = mapsToLimited ? SampleMapping.limitedLuma : nil
    let luma =
      image.lumaSixteenths.map { resize($0, to: output, region: region, mapping: lumaMapping) }
      ?? resize(image.luma, to: output, region: region, mapping: lumaMapping)
    return YCbCrImage(
      luma: luma,
      cb: resize(
        image.cb, to: chromaOutput, region: chromaRegion, mapping: mapsToLimited ? .limitedChroma : nil),
      cr: resize(
        image.cr, to: chromaOutput, region: chromaRegion, mapping: mapsToLimited ? .limitedChroma : nil),
      range: mapsToLimited ? .limited : image.range, chromaFactor: target)
  }

  /// Resamples `region` of one plane to `output` samples (box pre-shrink, then the filter), its
  /// samples written through `mapping` if given.
  func resize(
    _ plane: SamplePlane, to output: Size, region: ThumbnailGeometry.Region, mapping: SampleMapping? = nil
  ) -> SamplePlane {
    guard plane.width > 0, plane.height > 0, output.width > 0, output.height > 0 else { return plane }
    return shrinkAndConvolve(plane, to: output, region: region, mapping: mapping)
  }

  /// Resamples `region` of a plane in sixteenths (box pre-shrink, then the filter in sixteenths), then
  /// rounds it to 8 bits once, through `mapping` if given.
  func resize(
    _ plane: WidePlane, to output: Size, region: ThumbnailGeometry.Region, mapping: SampleMapping? = nil
  ) -> SamplePlane {
    guard plane.width > 0, plane.height > 0, output.width > 0, output.height > 0 else {
      return plane.narrowed(mapping: nil)  // nothing to resize: what the 8-bit plane's resize returns
    }
    return shrinkAndConvolve(plane, to: output, region: region).narrowed(mapping: mapping)
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
