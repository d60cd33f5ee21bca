import CLCMS2
import CTurboJPEG
import Foundation
import ThumbifyImaging

/// Colour-managed test images, made here with Little CMS so that no fixture has to be trusted: the
/// profiles are built from their published primaries, white points and curves, and the pixels are
/// converted from an sRGB picture (relative colorimetric, the inverse of what a matrix/shaper
/// profile's perceptual intent does). docs/imaging.md, "Colour management", says how they are used.
extension TestImages {
  /// The RGB working spaces the tests embed, by their published definitions.
  package enum RGBSpace: String, CaseIterable, Sendable {
    case adobeRGB = "Adobe RGB (1998)"
    case proPhoto = "ProPhoto RGB"
    case sRGB = "sRGB IEC61966-2.1"
  }

  /// A working space's published white point and primaries (CIE x, y) and its gamma.
  package struct RGBSpaceDefinition {
    package var white: (Double, Double)
    package var red: (Double, Double)
    package var green: (Double, Double)
    package var blue: (Double, Double)
    package var gamma: Double
  }

  /// A 96×64 picture of what a profile changes most: saturated primaries and secondaries, skin and
  /// sky tones, and a grey ramp, in 16×16 patches (no edges inside a patch, so JPEG keeps them flat).
  package static let colourChart: PixelBuffer = {
    let patches: [(UInt8, UInt8, UInt8)] = [
      (230, 30, 30), (30, 200, 40), (40, 60, 220), (250, 220, 20), (20, 210, 220), (210, 40, 200),
      (225, 170, 140), (120, 80, 60), (90, 150, 220), (60, 120, 40), (250, 130, 20), (140, 20, 60),
      (0, 0, 0), (40, 40, 40), (90, 90, 90), (140, 140, 140), (200, 200, 200), (255, 255, 255),
      (255, 0, 0), (0, 255, 0), (0, 0, 255), (128, 0, 0), (0, 128, 0), (0, 0, 128),
    ]
    return rgb(width: 96, height: 64) { x, y in patches[(y / 16) * 6 + x / 16] }
  }()

  /// An ICC profile (version 4, matrix/shaper) for `space`, with its name as the description.
  package static func iccProfile(_ space: RGBSpace) -> [UInt8] {
    let profile: cmsHPROFILE
    switch space {
    case .sRGB:
      profile = cmsCreate_sRGBProfile()
    case .adobeRGB, .proPhoto:
      let definition = space.definition
      profile = rgbProfile(
        white: definition.white, red: definition.red, green: definition.green, blue: definition.blue,
        gamma: definition.gamma)
    }
    defer { cmsCloseProfile(profile) }
    setDescription(profile, space.rawValue)
    return save(profile)
  }

