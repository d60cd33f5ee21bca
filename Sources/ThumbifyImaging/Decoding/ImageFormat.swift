/// The image formats thumbify recognises by their leading bytes.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
  /// JPEG (libjpeg-turbo).
  case jpeg
  /// PNG, APNG's first frame (libpng).
  case png
  /// WebP, lossy, lossless or animated's first frame (libwebp).
  case webp
  /// GIF's first frame (giflib).
  case gif
  /// Windows icon: the best of its images.
  case ico
  /// Windows cursor, read as an icon.
  case cur
  /// BMP, uncompressed or RLE.
  case bmp
  /// SVG, rasterised by librsvg.
  case svg
  /// AVIF (libavif).
  case avif
  /// Recognised so the error can name it, but not decoded (docs/decoding.md, "HEIC").
  case heic
}
