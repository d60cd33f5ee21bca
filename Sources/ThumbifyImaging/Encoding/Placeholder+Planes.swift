import Foundation

extension Placeholder {
  /// Computes both from Y′CbCr planes: each plane is downscaled (triangle filter)
  /// straight to the placeholder size, chroma included, then converted to RGB.
  ///
  /// The same algorithm as ``init(image:)`` on the planes' RGB, up to rounding,
  /// without converting the whole thumbnail to RGB first.
  package init(planes: YCbCrImage) {
    let geometry = ThumbnailGeometry(
      source: Size(width: planes.width, height: planes.height),
      box: Size(width: Self.maximumSide, height: Self.maximumSide), fit: .contain)
    let small = Resampler(filter: .triangle).resize(planes, to: geometry.output, chromaFactor: (1, 1)).rgb()
    self.thumbHash = Data(ThumbHash.encode(small)).base64EncodedString()
    self.color = DominantColor.hex(of: small)
  }
}
