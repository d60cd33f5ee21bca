import CLCMS2
import ThumbifySystem

/// Converts decoded pixels from their embedded ICC profile to sRGB with Little CMS.
///
/// Every conversion is perceptual with black-point compensation (what libvips and Pillow do when
/// asked for sRGB), runs at the decode's output size before resampling, and writes untagged sRGB.
/// A matrix/TRC profile on a JPEG's planes is converted by tables and a matrix that agree with
/// Little CMS (``planarConversion(_:)``).
/// A profile is looked at once per process: its SHA-256 keys a cache of what to do with it, so a
/// site's thousand images with one camera profile build one transform, and an sRGB profile costs a
/// digest and a lookup. An image without a profile never reaches this type. See docs/imaging.md.
enum ColorManagement {
  /// The largest profile accepted, in bytes: real ones, CMYK press profiles included, are under 4 MB.
  static let maxProfileBytes = 4 << 20

  /// How the samples that a transform reads are laid out.
  enum Layout: UInt8, Sendable {
    /// RGB (or grey expanded to RGB) with three bytes a pixel.
    case rgb
    /// As ``rgb`` with straight alpha in a fourth byte, left as it is.
    case rgba
    /// Adobe's inverted CMYK (255 = no ink), four bytes a pixel, converted to RGB.
    case invertedCMYK
  }

  /// What to do with one profile in one layout.
  enum Plan: Sendable {
    /// The profile is sRGB to within one level on a 17³ grid: nothing to convert.
    case identity(description: String?)
    case convert(ColorTransform, description: String?)
    case unusable(ColorProfileWarning, description: String?)
  }

  /// Plans by profile digest and layout. A crawl decodes on several threads; the cache's lock is held
  /// only for the lookup, so two threads meeting a new profile at once may both build its transform.
  private static let plans = LRUCache<[UInt8], Plan>(capacity: 64)

  /// The plan for `profile`, from the cache or made and cached.
  static func plan(for profile: [UInt8], layout: Layout) -> Plan {
    guard profile.count <= maxProfileBytes else {
      return .unusable(
        .unusableProfile(message: "The profile is \(profile.count) bytes, more than \(maxProfileBytes)."),
        description: nil)
    }
    let key = SHA256Digest.bytes(of: profile) + [layout.rawValue]
    if let known = plans[key] { return known }
    let made = makePlan(profile, layout: layout)
    plans[key] = made
    return made
  }

  /// Converts `buffer` in place from `profile` to sRGB; returns what was done, for the manifest.
  static func convert(_ buffer: inout PixelBuffer, from profile: EmbeddedProfile) -> SourceProfile {
    let bytes: [UInt8]
    switch profile {
    case .malformed(let warning): return SourceProfile(description: nil, isConverted: false, warning: warning)
    case .bytes(let found): bytes = found
    }
    switch plan(for: bytes, layout: buffer.hasAlpha ? .rgba : .rgb) {
    case .identity(let description):
      return SourceProfile(description: description, isConverted: false)
    case .unusable(let warning, let description):
      return SourceProfile(description: description, isConverted: false, warning: warning)
    case .convert(let transform, let description):
      let count = buffer.width * buffer.height
      // A matrix/TRC profile on RGB: the same conversion, without Little CMS's per-pixel calls.
      if let tables = transform.matrixShaper, count > 0 {
        buffer.pixels.withUnsafeMutableBufferPointer {
          tables.apply($0.baseAddress!, count: count, channels: 3)
        }
        return SourceProfile(description: description, isConverted: true)
      }
      buffer.pixels.withUnsafeMutableBytes { pixels in
        // In place: both layouts have the same bytes a pixel, and alpha is not written (no COPY_ALPHA).
        transform.apply(from: UnsafeRawPointer(pixels.baseAddress!), to: pixels.baseAddress!, count: count)
      }
      return SourceProfile(description: description, isConverted: true)
    }
  }

  /// RGB from inverted CMYK samples through `profile`, or `nil` (with what to record) when the
  /// profile cannot be used, for the caller's profile-free conversion.
  static func rgb(fromInvertedCMYK cmyk: [UInt8], width: Int, height: Int, profile: EmbeddedProfile)
    -> (buffer: PixelBuffer?, profile: SourceProfile)
  {
    let bytes: [UInt8]
    switch profile {
    case .malformed(let warning):
      return (nil, SourceProfile(description: nil, isConverted: false, warning: warning))
    case .bytes(let found): bytes = found
    }
    switch plan(for: bytes, layout: .invertedCMYK) {
    case .identity(let description):  // a CMYK plan is never an identity; kept for exhaustiveness
      return (nil, SourceProfile(description: description, isConverted: false))
    case .unusable(let warning, let description):
      return (nil, SourceProfile(description: description, isConverted: false, warning: warning))
    case .convert(let transform, let description):
      let count = width * height
      let rgb = [UInt8](unsafeUninitializedCapacity: count * 3) { out, initialized in
        cmyk.withUnsafeBytes { source in
          transform.apply(
            from: source.baseAddress!, to: UnsafeMutableRawPointer(out.baseAddress!), count: count)
        }
        initialized = count * 3
      }
      return (
        PixelBuffer(width: width, height: height, channels: 3, pixels: rgb),
        SourceProfile(description: description, isConverted: true)
      )
    }
  }

