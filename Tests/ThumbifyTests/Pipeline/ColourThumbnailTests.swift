import CTurboJPEG
import Foundation
import Synchronization
import Testing
import Thumbify
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifyStore
import ThumbifySystem
import ThumbifySystemTestSupport

/// The pipeline end to end on colour-managed sources: the thumbnails look like the sRGB picture, and
/// the thumbnail set says which profile the source had (docs/imaging.md, "Colour management").
@Suite("Colour-managed thumbnails")
struct ColourThumbnailTests {
  /// A 384×256 chart (the 96×64 one scaled 4× with flat patches), so the card is a real reduction.
  static let chart: PixelBuffer = {
    let small = TestImages.colourChart
    return TestImages.rgb(width: 384, height: 256) { x, y in
      let p = TestImages.pixel(small, x / 4, y / 4)
      return (p[0], p[1], p[2])
    }
  }()

  static func jpeg(_ buffer: PixelBuffer) -> [UInt8] {
    TestImages.jpeg(buffer.pixels, width: buffer.width, height: buffer.height, subsampling: TJSAMP_444)
  }

  /// The production decoder, recording which of its paths the thumbnailer took.
  final class PathRecordingDecoder: PlanarImageDecoding {
    /// `planes`, `declined` (the planar decode said no) or `rgb`, in call order.
    let paths = Mutex<[String]>([])

    func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
      paths.withLock { $0.append("rgb") }
      return try ImageDecoder().decode(data, options: options)
    }

    func decodePlanes(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedPlanes? {
      let planes = try ImageDecoder().decodePlanes(data, options: options)
      paths.withLock { $0.append(planes == nil ? "declined" : "planes") }
      return planes
    }
  }

