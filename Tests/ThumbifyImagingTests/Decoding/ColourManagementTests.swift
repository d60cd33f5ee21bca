import CLCMS2
import CTurboJPEG
import Testing
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

/// Embedded ICC profiles are converted to sRGB (docs/imaging.md, "Colour management").
///
/// The yardstick is CIEDE2000 against the sRGB picture put through the same codec: a mean under 1
/// (below what a viewer sees side by side) and no patch over 3. The unmanaged decode of the same
/// file must be far off (a mean over 3, for Adobe RGB, the nearest to sRGB; a quarter of the chart is grey, which a
/// wide gamut moves least), or the comparison could not fail.
@Suite("Colour management", .offThePool)
struct ColourManagementTests {
  static let wideSpaces: [TestImages.RGBSpace] = [.adobeRGB, .proPhoto]

  /// The chart's sRGB pixels through a 4:4:4 JPEG at quality 95, the reference the managed decodes meet.
  static func jpegReference() throws -> PixelBuffer {
    let chart = TestImages.colourChart
    return try ImageDecoder().decode(
      TestImages.jpeg(chart.pixels, width: chart.width, height: chart.height, subsampling: TJSAMP_444),
      options: DecodeOptions()
    ).buffer
  }

  static func jpeg(_ buffer: PixelBuffer) -> [UInt8] {
    TestImages.jpeg(buffer.pixels, width: buffer.width, height: buffer.height, subsampling: TJSAMP_444)
  }

  @Test(arguments: wideSpaces)
  func wideGamutJPEGMatchesTheSRGBPicture(space: TestImages.RGBSpace) throws {
    // Given the chart re-encoded in a wide-gamut space, as a JPEG tagged with that space's profile
    let pixels = TestImages.converting(TestImages.colourChart, to: space)
    let jpeg = TestImages.withICCProfile(Self.jpeg(pixels), TestImages.iccProfile(space))

    // When it is decoded, and when the same pixels are decoded without the profile
    let managed = try ImageDecoder().decode(jpeg, options: DecodeOptions())
    let unmanaged = try ImageDecoder().decode(Self.jpeg(pixels), options: DecodeOptions())

    // Then the managed decode is the sRGB picture, the unmanaged one is visibly not, and the profile is recorded
    let reference = try Self.jpegReference()
    let close = TestImages.deltaE2000(managed.buffer, reference)
    let far = TestImages.deltaE2000(unmanaged.buffer, reference)
    #expect(close.mean < 1 && close.max < 3, "\(close)")
    #expect(far.mean > 3, "\(far)")
    #expect(managed.profile == SourceProfile(description: space.rawValue, isConverted: true))
    #expect(unmanaged.profile == nil)
  }

