import Foundation
import Testing
import Thumbify
import ThumbifyImagingTestSupport
import ThumbifyStore
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

/// A variant's `keep-jpeg=N` (``ThumbnailVariant/jpegSourceQuality``, on for the default `card2x`): a JPEG
/// source is encoded as JPEG at quality N, every other source as the variant says; a rule by the source's
/// sniffed format (docs/imaging.md, "How the default encodings were chosen").
@Suite("Keep JPEG sources JPEG", .offThePool)
struct KeepJPEGTests {
  /// A variant that must resize every sample photo (no pass-through), WebP unless the source is a JPEG.
  static let variant = ThumbnailVariant(
    name: "t", box: Size(width: 480, height: 960), quality: 85, webpMethod: 2, jpegSourceQuality: 70)

  /// Thumbnails `bytes` with the production thumbnailer (planar path on or off); the set and the blobs.
  static func thumbnails(of bytes: [UInt8], variants: [ThumbnailVariant], planar: Bool = true) throws -> (
    set: ThumbnailSet, blobs: [[UInt8]]
  ) {
    let root = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let set = try Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: root), usesPlanarPath: planar)
      .thumbnails(of: bytes, source: "picture", variants: variants)
    let blobs = try set.variants.map { variant in
      [UInt8](try #require(FileManager.default.contents(atPath: root + "/" + variant.path)))
    }
    return (set, blobs)
  }

  @Test(arguments: ["storm.jpg", "raindrops-progressive.jpg", "greenmeadow.jpg"])
  func aJPEGSourceIsEncodedAsJPEG(name: String) throws {
    // Given a JPEG photo, thumbnailed as the default card and as a keep-jpeg variant
    let bytes = try Fixtures.photoBytes(name)

    // When it is thumbnailed
    let (set, blobs) = try Self.thumbnails(of: bytes, variants: [.card, Self.variant])

    // Then the card is WebP and the other variant a JPEG at its size
    #expect(set.variants.map(\.format) == [.webp, .jpeg])
    #expect(ImageFormat(sniffing: blobs[0]) == .webp)
    #expect(ImageFormat(sniffing: blobs[1]) == .jpeg)
    #expect(set.variants[1].path.hasSuffix(".jpg"))
    let decoded = try ImageDecoder().decode(blobs[1], options: DecodeOptions())
    #expect(decoded.originalSize == Size(width: set.variants[1].width, height: set.variants[1].height))
    #expect(set.variants[1].width == 480)
  }

  @Test(arguments: ["ladybird.webp", "yellowflower.webp", "storm.jpg as PNG", "storm.jpg as lossless WebP"])
  func otherSourcesKeepTheVariantsFormat(name: String) throws {
    // Given a photo that is not a JPEG: a lossy WebP, a PNG, a lossless WebP
    let bytes: [UInt8]
    if name.hasSuffix(" as PNG") {
      bytes = try ImageEncoder().encode(try Fixtures.photo("storm.jpg"), options: EncodeOptions(format: .png))
    } else if name.hasSuffix(" as lossless WebP") {
      bytes = TestImages.webp(try Fixtures.photo("storm.jpg"), quality: 100, isLossless: true)
    } else {
      bytes = try Fixtures.photoBytes(name)
    }

    // When it is thumbnailed as the keep-jpeg variant
    let (set, blobs) = try Self.thumbnails(of: bytes, variants: [Self.variant])

    // Then it is a WebP, as the variant's own encoding says
    #expect(set.variants[0].format == .webp)
    #expect(ImageFormat(sniffing: blobs[0]) == .webp)
  }

  @Test func withoutKeepJPEGAJPEGSourceIsEncodedAsTheVariantSays() throws {
    // Given a JPEG photo and the variant without keep-jpeg
    var variant = Self.variant
    variant.jpegSourceQuality = nil

    // When it is thumbnailed
    let (set, blobs) = try Self.thumbnails(of: try Fixtures.photoBytes("storm.jpg"), variants: [variant])

    // Then it is a WebP
    #expect(set.variants[0].format == .webp)
    #expect(ImageFormat(sniffing: blobs[0]) == .webp)
  }

  @Test func theKeptJPEGHasTheRequestedQuality() throws {
    // Given a JPEG photo and keep-jpeg at two qualities
    let bytes = try Fixtures.photoBytes("storm.jpg")
    var high = Self.variant
    high.jpegSourceQuality = 95

    // When both are made
    let (_, low) = try Self.thumbnails(of: bytes, variants: [Self.variant])
    let (_, higher) = try Self.thumbnails(of: bytes, variants: [high])

    // Then the higher quality is the larger file, and its quantisation tables are TurboJPEG's for
    // that quality (the encode of the same pixels by the RGB encoder at q95 has the same tables)
    #expect(higher[0].count > low[0].count)
    let pixels = try ImageDecoder().decode(higher[0], options: DecodeOptions()).buffer
    let reference = try ImageEncoder().encode(pixels, options: EncodeOptions(format: .jpeg, quality: 95))
    #expect(Self.quantisationTables(higher[0]) == Self.quantisationTables(reference))
    #expect(Self.quantisationTables(low[0]) != Self.quantisationTables(reference))
  }

  @Test(arguments: ["storm.jpg", "raindrops-progressive.jpg", "greenmeadow.jpg"])
  func jpegFromPlanesIsAsCloseToTheReferenceAsFromRGB(name: String) throws {
    // Given a JPEG photo's keep-jpeg thumbnail from the planar path and from the RGB path
    let bytes = try Fixtures.photoBytes(name)
    let planar = try Self.thumbnails(of: bytes, variants: [.card, Self.variant])
    let rgb = try Self.thumbnails(of: bytes, variants: [.card, Self.variant], planar: false)
    #expect(planar.blobs[1] != rgb.blobs[1])

    // Then the planar JPEG is as close to the double-precision reference as the RGB path's, in luma
    // (SSIM) and per channel (PSNR)
    let full = try ImageDecoder().decode(bytes, options: DecodeOptions())
    let geometry = ThumbnailGeometry(source: full.originalSize, box: Self.variant.box, fit: .contain)
    let reference = ReferenceResampler().resize(full.buffer, geometry: geometry)
    let planarPixels = try ImageDecoder().decode(planar.blobs[1], options: DecodeOptions()).buffer
    let rgbPixels = try ImageDecoder().decode(rgb.blobs[1], options: DecodeOptions()).buffer
    let planarSSIM = try #require(StructuralSimilarity.ssim(planarPixels, reference))
    let rgbSSIM = try #require(StructuralSimilarity.ssim(rgbPixels, reference))
    #expect(planarSSIM >= rgbSSIM - 0.002, "SSIM \(planarSSIM) vs RGB path \(rgbSSIM)")
    let planarPSNR = PlanarQualityTests.psnr(planarPixels, reference)
    let rgbPSNR = PlanarQualityTests.psnr(rgbPixels, reference)
    for channel in 0..<3 {
      #expect(planarPSNR[channel] >= rgbPSNR[channel] - 0.5, "PSNR \(planarPSNR) vs RGB path \(rgbPSNR)")
    }
  }

  @Test(arguments: [(37, 21), (1, 1), (2, 3), (64, 64), (601, 1)])
  func planesOfAnySizeEncodeAsTheirColour(width: Int, height: Int) throws {
    // Given flat full-range and limited-range 4:2:0 planes of an odd or even size (Y′CbCr of
    // RGB 200, 60, 30 in each range)
    let chroma = YCbCrImage.chromaSize(of: Size(width: width, height: height), factor: (2, 2))
    func planes(_ y: UInt8, _ cb: UInt8, _ cr: UInt8, _ range: YCbCrImage.Range) -> YCbCrImage {
      YCbCrImage(
        luma: SamplePlane(width: width, height: height, repeating: y),
        cb: SamplePlane(width: chroma.width, height: chroma.height, repeating: cb),
        cr: SamplePlane(width: chroma.width, height: chroma.height, repeating: cr), range: range,
        chromaFactor: (2, 2))
    }
    for image in [planes(98, 89, 200, .full), planes(101, 94, 192, .limited)] {
      // When they are encoded as JPEG and decoded
      let jpeg = try ImageEncoder().encode(image, options: EncodeOptions(format: .jpeg, quality: 90))
      let decoded = try ImageDecoder().decode(jpeg, options: DecodeOptions()).buffer

      // Then the JPEG has their size and colour
      #expect(ImageFormat(sniffing: jpeg) == .jpeg)
      #expect((decoded.width, decoded.height) == (width, height))
      for index in stride(from: 0, to: decoded.pixels.count, by: 3) {
        #expect(
          TestImages.isClose(Array(decoded.pixels[index..<index + 3]), [200, 60, 30], tolerance: 4),
          "\(image.range) \(Array(decoded.pixels[index..<index + 3]))")
      }
    }
  }

  @Test func planesThatAreNot420AreRefused() {
    // Given 4:4:4 planes
    let plane = SamplePlane(width: 8, height: 8, repeating: 128)
    let image = YCbCrImage(luma: plane, cb: plane, cr: plane, range: .full, chromaFactor: (1, 1))

    // Then the JPEG encode is a typed error, not a crash or a wrong picture
    #expect(throws: ImageError.self) {
      try ImageEncoder().encode(image, options: EncodeOptions(format: .jpeg))
    }
  }

  /// The payloads of a JPEG's DQT segments, in order.
  static func quantisationTables(_ jpeg: [UInt8]) -> [[UInt8]] {
    var tables: [[UInt8]] = []
    var index = 2
    while index + 4 <= jpeg.count, jpeg[index] == 0xFF {
      let marker = jpeg[index + 1]
      let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
      if marker == 0xDA { break }
      if marker == 0xDB { tables.append(Array(jpeg[(index + 4)..<min(jpeg.count, index + 2 + length)])) }
      index += 2 + length
    }
    return tables
  }
}
