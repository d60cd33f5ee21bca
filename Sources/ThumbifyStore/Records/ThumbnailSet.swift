import ThumbifyImaging

/// The thumbnails made from one source image.
public struct ThumbnailSet: Sendable, Codable, Equatable {
  /// The image's URL (or path, for `thumbify thumb`).
  public var source: String
  /// The source's full size, upright.
  public var width: Int
  public var height: Int
  /// ThumbHash of the image, base64.
  public var placeholder: String
  /// Dominant colour, `#rrggbb`.
  public var color: String
  public var variants: [Thumbnail]

  public init(
    source: String, width: Int, height: Int, placeholder: String, color: String, variants: [Thumbnail]
  ) {
    self.source = source
    self.width = width
    self.height = height
    self.placeholder = placeholder
    self.color = color
    self.variants = variants
  }
}

/// One stored thumbnail.
public struct Thumbnail: Sendable, Codable, Equatable {
  /// The variant's name (`card`, `card2x`, `icon`, or a `--variant` name).
  public var name: String
  /// Relative to the output directory: `blobs/ab/cd/<sha256>.webp`.
  public var path: String
  public var width: Int
  public var height: Int
  public var bytes: Int
  public var format: OutputFormat
  public var sha256: String

  public init(
    name: String, path: String, width: Int, height: Int, bytes: Int, format: OutputFormat, sha256: String
  ) {
    self.name = name
    self.path = path
    self.width = width
    self.height = height
    self.bytes = bytes
    self.format = format
    self.sha256 = sha256
  }
}