  @Test(arguments: wideSpaces)
  func wideGamutJPEGPlanesAreConvertedToSRGB(space: TestImages.RGBSpace) throws {
    // Given a wide-gamut JPEG (Y′CbCr, which the planar path decodes) and the same file tagged sRGB
    let pixels = TestImages.converting(TestImages.colourChart, to: space)
    let jpeg = TestImages.withICCProfile(Self.jpeg(pixels), TestImages.iccProfile(space))
    let sRGB = TestImages.withICCProfile(Self.jpeg(TestImages.colourChart), TestImages.iccProfile(.sRGB))

    // When the planar decode is asked for both, and for the wide-gamut pixels without their profile
    let planes = try #require(try ImageDecoder().decodePlanes(jpeg, options: DecodeOptions()))
    let sRGBPlanes = try ImageDecoder().decodePlanes(sRGB, options: DecodeOptions())
    let unmanaged = try #require(try ImageDecoder().decodePlanes(Self.jpeg(pixels), options: DecodeOptions()))

    // Then the wide-gamut planes are the sRGB picture (never a transform silently skipped), the
    // unmanaged ones are not, and each profile is recorded as what was done
    let reference = try Self.jpegReference()
    let close = TestImages.deltaE2000(planes.image.rgb(), reference)
    #expect(close.mean < 1 && close.max < 3, "\(close)")
    let far = TestImages.deltaE2000(unmanaged.image.rgb(), reference)
    #expect(far.mean > 3, "\(far)")
    #expect(planes.profile == SourceProfile(description: space.rawValue, isConverted: true))
    #expect(
      sRGBPlanes?.profile == SourceProfile(description: TestImages.RGBSpace.sRGB.rawValue, isConverted: false)
    )
  }

  /// Profiles whose tables and matrix (``MatrixShaperConversion``) stand in for Little CMS: the wide
  /// spaces and a gamma-1.8 grey.
  static func matrixShaperProfiles() -> [[UInt8]] {
    let curve = cmsBuildGamma(nil, 1.8)
    defer { cmsFreeToneCurve(curve) }
    let grey = cmsCreateGrayProfile(cmsD50_xyY(), curve)!
    defer { cmsCloseProfile(grey) }
    var size: cmsUInt32Number = 0
    cmsSaveProfileToMem(grey, nil, &size)
    var greyBytes = [UInt8](repeating: 0, count: Int(size))
    cmsSaveProfileToMem(grey, &greyBytes, &size)
    return wideSpaces.map(TestImages.iccProfile) + [greyBytes]
  }

  @Test func tablesAndMatrixAgreeWithLittleCMS() throws {
    for profile in Self.matrixShaperProfiles() {
      // Given a matrix/TRC profile's transform to sRGB, which has tables and a matrix beside it
      guard case .convert(let transform, _) = ColorManagement.plan(for: profile, layout: .rgb) else {
        Issue.record("The profile is not converted")
        continue
      }
      let tables = try #require(transform.matrixShaper)

      // When every grey level and a spread of colours off the 17³ check grid go through both
      var samples: [UInt8] = (0...255).flatMap { [UInt8($0), UInt8($0), UInt8($0)] }
      var generator = SystemRandomNumberGenerator()
      for _ in 0..<20_000 { samples += (0..<3).map { _ in UInt8.random(in: 0...255, using: &generator) } }
      let count = samples.count / 3
      var expected = samples
      samples.withUnsafeBytes { source in
        expected.withUnsafeMutableBytes {
          transform.apply(from: source.baseAddress!, to: $0.baseAddress!, count: count)
        }
      }
      var ours = samples
      ours.withUnsafeMutableBufferPointer { tables.apply($0.baseAddress!, count: count, channels: 3) }

      // Then no sample is more than one level apart, and some moved (the conversion is not the identity)
      let differences = zip(ours, expected).map { abs(Int($0) - Int($1)) }
      #expect(differences.max() ?? 0 <= 1)
      #expect(zip(ours, samples).contains { abs(Int($0) - Int($1)) > 4 })
    }
  }

  @Test func aCLUTProfileHasNoTablesAndKeepsTheRGBPath() throws {
    // Given the chart as a JPEG tagged with an RGB profile made of a CLUT
    let profile = TestImages.rgbCLUTProfile()
    let chart = TestImages.colourChart
    let jpeg = TestImages.withICCProfile(Self.jpeg(chart), profile)

    // When its planes are asked for, and it is decoded
    let planes = try ImageDecoder().decodePlanes(jpeg, options: DecodeOptions())
    let image = try ImageDecoder().decode(jpeg, options: DecodeOptions())

    // Then Little CMS's transform has no tables beside it, the planar path declines the file and the
    // RGB path converts it (a 1.3 power: darker than the chart)
    guard case .convert(let transform, _) = ColorManagement.plan(for: profile, layout: .rgb) else {
      Issue.record("The CLUT profile is not converted")
      return
    }
    #expect(transform.matrixShaper == nil)
    #expect(planes == nil)
    #expect(image.profile == SourceProfile(description: "Thumbify test RGB CLUT", isConverted: true))
    let moved = TestImages.deltaE2000(image.buffer, chart)
    #expect(moved.mean > 3, "\(moved)")
  }

  @Test func anSRGBProfileChangesNothing() throws {
    // Given the chart as a JPEG with and without an sRGB profile
    let plain = Self.jpeg(TestImages.colourChart)
    let tagged = TestImages.withICCProfile(plain, TestImages.iccProfile(.sRGB))

    // When both are decoded
    let untagged = try ImageDecoder().decode(plain, options: DecodeOptions())
    let image = try ImageDecoder().decode(tagged, options: DecodeOptions())

    // Then the pixels are identical and the profile is recorded as not converted
    #expect(image.buffer == untagged.buffer)
    #expect(image.profile == SourceProfile(description: "sRGB IEC61966-2.1", isConverted: false))
  }

  @Test(arguments: wideSpaces)
  func wideGamutPNGMatchesTheSRGBPicture(space: TestImages.RGBSpace) throws {
    // Given the chart in a wide-gamut space as a PNG with an iCCP chunk (and a gAMA the profile overrides)
    let pixels = TestImages.converting(TestImages.colourChart, to: space)
    let plain = TestImages.png(pixels.pixels, width: pixels.width, height: pixels.height, format: 2)
    let png = TestImages.png(
      plain,
      inserting: [
        ("gAMA", [0, 0, 0xAF, 0xC8]),  // 1/2.2: libpng would correct by it, were the profile not there
        ("iCCP", TestImages.iccpPayload(TestImages.iccProfile(space))),
      ])

    // When it is decoded
    let image = try ImageDecoder().decode(png, options: DecodeOptions())
    let unmanaged = try ImageDecoder().decode(plain, options: DecodeOptions())

    // Then it is the sRGB picture (lossless: PNG adds no error of its own)
    let close = TestImages.deltaE2000(image.buffer, TestImages.colourChart)
    #expect(close.mean < 1 && close.max < 3, "\(close)")
    let far = TestImages.deltaE2000(unmanaged.buffer, TestImages.colourChart)
    #expect(far.mean > 3, "\(far)")
    #expect(image.profile == SourceProfile(description: space.rawValue, isConverted: true))
  }

  @Test(arguments: wideSpaces)
  func wideGamutWebPMatchesTheSRGBPicture(space: TestImages.RGBSpace) throws {
    // Given the chart in a wide-gamut space as a lossless WebP with an ICCP chunk
    let pixels = TestImages.converting(TestImages.colourChart, to: space)
    let webp = TestImages.webp(pixels, profile: TestImages.iccProfile(space), isLossless: true)

    // When it is decoded, on the RGB path and when planes are asked for
    let image = try ImageDecoder().decode(webp, options: DecodeOptions())
    let planes = try ImageDecoder().decodePlanes(webp, options: DecodeOptions())

    // Then it is the sRGB picture, and the planar path declines it
    let close = TestImages.deltaE2000(image.buffer, TestImages.colourChart)
    #expect(close.mean < 1 && close.max < 3, "\(close)")
    #expect(image.profile == SourceProfile(description: space.rawValue, isConverted: true))
    #expect(planes == nil)
  }

  /// Ink amounts (0…1) for the chart: the profile-free inverse of each colour, black from the darkest.
  static func inks() -> [[Double]] {
    let chart = TestImages.colourChart
    return (0..<(chart.width * chart.height)).map { index in
      let rgb = (0..<3).map { Double(chart.pixels[index * 3 + $0]) / 255 }
      let k = 1 - (rgb.max() ?? 0)
      return rgb.map { k >= 1 ? 0 : (1 - $0 - k) / (1 - k) } + [k]
    }
  }

  @Test func cmykJPEGWithAProfileUsesIt() throws {
    // Given an Adobe (inverted) CMYK JPEG tagged with the test press's profile
    let inks = Self.inks()
    let samples = inks.flatMap { ink in ink.map { UInt8((255 * (1 - $0)).rounded()) } }
    let chart = TestImages.colourChart
    let plain = TestImages.jpeg(
      samples, width: chart.width, height: chart.height, pixelFormat: TJPF_CMYK, subsampling: TJSAMP_444)
    let jpeg = TestImages.withICCProfile(plain, TestImages.cmykProfile())

    // When it is decoded, and the untagged file too
    let image = try ImageDecoder().decode(jpeg, options: DecodeOptions())
    let unmanaged = try ImageDecoder().decode(plain, options: DecodeOptions())

    // Then the colours are the press's (the model the profile was built from), not the profile-free formula's
    let expected = PixelBuffer(
      width: chart.width, height: chart.height, channels: 3,
      pixels: inks.flatMap { TestImages.cmykModel($0).map { UInt8((255 * $0).rounded()) } })
    let close = TestImages.deltaE2000(image.buffer, expected)
    let far = TestImages.deltaE2000(unmanaged.buffer, expected)
    #expect(close.mean < 1.5 && close.max < 4, "\(close)")
    #expect(far.mean > 4, "\(far)")
    #expect(image.profile == SourceProfile(description: "Thumbify test press CMYK", isConverted: true))
  }

  @Test func anRGBProfileOnACMYKImageIsIgnoredWithAWarning() throws {
    // Given a CMYK JPEG tagged with an RGB profile
    let samples = [UInt8](repeating: 200, count: 16 * 16 * 4)
    let plain = TestImages.jpeg(
      samples, width: 16, height: 16, pixelFormat: TJPF_CMYK, subsampling: TJSAMP_444)
    let jpeg = TestImages.withICCProfile(plain, TestImages.iccProfile(.adobeRGB))

    // When it is decoded
    let image = try ImageDecoder().decode(jpeg, options: DecodeOptions())

    // Then the profile-free conversion is used and the mismatch is recorded
    #expect(image.buffer == (try ImageDecoder().decode(plain, options: DecodeOptions())).buffer)
    #expect(image.profile?.warning?.code == "colorProfileUnusable")
    #expect(image.profile?.isConverted == false)
  }

  @Test func profileSegmentsAreJoinedInSequenceOrder() throws {
    // Given an Adobe RGB profile split in 200-byte APP2 segments written last first
    let profile = TestImages.iccProfile(.adobeRGB)
    let parts = (profile.count + 199) / 200
    let pixels = TestImages.converting(TestImages.colourChart, to: .adobeRGB)
    let jpeg = TestImages.withICCProfile(
      Self.jpeg(pixels), profile, chunkSize: 200, order: Array((1...parts).reversed()))

    // When it is decoded
    let image = try ImageDecoder().decode(jpeg, options: DecodeOptions())

    // Then the profile was reassembled and applied
    #expect(parts > 1)
    #expect(image.profile == SourceProfile(description: "Adobe RGB (1998)", isConverted: true))
  }

  /// Broken profile segments and profiles: each gives a warning and the unmanaged pixels, never a failure.
  enum Hostile: String, CaseIterable, Sendable {
    case missingSegment, repeatedSegment, segmentNumberZero, countZero
    case truncated, garbage, hugeTagCount, sizeFieldTooLarge, tagPastTheEnd

    /// `jpeg` with `profile` (Adobe RGB's) broken this way.
    func jpeg(_ jpeg: [UInt8], _ profile: [UInt8]) -> [UInt8] {
      switch self {
      case .missingSegment: TestImages.withICCProfile(jpeg, profile, chunkSize: 200, order: [1, 2])
      case .repeatedSegment: TestImages.withICCProfile(jpeg, profile, chunkSize: 200, order: [1, 1])
      case .segmentNumberZero: TestImages.withICCProfile(jpeg, profile, order: [0])
      case .countZero: TestImages.withICCProfile(jpeg, profile, count: 0)
      case .truncated: TestImages.withICCProfile(jpeg, Array(profile.prefix(200)))
      case .garbage: TestImages.withICCProfile(jpeg, [UInt8](repeating: 0xA5, count: 600))
      case .hugeTagCount:
        TestImages.withICCProfile(jpeg, TestImages.patching(profile, at: 128, [0x7F, 0xFF, 0xFF, 0xFF]))
      case .sizeFieldTooLarge:
        TestImages.withICCProfile(jpeg, TestImages.patching(profile, at: 0, [0, 0xFF, 0xFF, 0xFF]))
      case .tagPastTheEnd:
        TestImages.withICCProfile(jpeg, TestImages.patching(profile, at: 136, [0x7F, 0xFF, 0xFF, 0]))
      }
    }

    var code: String {
      switch self {
      case .missingSegment, .repeatedSegment, .segmentNumberZero, .countZero: "colorProfileMalformed"
      default: "colorProfileUnusable"
      }
    }
  }

  @Test(arguments: Hostile.allCases)
  func aBrokenProfileGivesAWarningAndAnImage(hostile: Hostile) throws {
    // Given the chart as a JPEG with a broken profile
    let plain = Self.jpeg(TestImages.colourChart)
    let jpeg = hostile.jpeg(plain, TestImages.iccProfile(.adobeRGB))

    // When it is decoded on both paths
    let image = try ImageDecoder().decode(jpeg, options: DecodeOptions())
    let planes = try ImageDecoder().decodePlanes(jpeg, options: DecodeOptions())

    // Then it is decoded as sRGB, with the warning recorded
    #expect(image.buffer == (try ImageDecoder().decode(plain, options: DecodeOptions())).buffer)
    #expect(image.profile?.warning?.code == hostile.code, "\(String(describing: image.profile))")
    #expect(image.profile?.isConverted == false)
    #expect(planes?.profile?.warning?.code == hostile.code)
  }

  @Test func oversizedWebPProfileIsRefusedWithoutParsing() throws {
    // Given a WebP whose ICCP chunk is larger than the profile cap
    let chart = TestImages.colourChart
    let webp = TestImages.webp(
      chart, profile: [UInt8](repeating: 0, count: ColorManagement.maxProfileBytes + 2))

    // When it is decoded
    let image = try ImageDecoder().decode(webp, options: DecodeOptions(maxBytes: 8 << 20))

    // Then the warning says the chunks are malformed
    #expect(image.profile?.warning?.code == "colorProfileMalformed")
  }

  @Test func transformsAreSharedAcrossThreads() async throws {
    // Given one Adobe RGB JPEG decoded on eight tasks at once
    let pixels = TestImages.converting(TestImages.colourChart, to: .adobeRGB)
    let jpeg = TestImages.withICCProfile(Self.jpeg(pixels), TestImages.iccProfile(.adobeRGB))
    let first = try ImageDecoder().decode(jpeg, options: DecodeOptions()).buffer

    // When they all convert through the cached transform
    let results = try await withThrowingTaskGroup(of: PixelBuffer.self) { group in
      for _ in 0..<8 { group.addTask { try ImageDecoder().decode(jpeg, options: DecodeOptions()).buffer } }
      return try await group.reduce(into: []) { $0.append($1) }
    }

    // Then every result is the same
    #expect(results.count == 8 && results.allSatisfy { $0 == first })
  }
}