  /// Whether `profile` needs converting for an opaque RGB decode: the planar (Y′CbCr) paths decline such
  /// images, which the RGB path converts. A malformed or unusable profile is ignored there too.
  static func needsConversion(_ profile: EmbeddedProfile?) -> Bool {
    guard case .bytes(let bytes)? = profile else { return false }
    if case .convert = plan(for: bytes, layout: .rgb) { return true }
    return false
  }

  /// The conversion a planar decode applies to its planes (``MatrixShaperConversion``), with what to
  /// record, for a profile that needs converting and is matrix/TRC (RGB or grey); `nil` for any other
  /// (no profile, sRGB, unusable, CLUT), which the caller handles as before.
  static func planarConversion(_ profile: EmbeddedProfile?)
    -> (conversion: MatrixShaperConversion, profile: SourceProfile)?
  {
    guard case .bytes(let bytes)? = profile,
      case .convert(let transform, let description) = plan(for: bytes, layout: .rgb),
      let conversion = transform.matrixShaper
    else { return nil }
    return (conversion, SourceProfile(description: description, isConverted: true))
  }

  /// What is recorded for a profile that ``needsConversion(_:)`` said to leave alone (an sRGB one,
  /// or one ignored with a warning), on the planar paths.
  static func unconverted(_ profile: EmbeddedProfile) -> SourceProfile {
    switch profile {
    case .malformed(let warning): return SourceProfile(description: nil, isConverted: false, warning: warning)
    case .bytes(let bytes):
      switch plan(for: bytes, layout: .rgb) {
      case .identity(let description), .convert(_, let description):
        return SourceProfile(description: description, isConverted: false)
      case .unusable(let warning, let description):
        return SourceProfile(description: description, isConverted: false, warning: warning)
      }
    }
  }

  private static func makePlan(_ bytes: [UInt8], layout: Layout) -> Plan {
    if let problem = ICCProfile.structuralProblem(bytes) {
      return .unusable(.unusableProfile(message: problem), description: nil)
    }
    guard let source = ICCProfile(bytes) else {
      return .unusable(.unusableProfile(message: "Little CMS could not read the profile."), description: nil)
    }
    let description = source.profileDescription
    let space = cmsGetColorSpace(source.handle)
    let input: cmsUInt32Number
    switch (layout, space) {
    case (.rgb, cmsSigRgbData): input = thumbify_lcms_rgb_8
    case (.rgba, cmsSigRgbData): input = thumbify_lcms_rgba_8
    case (.rgb, cmsSigGrayData): input = thumbify_lcms_gray_in_rgb_8
    case (.rgba, cmsSigGrayData): input = thumbify_lcms_gray_in_rgba_8
    case (.invertedCMYK, cmsSigCmykData): input = thumbify_lcms_cmyk_8_rev
    default:
      let kind = layout == .invertedCMYK ? "CMYK" : "RGB or grey"
      return .unusable(
        .unusableProfile(
          message: "The profile is for \(space.fourCharacterCode) data; the pixels are \(kind)."),
        description: description)
    }
    let output = layout == .rgba ? thumbify_lcms_rgba_8 : thumbify_lcms_rgb_8
    guard let transform = ColorTransform(from: source, format: input, toSRGB: output) else {
      return .unusable(
        .unusableProfile(message: "Little CMS could not build a transform to sRGB from the profile."),
        description: description)
    }
    if layout != .invertedCMYK, transform.isIdentity(channels: layout == .rgba ? 4 : 3) {
      return .identity(description: description)
    }
    return .convert(transform, description: description)
  }
}

extension cmsColorSpaceSignature {
  /// The signature's four characters (`RGB `, `CMYK`, `Lab `), for messages.
  var fourCharacterCode: String {
    let value = rawValue
    let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    let printable = bytes.allSatisfy { (0x20...0x7E).contains($0) }
    return printable
      ? String(decoding: bytes, as: UTF8.self).trimmingSuffixSpaces : "0x\(String(value, radix: 16))"
  }
}

extension String {
  fileprivate var trimmingSuffixSpaces: String {
    var result = self
    while result.hasSuffix(" ") { result.removeLast() }
    return result
  }
}
