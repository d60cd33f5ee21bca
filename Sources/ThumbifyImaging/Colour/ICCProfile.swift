import CLCMS2

/// An ICC profile opened by Little CMS; the handle is closed with `cmsCloseProfile`.
///
/// The corresponding C function is `cmsOpenProfileFromMem`. Little CMS reads tags lazily and
/// tolerates a header that disagrees with the data, so the structure is checked first
/// (``structuralProblem(_:)``): a profile that lies about itself is refused whole rather than
/// half-used.
final class ICCProfile {
  let handle: cmsHPROFILE

  /// Why `bytes` is not a well-formed ICC profile (ICC.1 §7: a 128-byte header whose size field is
  /// the profile's, a tag count that fits, every tag inside the profile), or `nil`.
  static func structuralProblem(_ bytes: [UInt8]) -> String? {
    func u32(_ offset: Int) -> Int {
      bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    guard bytes.count >= 132 else { return "The profile is \(bytes.count) bytes, shorter than its header." }
    let size = u32(0)
    guard size >= 132, size <= bytes.count else {
      return "The profile's header says \(size) bytes; it has \(bytes.count)."
    }
    guard bytes[36..<40].elementsEqual("acsp".utf8) else { return "The profile has no 'acsp' signature." }
    let tags = u32(128)
    guard tags <= (size - 132) / 12 else { return "The profile declares \(tags) tags, more than fit in it." }
    for index in 0..<tags {
      let entry = 132 + index * 12
      let (offset, length) = (u32(entry + 4), u32(entry + 8))
      guard offset >= 132, length <= size, offset <= size - length else {
        return "Tag \(index) lies outside the profile (offset \(offset), \(length) bytes)."
      }
    }
    return nil
  }

  init?(_ bytes: [UInt8]) {
    guard
      let handle = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
    else { return nil }
    self.handle = handle
  }

  /// Little CMS's built-in sRGB profile.
  init?(sRGB: Void) {
    guard let handle = cmsCreate_sRGBProfile() else { return nil }
    self.handle = handle
  }

  deinit { cmsCloseProfile(handle) }

  /// The profile's description tag in English, `nil` when it has none.
  var profileDescription: String? {
    var text = [CChar](repeating: 0, count: 256)
    let length = cmsGetProfileInfoASCII(
      handle, cmsInfoDescription, "en", "US", &text, cmsUInt32Number(text.count))
    guard length > 1 else { return nil }
    let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let description = String(decoding: bytes, as: UTF8.self)
    return description.isEmpty ? nil : description
  }
}

/// A Little CMS transform to sRGB, freed with `cmsDeleteTransform`.
///
/// @unchecked Sendable: built with `cmsFLAGS_NOCACHE`, so `cmsDoTransform` keeps no state in the
/// transform (its one-pixel cache is off) and Little CMS allows calls from several threads at once.
final class ColorTransform: @unchecked Sendable {
  let handle: cmsHTRANSFORM
  /// The same conversion as tables and a matrix, for an RGB or grey matrix/TRC source profile (no CLUT)
  /// converted to 8-bit RGB, when it agrees with Little CMS to a level; `nil` otherwise.
  let matrixShaper: MatrixShaperConversion?

  /// A perceptual transform with black-point compensation from `source` (samples laid out as
  /// `format`) to sRGB samples laid out as `output`.
  ///
  /// The corresponding C function is `cmsCreateTransform`.
  init?(from source: ICCProfile, format: cmsUInt32Number, toSRGB output: cmsUInt32Number) {
    guard let sRGB = ICCProfile(sRGB: ()),
      let handle = cmsCreateTransform(
        source.handle, format, sRGB.handle, output, cmsUInt32Number(INTENT_PERCEPTUAL),
        cmsUInt32Number(cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOCACHE))
    else { return nil }
    self.handle = handle
    let isMatrixShaper =
      cmsIsMatrixShaper(source.handle) != 0
      && cmsIsCLUT(source.handle, cmsUInt32Number(INTENT_PERCEPTUAL), cmsUInt32Number(LCMS_USED_AS_INPUT))
        == 0
    let readsRGB = format == thumbify_lcms_rgb_8 || format == thumbify_lcms_gray_in_rgb_8
    self.matrixShaper =
      isMatrixShaper && readsRGB && output == thumbify_lcms_rgb_8
      ? MatrixShaperConversion(source: source, transform: handle) : nil
  }

  deinit { cmsDeleteTransform(handle) }

  /// Converts `count` pixels. The corresponding C function is `cmsDoTransform`.
  func apply(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, count: Int) {
    var done = 0
    while done < count {  // cmsDoTransform counts pixels in 32 bits
      let chunk = min(count - done, 1 << 24)
      cmsDoTransform(
        handle, source + done * inputBytesPerPixel, destination + done * outputBytesPerPixel,
        cmsUInt32Number(chunk))
      done += chunk
    }
  }

  private var inputBytesPerPixel: Int { Self.bytesPerPixel(cmsGetTransformInputFormat(handle)) }
  private var outputBytesPerPixel: Int { Self.bytesPerPixel(cmsGetTransformOutputFormat(handle)) }

  /// Bytes a pixel of an 8-bit format: its colour channels plus its extra ones (lcms2.h's bit fields).
  private static func bytesPerPixel(_ format: cmsUInt32Number) -> Int {
    Int((format >> 3) & 15) + Int((format >> 7) & 7)
  }

  /// Whether the transform moves no sample by more than one level over a 17³ RGB grid (corners,
  /// edges and the inside of the cube): an sRGB profile, under whatever name, which is then skipped.
  func isIdentity(channels: Int) -> Bool {
    let steps = (0...16).map { UInt8(min(255, $0 * 16)) }
    var grid = [UInt8]()
    grid.reserveCapacity(17 * 17 * 17 * channels)
    for red in steps {
      for green in steps {
        for blue in steps {
          grid += [red, green, blue]
          if channels == 4 { grid.append(255) }
        }
      }
    }
    var converted = grid
    grid.withUnsafeBytes { source in
      converted.withUnsafeMutableBytes { destination in
        apply(from: source.baseAddress!, to: destination.baseAddress!, count: grid.count / channels)
      }
    }
    return zip(grid, converted).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
  }
}
