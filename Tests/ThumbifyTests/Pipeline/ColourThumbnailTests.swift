import CTurboJPEG
import Foundation
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

  /// The card thumbnail's pixels and the set, for `bytes` through the production thumbnailer (planar path on).
  static func card(of bytes: [UInt8]) throws -> (pixels: PixelBuffer, set: ThumbnailSet) {
    let root = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let variant = ThumbnailVariant(name: "card", box: Size(width: 96, height: 64), quality: 95)
    let set = try Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: root)).thumbnails(
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
