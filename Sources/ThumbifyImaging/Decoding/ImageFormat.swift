/// The image formats thumbify recognises by their leading bytes.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
  case jpeg, png, webp, gif, ico, cur, bmp, svg, avif
  /// Recognised so the error can name it, but not decoded (docs/decoding.md, "HEIC").
  case heic
}
