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
  /// The colour profile the source embedded and what was done with it; `nil` when it had none.
  public var profile: ProfileRecord?

  public init(
    source: String, width: Int, height: Int, placeholder: String, color: String, variants: [Thumbnail],
    profile: ProfileRecord? = nil
  ) {
    self.source = source
    self.width = width
    self.height = height
    self.placeholder = placeholder
    self.color = color
    self.variants = variants
    self.profile = profile
  }
}

/// A source's embedded ICC profile as the manifest records it (``SourceProfile``).
public struct ProfileRecord: Sendable, Codable, Equatable {
  /// The profile's description tag, e.g. `Adobe RGB (1998)`.
  public var description: String?
  /// Whether the pixels were converted to sRGB (`false`: sRGB already, or ignored with a warning).
  public var converted: Bool
  /// Why the profile was ignored; the image was then treated as sRGB.
  public var warning: ProfileWarningRecord?

  public init(description: String?, converted: Bool, warning: ProfileWarningRecord? = nil) {
    self.description = description
    self.converted = converted
    self.warning = warning
  }

  public init(_ profile: SourceProfile) {
    self.init(
      description: profile.description, converted: profile.isConverted,
      warning: profile.warning.map { ProfileWarningRecord(code: $0.code, message: $0.description) })
  }
}

/// A ``ColorProfileWarning``'s stable code and sentence.
public struct ProfileWarningRecord: Sendable, Codable, Equatable {
  public var code: String
  public var message: String

  public init(code: String, message: String) {
    self.code = code
    self.message = message
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
