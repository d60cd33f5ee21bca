import Foundation

/// A thumbnail's placeholder: a ThumbHash (base64) and the dominant colour (`#rrggbb`).
package struct Placeholder: Sendable, Hashable {
  /// ThumbHash bytes, base64 encoded.
  package var thumbHash: String
  /// The dominant colour, `#rrggbb`.
  package var color: String

  /// The largest side the ThumbHash is computed from (the algorithm's limit).
  static let maximumSide = 100

  /// Computes both from an image of any size (downscaled with a triangle filter first).
  package init(image: PixelBuffer) {
    let geometry = ThumbnailGeometry(
      source: Size(width: image.width, height: image.height),
      box: Size(width: Self.maximumSide, height: Self.maximumSide), fit: .contain)
    let small = Resampler(filter: .triangle).resize(image, to: geometry.output)
    self.thumbHash = Data(ThumbHash.encode(small)).base64EncodedString()
    self.color = DominantColor.hex(of: small)
  }
}
