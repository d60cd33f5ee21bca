/// The formats thumbnails are written in.
public enum OutputFormat: String, Sendable, Codable, CaseIterable {
  /// WebP (libwebp), lossy.
  case webp
  /// Baseline JPEG (libjpeg-turbo).
  case jpeg
  /// PNG (libpng), lossless.
  case png
  /// AVIF (libavif).
  case avif

  /// The blob's file extension, without the dot (`jpg` for JPEG).
  public var fileExtension: String {
    switch self {
    case .webp: "webp"
    case .jpeg: "jpg"
    case .png: "png"
    case .avif: "avif"
    }
  }

  /// The media type a server sends the blob with (`image/webp`).
  public var mimeType: String { "image/\(rawValue)" }
}

/// Options for one encode. The same pixels and options always give the same bytes.
public struct EncodeOptions: Sendable, Hashable {
  /// The format encoded to.
  public var format: OutputFormat
  /// 1–100 for WebP, JPEG and AVIF; ignored by PNG.
  public var quality: Int
  /// libwebp's `method`, its speed/size trade-off from 0 (fastest) to 6 (smallest); `nil` leaves it to
  /// the encoder (`WebPEncoder.method`, 4). Ignored by the other formats.
  public var webpMethod: Int?

  /// Options for `format` at `quality`, with libwebp's `webpMethod` (`nil`: the encoder's default).
  public init(format: OutputFormat = .webp, quality: Int = 80, webpMethod: Int? = nil) {
    self.format = format
    self.quality = quality
    self.webpMethod = webpMethod
  }
}

/// Turns pixels into encoded bytes.
package protocol ImageEncoding: Sendable {
  func encode(_ image: PixelBuffer, options: EncodeOptions) throws(ImageError) -> [UInt8]
}
