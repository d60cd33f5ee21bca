extension YCbCrImage {
  /// The planes turned upright for an image stored with `orientation` (each plane
  /// turned alone; values 5–8 swap the chroma subsampling factors too).
  ///
  /// A mirrored odd-sized plane keeps its half chroma sample at the far edge,
  /// which shifts that chroma by half a luma pixel at the decoded scale.
  ///
  /// - Complexity: O(*n*) in the number of samples, with new planes of the same size.
  package func oriented(_ orientation: ExifOrientation) -> YCbCrImage {
    guard orientation != .up else { return self }
    let factor = orientation.swapsDimensions ? (x: chromaFactor.y, y: chromaFactor.x) : chromaFactor
    var upright = YCbCrImage(
      luma: luma.oriented(orientation), cb: cb.oriented(orientation), cr: cr.oriented(orientation),
      range: range, chromaFactor: factor)
    upright.lumaSixteenths = lumaSixteenths?.oriented(orientation)
    return upright
  }
}

extension SamplePlane {
  /// The plane turned upright for an image stored with `orientation`.
  package func oriented(_ orientation: ExifOrientation) -> SamplePlane {
    guard orientation != .up else { return self }
    let upright = orientation.upright(Size(width: width, height: height))
    return SamplePlane(
      width: upright.width, height: upright.height,
      samples: PixelBuffer.orientedSamples(samples, width: width, height: height, channels: 1, orientation))
  }
}

extension WidePlane {
  /// The plane turned upright for an image stored with `orientation`.
  func oriented(_ orientation: ExifOrientation) -> WidePlane {
    guard orientation != .up else { return self }
    let upright = orientation.upright(Size(width: width, height: height))
    return WidePlane(
      width: upright.width, height: upright.height,
      samples: PixelBuffer.orientedSamples(samples, width: width, height: height, channels: 1, orientation))
  }
}
