import Testing
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

/// A PNG's colour chunks other than a good `iCCP`: one libpng refuses is recorded as a warning and the
/// image taken as sRGB; `cHRM` (with `gAMA`) that is not sRGB's is converted like a profile
/// (docs/decoding.md, "Colour profiles"). The yardstick is ColourManagementTests's: CIEDE2000 against
/// the sRGB chart, mean < 1 and max < 3 when managed, mean > 3 for the same pixels unmanaged.
@Suite("PNG colour chunks", .offThePool)
struct PNGColourChunkTests {
  static let chart = TestImages.colourChart

  /// The chart's pixels as an RGB PNG without colour chunks.
  static func plain(_ buffer: PixelBuffer = chart) -> [UInt8] {
    TestImages.png(buffer.pixels, width: buffer.width, height: buffer.height, format: 2)
  }

  enum BrokenICCP: CaseIterable, Sendable {
    /// Inflates, but is no profile (libpng checks the header's length and signature).
    case garbageProfile
    /// A zlib stream cut short.
    case truncatedStream
    /// A CMYK profile on an RGB image (libpng checks the colour space against the colour type).
    case wrongColourSpace

    func chunk() -> [UInt8] {
      switch self {
      case .garbageProfile:
        TestImages.pngChunk("iCCP", TestImages.iccpPayload(Array(repeating: 7, count: 500)))
      case .truncatedStream:
        TestImages.pngChunk(
          "iCCP", Array(TestImages.iccpPayload(TestImages.iccProfile(.adobeRGB)).prefix(300)))
      case .wrongColourSpace:
        TestImages.pngChunk("iCCP", TestImages.iccpPayload(TestImages.cmykProfile()))
      }
    }
  }

  /// `png` without its colour chunks, `chunk` (framed, CRC and all) right after IHDR. (libpng keeps an
  /// iCCP whose only fault is its CRC, with a warning, so a bad CRC is no case here.)
  static func inserting(_ chunk: [UInt8], into png: [UInt8]) -> [UInt8] {
    let bare = TestImages.png(png, inserting: [])
    return Array(bare[0..<33]) + chunk + Array(bare[33...])
  }

  @Test(arguments: BrokenICCP.allCases)
  func aProfileLibpngRefusesGivesAWarning(broken: BrokenICCP) throws {
    // Given a PNG whose iCCP chunk libpng drops
    let png = Self.inserting(broken.chunk(), into: Self.plain())

    // When it is decoded on both paths
    let image = try ImageDecoder().decode(png, options: DecodeOptions())
    let planes = try ImageDecoder().decodePlanes(png, options: DecodeOptions())

    // Then the pixels are the file's, as sRGB, and the warning quotes libpng
    #expect(image.buffer == Self.chart)
    #expect(image.profile?.warning?.code == "colorProfileMalformed", "\(String(describing: image.profile))")
    #expect(image.profile?.warning?.description.contains("iCCP") == true)
    #expect(image.profile?.isConverted == false)
    #expect(planes?.profile?.warning?.code == "colorProfileMalformed")
  }

  @Test func aBrokenProfileBesideAnSRGBChunkIsStillSRGB() throws {
    // Given an sRGB chunk and then a broken iCCP (libpng: "too many profiles", and it drops both)
    let png = Self.inserting(
      TestImages.pngChunk("sRGB", [0]) + BrokenICCP.garbageProfile.chunk(), into: Self.plain())

    // When it is decoded
    let image = try ImageDecoder().decode(png, options: DecodeOptions())

    // Then the pixels are sRGB, and the refused chunk is reported
    #expect(image.buffer == Self.chart)
    #expect(image.profile?.warning?.code == "colorProfileMalformed", "\(String(describing: image.profile))")
  }