  private static func rgbProfile(
    white: (Double, Double), red: (Double, Double), green: (Double, Double), blue: (Double, Double),
    gamma: Double
  ) -> cmsHPROFILE {
    var whitePoint = cmsCIExyY(x: white.0, y: white.1, Y: 1)
    var primaries = cmsCIExyYTRIPLE(
      Red: cmsCIExyY(x: red.0, y: red.1, Y: 1), Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
      Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1))
    let curve = cmsBuildGamma(nil, gamma)
    defer { cmsFreeToneCurve(curve) }
    var curves: [OpaquePointer?] = [curve, curve, curve]
    return cmsCreateRGBProfile(&whitePoint, &primaries, &curves)!
  }

  /// A CMYK press-like profile (input class, Lab PCS, a 9⁴ CLUT): ink darkens more than the
  /// profile-free formula says, as dot gain does on paper (``cmykModel(_:)``).
  package static func cmykProfile() -> [UInt8] {
    clutProfile(space: cmsSigCmykData, channels: 4, description: "Thumbify test press CMYK") {
      input, output, _ in
      let ink = (0..<4).map { Double(input![$0]) / 65535 }
      var lab = TestImages.lab(fromSRGB: TestImages.cmykModel(ink))
      cmsFloat2LabEncoded(output, &lab)
      return 1
    }
  }

  /// An RGB input profile made of a CLUT (9³ grid, Lab PCS, no matrix or TRC tags) whose colours are
  /// sRGB's darkened by a 1.3 power: a profile a matrix/TRC shortcut must not be used for.
  package static func rgbCLUTProfile() -> [UInt8] {
    clutProfile(space: cmsSigRgbData, channels: 3, description: "Thumbify test RGB CLUT") {
      input, output, _ in
      let rgb = (0..<3).map { pow(Double(input![$0]) / 65535, 1.3) }
      var lab = TestImages.lab(fromSRGB: rgb)
      cmsFloat2LabEncoded(output, &lab)
      return 1
    }
  }

  /// An input profile (v4.3, Lab PCS) of `channels` samples in `space` whose AToB0 is a 9-point CLUT
  /// filled by `sampler` (input samples → encoded Lab), between identity curves, as lutAtoBType needs.
  private static func clutProfile(
    space: cmsColorSpaceSignature, channels: UInt32, description: String, sampler: cmsSAMPLER16
  ) -> [UInt8] {
    let profile = cmsCreateProfilePlaceholder(nil)!
    defer { cmsCloseProfile(profile) }
    cmsSetProfileVersion(profile, 4.3)
    cmsSetDeviceClass(profile, cmsSigInputClass)
    cmsSetColorSpace(profile, space)
    cmsSetPCS(profile, cmsSigLabData)
    let pipeline = cmsPipelineAlloc(nil, channels, 3)!
    defer { cmsPipelineFree(pipeline) }
    let clut = cmsStageAllocCLut16bit(nil, 9, channels, 3, nil)!
    cmsStageSampleCLut16bit(clut, sampler, nil, 0)
    cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, channels, nil))
    cmsPipelineInsertStage(pipeline, cmsAT_END, clut)
    cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil))
    cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline))
    var d50 = cmsD50_XYZ().pointee
    cmsWriteTag(profile, cmsSigMediaWhitePointTag, &d50)
    setDescription(profile, description)
    return save(profile)
  }

  /// The test press's sRGB colour (0…1) for CMYK ink amounts (0…1): the profile-free formula
  /// (``CMYKConversion``), then darkened by a 1.4 power, as dot gain darkens mid-tones.
  package static func cmykModel(_ ink: [Double]) -> [Double] {
    (0..<3).map { pow((1 - ink[$0]) * (1 - ink[3]), 1.4) }
  }

  /// CIE L*a*b* (D50, as ICC's PCS) of an sRGB colour given as 0…1 values.
  package static func lab(fromSRGB rgb: [Double]) -> cmsCIELab {
    let linear = rgb.map { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
    // sRGB's D65 primaries adapted to D50 (Bradford), the matrix ICC profiles of sRGB carry.
    var xyz = cmsCIEXYZ(
      X: 0.4360747 * linear[0] + 0.3850649 * linear[1] + 0.1430804 * linear[2],
      Y: 0.2225045 * linear[0] + 0.7168786 * linear[1] + 0.0606169 * linear[2],
      Z: 0.0139322 * linear[0] + 0.0971045 * linear[1] + 0.7141733 * linear[2])
    var lab = cmsCIELab()
    cmsXYZ2Lab(cmsD50_XYZ(), &lab, &xyz)
    return lab
  }

  private static func setDescription(_ profile: cmsHPROFILE, _ text: String) {
    let mlu = cmsMLUalloc(nil, 1)
    defer { cmsMLUfree(mlu) }
    cmsMLUsetASCII(mlu, "en", "US", text)
    cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
  }

  private static func save(_ profile: cmsHPROFILE) -> [UInt8] {
    cmsMD5computeID(profile)
    var length: cmsUInt32Number = 0
    guard cmsSaveProfileToMem(profile, nil, &length) != 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: Int(length))
    guard bytes.withUnsafeMutableBytes({ cmsSaveProfileToMem(profile, $0.baseAddress, &length) }) != 0 else {
      return []
    }
    return bytes
  }

  /// `buffer` (sRGB) re-encoded in `space`'s numbers: the pixels a camera set to that space writes.
  package static func converting(_ buffer: PixelBuffer, to space: RGBSpace) -> PixelBuffer {
    let sRGB = cmsCreate_sRGBProfile()
    let target = iccProfile(space).withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
    defer {
      cmsCloseProfile(sRGB)
      cmsCloseProfile(target)
    }
    let transform = cmsCreateTransform(
      sRGB, thumbify_lcms_rgb_8, target, thumbify_lcms_rgb_8, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), 0
    )
    defer { cmsDeleteTransform(transform) }
    var out = buffer
    buffer.pixels.withUnsafeBytes { source in
      out.pixels.withUnsafeMutableBytes { destination in
        cmsDoTransform(
          transform, source.baseAddress, destination.baseAddress, UInt32(buffer.width * buffer.height))
      }
    }
    return out
  }

  /// `jpeg` with `profile` in APP2 `ICC_PROFILE` segments after SOI, at most `chunkSize` profile bytes
  /// each; `order` lists the sequence numbers to write (default all, in order), `count` overrides the
  /// declared segment count.
  package static func withICCProfile(
    _ jpeg: [UInt8], _ profile: [UInt8], chunkSize: Int = 65_519, order: [Int]? = nil, count: Int? = nil
  ) -> [UInt8] {
    let parts = stride(from: 0, to: profile.count, by: chunkSize).map {
      Array(profile[$0..<min(profile.count, $0 + chunkSize)])
    }
    var segments: [UInt8] = []
    precondition(!parts.isEmpty, "an empty profile")
    for number in order ?? Array(1...parts.count) {
      let part = parts[max(0, number - 1) % parts.count]
      let payload =
        Array("ICC_PROFILE".utf8) + [0, UInt8(truncatingIfNeeded: number), UInt8(count ?? parts.count)] + part
      let length = payload.count + 2
      segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
    return Array(jpeg[0..<2]) + segments + Array(jpeg[2...])
  }

  /// A `cHRM` chunk's payload: the eight chromaticities ×100000, big-endian (white, red, green, blue).
  package static func chrmPayload(_ xy: [Double]) -> [UInt8] {
    xy.flatMap { value -> [UInt8] in
      let fixed = UInt32(bitPattern: Int32((value * 100_000).rounded()))
      return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: fixed >> $0) }
    }
  }

  /// A `gAMA` chunk's payload for a decoding `gamma` (2.2 is written 45455).
  package static func gamaPayload(decoding gamma: Double) -> [UInt8] {
    let fixed = UInt32((100_000 / gamma).rounded())
    return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: fixed >> $0) }
  }

  /// `png` with its colour chunks (sRGB, gAMA, cHRM, iCCP) removed and `chunks` inserted after IHDR.
  package static func png(_ png: [UInt8], inserting chunks: [(type: String, payload: [UInt8])]) -> [UInt8] {
    var output = Array(png[0..<33])  // the signature and IHDR
    for chunk in chunks { output += pngChunk(chunk.type, chunk.payload) }
    var offset = 33
    while offset + 12 <= png.count {
      let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
      if !["sRGB", "gAMA", "cHRM", "iCCP"].contains(type) { output += png[offset..<offset + 12 + length] }
      offset += 12 + length
    }
    return output
  }

  /// An `iCCP` chunk's payload: a name, compression method 0, and `profile` in a zlib stream of stored
  /// (uncompressed) deflate blocks, which needs no compressor.
  package static func iccpPayload(_ profile: [UInt8], name: String = "icc") -> [UInt8] {
    var zlib: [UInt8] = [0x78, 0x01]
    let blocks = stride(from: 0, to: max(1, profile.count), by: 65_535).map { $0 }
    for (index, start) in blocks.enumerated() {
      let block = profile[start..<min(profile.count, start + 65_535)]
      let length = UInt16(block.count)
      zlib += [index == blocks.count - 1 ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8)]
      zlib += [UInt8(~length & 0xFF), UInt8(~length >> 8)] + block
    }
    var (a, b): (UInt32, UInt32) = (1, 0)
    for byte in profile {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    let adler = b << 16 | a
    zlib += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) }
    return Array(name.utf8) + [0, 0] + zlib
  }

  /// A PNG chunk with its CRC.
  package static func pngChunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + payload
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in body {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    crc ^= 0xFFFF_FFFF
    let length = payload.count
    return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + body
      + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
  }

  /// An extended lossy WebP of `buffer` with an `ICCP` chunk holding `profile`.
  package static func webp(_ buffer: PixelBuffer, profile: [UInt8], isLossless: Bool = false) -> [UInt8] {
    webpFile(
      vp8x(flags: 0x20, width: buffer.width, height: buffer.height) + riffChunk("ICCP", profile)
        + webpChunks(webp(buffer, quality: 95, isLossless: isLossless)))
  }

  /// The CIEDE2000 colour differences between two same-sized sRGB buffers, pixel by pixel (Little CMS's
  /// `cmsCIE2000DeltaE`, Lab from the sRGB formula): the mean and the largest.
  package static func deltaE2000(_ a: PixelBuffer, _ b: PixelBuffer) -> (mean: Double, max: Double) {
    guard a.width == b.width, a.height == b.height, a.channels == 3, b.channels == 3 else {
      return (.infinity, .infinity)
    }
    var total = 0.0
    var worst = 0.0
    for index in 0..<(a.width * a.height) {
      var first = lab(fromSRGB: (0..<3).map { Double(a.pixels[index * 3 + $0]) / 255 })
      var second = lab(fromSRGB: (0..<3).map { Double(b.pixels[index * 3 + $0]) / 255 })
      let difference = cmsCIE2000DeltaE(&first, &second, 1, 1, 1)
      total += difference
      worst = max(worst, difference)
    }
    return (total / Double(a.width * a.height), worst)
  }
}

