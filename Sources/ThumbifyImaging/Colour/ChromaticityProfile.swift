import CLCMS2

/// The RGB space a PNG's `cHRM` chunk (and `gAMA`) describes when it has no `iCCP`, as an ICC profile.
///
/// The profile is handed to ``ColorManagement`` as if the file had embedded it, so one conversion path
/// (and its cache, keyed by the profile's bytes: a site's files with the same chunks share one
/// transform) serves both. Without `gAMA` the curve is sRGB's, as browsers (Skia) take it. A `cHRM`
/// with sRGB's own values never gets here (`thumbify_png_read_rows` leaves those to libpng's gamma
/// handling), so the common file pays nothing. See docs/decoding.md, "Colour profiles".
struct ChromaticityProfile {
  /// White point x, y, then red, green and blue x, y, as written in `cHRM` (×100000).
  var chromaticities: [Int32]
  /// `gAMA` (×100000, the encoding exponent: 45455 for 1/2.2), or 0 without one.
  var fileGamma: Int32

  /// The profile bytes, or a warning when Little CMS cannot make an RGB space of the values.
  ///
  /// The corresponding C functions are `cmsCreateRGBProfile` and `cmsSaveProfileToMem`.
  var embedded: EmbeddedProfile {
    let xy = chromaticities.map { Double($0) / 100_000 }
    var white = cmsCIExyY(x: xy[0], y: xy[1], Y: 1)
    var primaries = cmsCIExyYTRIPLE(
      Red: cmsCIExyY(x: xy[2], y: xy[3], Y: 1), Green: cmsCIExyY(x: xy[4], y: xy[5], Y: 1),
      Blue: cmsCIExyY(x: xy[6], y: xy[7], Y: 1))
    // The sRGB curve as IEC 61966-2-1 defines it: Little CMS's parametric type 4.
    let sRGBCurve: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
    let curve =
      fileGamma > 0
      ? cmsBuildGamma(nil, 100_000 / Double(fileGamma)) : cmsBuildParametricToneCurve(nil, 4, sRGBCurve)
    defer { if let curve { cmsFreeToneCurve(curve) } }
    var curves: [OpaquePointer?] = [curve, curve, curve]
    guard curve != nil, let profile = cmsCreateRGBProfile(&white, &primaries, &curves) else {
      return .malformed(
        .unusableProfile(message: "Little CMS could not make an RGB space of the cHRM chromaticities \(xy)."))
    }
    defer { cmsCloseProfile(profile) }
    let mlu = cmsMLUalloc(nil, 1)
    defer { cmsMLUfree(mlu) }
    cmsMLUsetASCII(mlu, "en", "US", fileGamma > 0 ? "PNG cHRM and gAMA" : "PNG cHRM")
    cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
    var length: cmsUInt32Number = 0
    guard cmsSaveProfileToMem(profile, nil, &length) != 0 else {
      return .malformed(.unusableProfile(message: "Little CMS could not write the cHRM profile."))
    }
    var bytes = [UInt8](repeating: 0, count: Int(length))
    guard bytes.withUnsafeMutableBytes({ cmsSaveProfileToMem(profile, $0.baseAddress, &length) }) != 0 else {
      return .malformed(.unusableProfile(message: "Little CMS could not write the cHRM profile."))
    }
    return .bytes(bytes)
  }
}
