/// What a decode did with the source's embedded colour profile (ICC), recorded in the manifest.
///
/// A source without a profile has none (`nil` in ``DecodedImage/profile``): it is taken as sRGB,
/// as browsers take it. See docs/imaging.md, "Colour management".
package struct SourceProfile: Sendable, Equatable {
  /// The profile's description tag (`desc`), e.g. `Adobe RGB (1998)`; `nil` when it has none or is unreadable.
  package var description: String?
  /// Whether the pixels were converted to sRGB; `false` for a profile that is sRGB already and for one
  /// that could not be used (see ``warning``).
  package var isConverted: Bool
  /// Why the profile was ignored (the image was then treated as sRGB).
  package var warning: ColorProfileWarning?

  package init(description: String?, isConverted: Bool, warning: ColorProfileWarning? = nil) {
    self.description = description
    self.isConverted = isConverted
    self.warning = warning
  }
}

/// Why an embedded colour profile was not applied. The image is decoded all the same, as sRGB.
package enum ColorProfileWarning: Error, Sendable, Equatable, CustomStringConvertible {
  /// The container's profile chunks are broken: JPEG `ICC_PROFILE` segments out of sequence,
  /// missing or duplicated, or a profile larger than `ColorManagement.maxProfileBytes`.
  case malformedChunks(format: ImageFormat, message: String)
  /// Little CMS refused the profile (corrupt, truncated, hostile tag table), or it describes
  /// a colour space the pixels are not in.
  case unusableProfile(message: String)

  /// A stable machine-readable code for manifests.
  package var code: String {
    switch self {
    case .malformedChunks: "colorProfileMalformed"
    case .unusableProfile: "colorProfileUnusable"
    }
  }

  package var description: String {
    switch self {
    case .malformedChunks(let format, let message):
      "The \(format.rawValue.uppercased()) image's colour profile is malformed and was ignored: \(message)"
    case .unusableProfile(let message):
      "The image's colour profile could not be used and was ignored: \(message)"
    }
  }
}

/// A profile as found in the container, before Little CMS has looked at it.
enum EmbeddedProfile: Sendable, Equatable {
  case bytes([UInt8])
  case malformed(ColorProfileWarning)
}