  /// The card thumbnail's pixels and the set, for `bytes` through the production thumbnailer (planar path on).
  static func card(of bytes: [UInt8], decoder: any ImageDecoding = ImageDecoder()) throws -> (
    pixels: PixelBuffer, set: ThumbnailSet
  ) {
    let root = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let variant = ThumbnailVariant(name: "card", box: Size(width: 96, height: 64), quality: 95)
    let set = try Thumbnailer(decoder: decoder, store: BlobStore(root: root)).thumbnails(
      of: bytes, source: "chart", variants: [variant])
    let path = root + "/" + set.variants[0].path
    let webp = [UInt8](try #require(FileManager.default.contents(atPath: path)))
    return (try ImageDecoder().decode(webp, options: DecodeOptions()).buffer, set)
  }

  @Test(arguments: [TestImages.RGBSpace.adobeRGB, .proPhoto])
  func wideGamutJPEGThumbnailsMatchTheSRGBOnes(space: TestImages.RGBSpace) throws {
    // Given the chart as an sRGB JPEG and as a JPEG in a wide-gamut space tagged with its profile
    let wide = TestImages.withICCProfile(
      Self.jpeg(TestImages.converting(Self.chart, to: space)), TestImages.iccProfile(space))

    // When both are thumbnailed
    let reference = try Self.card(of: Self.jpeg(Self.chart))
    let managed = try Self.card(of: wide)

    // Then the cards match to under one ΔE2000 on average and the set records the conversion
    let difference = TestImages.deltaE2000(managed.pixels, reference.pixels)
    #expect(difference.mean < 1, "\(difference)")
    #expect(managed.set.profile == ProfileRecord(description: space.rawValue, converted: true))
    #expect(reference.set.profile == nil)
    let json = String(decoding: try JSONWriter.encode(managed.set), as: UTF8.self)
    #expect(json.contains(#""profile":{"converted":true,"description":"\#(space.rawValue)"}"#), "\(json)")
    let errors = try JSONSchemaValidator(directory: TestPaths.repository + "/docs").errors(
      ofText: json, against: "manifest.schema.json#/$defs/thumbnailSet")
    #expect(errors.isEmpty, "\(errors)")
  }

  /// The containers a profile comes in; the chart is written in each, tagged or not (lossless
  /// PNG and WebP, so the codec adds no error of its own before the thumbnail's).
  enum Container: String, CaseIterable, Sendable {
    case png, webp

    func encode(_ buffer: PixelBuffer, profile: [UInt8]?) -> [UInt8] {
      switch self {
      case .png:
        let plain = TestImages.png(buffer.pixels, width: buffer.width, height: buffer.height, format: 2)
        return profile.map { TestImages.png(plain, inserting: [("iCCP", TestImages.iccpPayload($0))]) }
          ?? plain
      case .webp:
        guard let profile else { return TestImages.webp(buffer, isLossless: true) }
        return TestImages.webp(buffer, profile: profile, isLossless: true)
      }
    }
  }

  @Test(arguments: Container.allCases, [TestImages.RGBSpace.adobeRGB, .proPhoto])
  func wideGamutPNGAndWebPThumbnailsMatchTheSRGBOnes(container: Container, space: TestImages.RGBSpace) throws
  {
    // Given the chart as an sRGB image and as one in a wide-gamut space tagged with its profile
    let wide = container.encode(
      TestImages.converting(Self.chart, to: space), profile: TestImages.iccProfile(space))

    // When both are thumbnailed
    let reference = try Self.card(of: container.encode(Self.chart, profile: nil))
    let managed = try Self.card(of: wide)

    // Then the cards match to under one ΔE2000 on average and the set records the conversion
    let difference = TestImages.deltaE2000(managed.pixels, reference.pixels)
    #expect(difference.mean < 1, "\(difference)")
    #expect(managed.set.profile == ProfileRecord(description: space.rawValue, converted: true))
  }

  @Test(arguments: [TestImages.RGBSpace.adobeRGB, .proPhoto])
  func matrixProfileJPEGsKeepThePlanarPath(space: TestImages.RGBSpace) throws {
    // Given the chart in a wide-gamut space as a tagged JPEG
    let jpeg = TestImages.withICCProfile(
      Self.jpeg(TestImages.converting(Self.chart, to: space)), TestImages.iccProfile(space))

    // When it is thumbnailed
    let decoder = PathRecordingDecoder()
    let card = try Self.card(of: jpeg, decoder: decoder)

    // Then it was decoded to planes only (converted there), and the set says converted
    #expect(decoder.paths.withLock { $0 } == ["planes"])
    #expect(card.set.profile == ProfileRecord(description: space.rawValue, converted: true))
  }

  @Test func aCLUTProfileTakesTheRGBPath() throws {
    // Given the chart as a JPEG tagged with an RGB profile made of a CLUT
    let jpeg = TestImages.withICCProfile(Self.jpeg(Self.chart), TestImages.rgbCLUTProfile())

    // When it is thumbnailed
    let decoder = PathRecordingDecoder()
    let card = try Self.card(of: jpeg, decoder: decoder)

    // Then the planar decode declined it, the RGB path converted it (darker than the chart's own card)
    #expect(decoder.paths.withLock { $0 } == ["declined", "rgb"])
    #expect(card.set.profile == ProfileRecord(description: "Thumbify test RGB CLUT", converted: true))
    let plain = try Self.card(of: Self.jpeg(Self.chart))
    let moved = TestImages.deltaE2000(card.pixels, plain.pixels)
    #expect(moved.mean > 3, "\(moved)")
  }

  @Test func aBrokenProfileIsRecordedWithItsWarning() throws {
    // Given a JPEG whose profile segments are out of range
    let jpeg = TestImages.withICCProfile(Self.jpeg(Self.chart), TestImages.iccProfile(.adobeRGB), order: [3])

    // When it is thumbnailed
    let card = try Self.card(of: jpeg)

    // Then the thumbnail is made and the set carries the warning, valid against the schema
    #expect(card.set.profile?.converted == false)
    #expect(card.set.profile?.warning?.code == "colorProfileMalformed")
    let json = String(decoding: try JSONWriter.encode(card.set), as: UTF8.self)
    let errors = try JSONSchemaValidator(directory: TestPaths.repository + "/docs").errors(
      ofText: json, against: "manifest.schema.json#/$defs/thumbnailSet")
    #expect(errors.isEmpty, "\(errors)")
  }
}