  @Test(arguments: [TestImages.RGBSpace.adobeRGB, .proPhoto])
  func wideGamutChromaticitiesAreConverted(space: TestImages.RGBSpace) throws {
    // Given the chart in a wide-gamut space as a PNG that says so only with cHRM and gAMA
    let pixels = TestImages.converting(Self.chart, to: space)
    let png = TestImages.png(
      Self.plain(pixels),
      inserting: [
        ("gAMA", TestImages.gamaPayload(decoding: space.definition.gamma)),
        ("cHRM", TestImages.chrmPayload(space.chromaticities)),
      ])

    // When it is decoded, and the same pixels without the chunks
    let image = try ImageDecoder().decode(png, options: DecodeOptions())
    let planes = try ImageDecoder().decodePlanes(png, options: DecodeOptions())
    let unmanaged = try ImageDecoder().decode(Self.plain(pixels), options: DecodeOptions())

    // Then it is the sRGB picture, and would not be without the chunks
    let close = TestImages.deltaE2000(image.buffer, Self.chart)
    #expect(close.mean < 1 && close.max < 3, "\(close)")
    let far = TestImages.deltaE2000(unmanaged.buffer, Self.chart)
    #expect(far.mean > 3, "\(far)")
    #expect(image.profile == SourceProfile(description: "PNG cHRM and gAMA", isConverted: true))
    #expect(planes?.profile?.isConverted == true)
  }

  @Test func chromaticitiesWithoutGammaTakeTheSRGBCurve() throws {
    // Given Adobe RGB chromaticities with no gAMA, over pixels whose curve is sRGB's
    let pixels = TestImages.converting(Self.chart, to: .adobeRGB)
    let chrm = ("cHRM", TestImages.chrmPayload(TestImages.RGBSpace.adobeRGB.chromaticities))
    let png = TestImages.png(Self.plain(pixels), inserting: [chrm])
    let withGamma = TestImages.png(
      Self.plain(pixels), inserting: [("gAMA", TestImages.gamaPayload(decoding: 563.0 / 256)), chrm])

    // When both are decoded
    let image = try ImageDecoder().decode(png, options: DecodeOptions())
    let gammaImage = try ImageDecoder().decode(withGamma, options: DecodeOptions())

    // Then it is converted with another curve than Adobe RGB's: close to, but not, the gAMA decode
    #expect(image.profile == SourceProfile(description: "PNG cHRM", isConverted: true))
    let difference = TestImages.deltaE2000(image.buffer, gammaImage.buffer)
    #expect(difference.mean > 0.2 && difference.mean < 5, "\(difference)")
  }

  @Test func sRGBChromaticitiesCostNothing() throws {
    // Given the chart with sRGB's cHRM and gAMA values, and with gAMA only
    let gama = ("gAMA", TestImages.gamaPayload(decoding: 2.2))
    let tagged = TestImages.png(
      Self.plain(),
      inserting: [gama, ("cHRM", TestImages.chrmPayload(TestImages.RGBSpace.sRGB.chromaticities))])
    let gammaOnly = TestImages.png(Self.plain(), inserting: [gama])

    // When both are decoded
    let image = try ImageDecoder().decode(tagged, options: DecodeOptions())

    // Then no profile is made and the pixels are libpng's, as before
    #expect(image.profile == nil)
    #expect(image.buffer == (try ImageDecoder().decode(gammaOnly, options: DecodeOptions())).buffer)
  }

  @Test(arguments: [
    [0.3127, 0.0, 0.64, 0.33, 0.21, 0.71, 0.15, 0.06],  // white y = 0
    [0.3127, 0.3290, 0.5, 0.5, 0.4, 0.4, 0.3, 0.3],  // collinear primaries: no matrix
    [1.2, 0.3290, 0.64, 0.33, 0.21, 0.71, 0.15, 0.06],  // x > 1
  ])
  func badChromaticitiesGiveAWarning(xy: [Double]) throws {
    // Given a cHRM libpng cannot use
    let png = TestImages.png(Self.plain(), inserting: [("cHRM", TestImages.chrmPayload(xy))])

    // When it is decoded
    let image = try ImageDecoder().decode(png, options: DecodeOptions())

    // Then the pixels are the file's, as sRGB, with a warning
    #expect(image.buffer == Self.chart)
    #expect(image.profile?.warning != nil, "\(String(describing: image.profile))")
    #expect(image.profile?.isConverted == false)
  }

  @Test func aTruncatedCHRMGivesAWarning() throws {
    // Given a cHRM chunk of 16 bytes instead of 32
    let xy = TestImages.chrmPayload(TestImages.RGBSpace.adobeRGB.chromaticities)
    let png = TestImages.png(Self.plain(), inserting: [("cHRM", Array(xy.prefix(16)))])

    // When it is decoded
    let image = try ImageDecoder().decode(png, options: DecodeOptions())

    // Then it is sRGB with libpng's warning
    #expect(image.buffer == Self.chart)
    #expect(
      image.profile?.warning?.description.contains("cHRM") == true, "\(String(describing: image.profile))")
  }
}
