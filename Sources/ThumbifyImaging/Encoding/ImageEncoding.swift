/// The formats thumbnails are written in.
public enum OutputFormat: String, Sendable, Codable, CaseIterable {
  case webp, jpeg, png, avif

  public var fileExtension: String {
    switch self {
    case .webp: "webp"
    case .jpeg: "jpg"
    case .png: "png"
    case .avif: "avif"
    }
  }

  public var mimeType: String { "image/\(rawValue)" }
}

/// Options for one encode. The same pixels and options always give the same bytes.
public struct EncodeOptions: Sendable, Hashable {
  public var format: OutputFormat
  /// 1–100 for WebP, JPEG and AVIF; ignored by PNG.
  public var quality: Int

  public init(format: OutputFormat = .webp, quality: Int = 80) {
    self.format = format
    self.quality = quality
  }
}

/// Turns pixels into encoded bytes.
public protocol ImageEncoding: Sendable {
  func encode(_ image: PixelBuffer, options: EncodeOptions) throws(ImageError) -> [UInt8]
}