extension TestImages {
  /// `bytes` with `replacement` written at `offset`.
  package static func patching(_ bytes: [UInt8], at offset: Int, _ replacement: [UInt8]) -> [UInt8] {
    var patched = bytes
    patched.replaceSubrange(offset..<offset + replacement.count, with: replacement)
    return patched
  }
}

extension TestImages.RGBSpace {
  /// The space's definition; sRGB's curve is not a pure gamma (2.2 stands for it here).
  package var definition: TestImages.RGBSpaceDefinition {
    switch self {
    case .adobeRGB:
      TestImages.RGBSpaceDefinition(
        white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06),
        gamma: 563.0 / 256)
    case .proPhoto:
      TestImages.RGBSpaceDefinition(
        white: (0.3457, 0.3585), red: (0.7347, 0.2653), green: (0.1596, 0.8404), blue: (0.0366, 0.0001),
        gamma: 1.8)
    case .sRGB:
      TestImages.RGBSpaceDefinition(
        white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), gamma: 2.2)
    }
  }

  /// The definition's chromaticities in `cHRM` order: white, red, green, blue, each x then y.
  package var chromaticities: [Double] {
    let d = definition
    return [d.white.0, d.white.1, d.red.0, d.red.1, d.green.0, d.green.1, d.blue.0, d.blue.1]
  }
}
