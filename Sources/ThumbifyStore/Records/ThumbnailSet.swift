import ThumbifyImaging

/// The thumbnails made from one source image.
package struct ThumbnailSet: Sendable, Codable, Equatable {
  /// The image's URL (or path, for `thumbify thumb`).
  package var source: String
  /// The source's full size, upright.
  package var width: Int
  package var height: Int
  /// ThumbHash of the image, base64.
  package var placeholder: String
  /// Dominant colour, `#rrggbb`.
  package var color: String
  package var variants: [Thumbnail]
  /// The colour profile the source embedded and what was done with it; `nil` when it had none.
  package var profile: ProfileRecord?

  package init(
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
package struct ProfileRecord: Sendable, Codable, Equatable {
  /// The profile's description tag, e.g. `Adobe RGB (1998)`.
  package var description: String?
  /// Whether the pixels were converted to sRGB (`false`: sRGB already, or ignored with a warning).
  package var converted: Bool
  /// Why the profile was ignored; the image was then treated as sRGB.
  package var warning: ProfileWarningRecord?

  package init(description: String?, converted: Bool, warning: ProfileWarningRecord? = nil) {
    self.description = description
    self.converted = converted
    self.warning = warning
  }

  package init(_ profile: SourceProfile) {
    self.init(
      description: profile.description, converted: profile.isConverted,
      warning: profile.warning.map { ProfileWarningRecord(code: $0.code, message: $0.description) })
  }
}

/// A ``ColorProfileWarning``'s stable code and sentence.
package struct ProfileWarningRecord: Sendable, Codable, Equatable {
  package var code: String
  package var message: String

  package init(code: String, message: String) {
    self.code = code
    self.message = message
  }
}

/// One stored thumbnail.
package struct Thumbnail: Sendable, Codable, Equatable {
  /// The variant's name (`card`, `card2x`, `icon`, or a `--variant` name).
  package var name: String
  /// Relative to the output directory: `blobs/ab/cd/<sha256>.webp`.
  package var path: String
  package var width: Int
  package var height: Int
  package var bytes: Int
  package var format: OutputFormat
  package var sha256: String

  package init(
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
