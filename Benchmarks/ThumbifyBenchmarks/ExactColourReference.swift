import CLCMS2
import Thumbify

/// The source pixels of the quality reference for an RGB JPEG with an ICC profile, converted to sRGB
/// independently of what is measured: the JPEG decoded without its profile (the APP2 `ICC_PROFILE`
/// segments dropped), then Little CMS in double precision (no optimisation into 8-bit tables, the
/// intent thumbify uses), clipped and rounded once.
///
/// thumbify's own full decode converts with the same 8-bit tables as its RGB and planar paths, and
/// Little CMS's 8-bit transform (vipsthumbnail's, Pillow's, thumbify's before 6 Dec 2026) has its own
/// level-sized errors: a reference made by either favours the tools that share its rounding.
enum ExactColourReference {
  /// The profile-free JPEG and its profile, or `nil` for a JPEG without an RGB profile (or not a JPEG).
  static func split(_ bytes: [UInt8]) -> (jpeg: [UInt8], profile: [UInt8])? {
    guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    let signature = Array("ICC_PROFILE".utf8) + [0]
    var kept: [UInt8] = [0xFF, 0xD8]
    var profile: [UInt8] = []
    var offset = 2
    while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
      let marker = bytes[offset + 1]
      if marker == 0xDA { break }  // the scan and what follows are copied as they are
      let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
      guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
      let segment = bytes[(offset + 4)..<(offset + 2 + length)]
      if marker == 0xE2, segment.starts(with: signature) {
        profile += segment.dropFirst(signature.count + 2)  // the chunk's number and count
      } else {
        kept += bytes[offset..<(offset + 2 + length)]
      }
      offset += 2 + length
    }
    guard !profile.isEmpty, offset < bytes.count else { return nil }
    kept += bytes[offset...]
    return (kept, profile)
  }

  /// `rgb` (three bytes a pixel, in `profile`'s space) in sRGB, or `nil` when Little CMS cannot read
  /// the profile or it is not an RGB one.
  static func convert(_ rgb: PixelBuffer, from profile: [UInt8]) -> PixelBuffer? {
    guard rgb.channels == 3,
      let source = profile.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) })
    else { return nil }
    defer { cmsCloseProfile(source) }
    guard cmsGetColorSpace(source) == cmsSigRgbData, let sRGB = cmsCreate_sRGBProfile() else { return nil }
    defer { cmsCloseProfile(sRGB) }
    // TYPE_RGB_DBL: FLOAT_SH(1) | COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | BYTES_SH(0) (a macro Swift
    // cannot import); RGB doubles are 0…1.
    let rgbDouble: cmsUInt32Number = (1 << 22) | (4 << 16) | (3 << 3)
    let flags = cmsUInt32Number(cmsFLAGS_NOOPTIMIZE | cmsFLAGS_BLACKPOINTCOMPENSATION)
    guard
      let transform = cmsCreateTransform(
        source, rgbDouble, sRGB, rgbDouble, cmsUInt32Number(INTENT_PERCEPTUAL), flags)
    else { return nil }
    defer { cmsDeleteTransform(transform) }
    let input = rgb.pixels.map { Double($0) / 255 }
    var output = [Double](repeating: 0, count: input.count)
    cmsDoTransform(transform, input, &output, cmsUInt32Number(rgb.width * rgb.height))
    let pixels = output.map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
    return PixelBuffer(width: rgb.width, height: rgb.height, channels: 3, pixels: pixels)
  }
}
