/// The image formats thumbify recognises by their leading bytes.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
  case jpeg, png, webp, gif, ico, cur, bmp
  /// Recognised so the error can name them, but not decoded.
  case svg, avif, heic
}
