import CTurboJPEG
import Foundation
import Testing

@testable import Thumbify

/// The planar (Y′CbCr) thumbnail path: decoders, plane resize, conversions and the thumbnailer.
@Suite("Planar path")
struct PlanarPathTests {
  static let photos = ["storm.jpg", "raindrops-progressive.jpg", "greenmeadow.jpg"]

  @Test(arguments: [(200, 30, 40), (20, 180, 90), (128, 128, 128), (250, 240, 10)])
  func flatJPEGGivesItsColour(red: Int, green: Int, blue: Int) throws {
    // Given a flat-coloured 4:2:0 JPEG
    let color = (UInt8(red), UInt8(green), UInt8(blue))
    let jpeg = TestImages.jpeg(TestImages.rgb(width: 37, height: 21) { _, _ in color })

    // When it is decoded to planes and converted back
    let planes = try #require(try ImageDecoder().decodePlanes(jpeg, options: DecodeOptions()))
    let rgb = planes.image.rgb()

    // Then every pixel is that colour, as the RGB decode gives it
    let reference = try ImageDecoder().decode(jpeg, options: DecodeOptions()).buffer
    #expect(planes.image.range == .full && planes.image.chromaFactor == (2, 2))
    #expect((rgb.width, rgb.height) == (37, 21))
    for index in stride(from: 0, to: rgb.pixels.count, by: 3) {
      #expect(
        TestImages.isClose(Array(rgb.pixels[index..<index + 3]), [color.0, color.1, color.2], tolerance: 3))
      #expect(
        TestImages.isClose(
          Array(rgb.pixels[index..<index + 3]), Array(reference.pixels[index..<index + 3]), tolerance: 1))
    }
  }

  @Test(arguments: [TJSAMP_444, TJSAMP_422, TJSAMP_420, TJSAMP_440, TJSAMP_411])
  func everySubsamplingMatchesTheRGBDecode(subsampling: TJSAMP) throws {
    // Given a smooth 4-colour gradient JPEG of odd size in this subsampling
    let image = TestImages.rgb(width: 77, height: 45) { x, y in
      (UInt8(x * 3), UInt8(y * 5), UInt8(255 - x * 2))
    }
    let jpeg = TestImages.jpeg(image.pixels, width: 77, height: 45, subsampling: subsampling)

    // When it is decoded to planes, its chroma resized to full size and converted to RGB
    let planes = try #require(try ImageDecoder().decodePlanes(jpeg, options: DecodeOptions()))
    let rgb = Resampler().resize(planes.image, to: Size(width: 77, height: 45), chromaFactor: (1, 1)).rgb()

    // Then it is the RGB decode to within the difference of the chroma upsampling filters
    let reference = try ImageDecoder().decode(jpeg, options: DecodeOptions()).buffer
    let worst = zip(rgb.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    #expect(worst <= 6, "largest difference \(worst)")
  }

  @Test func grayscaleJPEGHasNeutralChroma() throws {
    let gray = (0..<(33 * 17)).map { UInt8($0 % 251) }
    let jpeg = TestImages.jpeg(gray, width: 33, height: 17, pixelFormat: TJPF_GRAY, subsampling: TJSAMP_GRAY)
    let planes = try #require(try ImageDecoder().decodePlanes(jpeg, options: DecodeOptions()))
    #expect(
      planes.image.cb.samples.allSatisfy { $0 == 128 } && planes.image.cr.samples.allSatisfy { $0 == 128 })
    let rgb = planes.image.rgb()
    let reference = try ImageDecoder().decode(jpeg, options: DecodeOptions()).buffer
    #expect(rgb == reference)
  }

  @Test func cmykWebPAndPNGSourcesTakeTheRGBPath() throws {
    let decoder = ImageDecoder()
    #expect(
      try decoder.decodePlanes(try TestImages.fixture("cmyk-adobe.jpg"), options: DecodeOptions()) == nil)
    #expect(
      try decoder.decodePlanes(try Fixtures.photoBytes("ladybird.webp"), options: DecodeOptions()) == nil)
    #expect(
      try decoder.decodePlanes(try Fixtures.photoBytes("freshflower-alpha.png"), options: DecodeOptions())
        == nil)
  }

  @Test func cmykJPEGThumbnailIsStillRight() throws {
    // Given a CMYK JPEG (it cannot take the planar path)
    let bytes = try TestImages.fixture("cmyk-adobe.jpg")
    let root = try Fixtures.temporaryDirectory()
    let variant = ThumbnailVariant(name: "t", box: Size(width: 16, height: 16), fit: .cover, format: .png)

    // When both thumbnailers make a PNG
    let planar = try Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: root))
      .thumbnails(of: bytes, source: "c", variants: [variant])
    let rgb = try Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: root), usesPlanarPath: false)
      .thumbnails(of: bytes, source: "c", variants: [variant])

    // Then they are the same blob
    #expect(planar == rgb)
  }

  @Test(arguments: [
    Array("JFIF garbage".utf8), [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array(repeating: 0x41, count: 64),
  ])
  func garbageJPEGIsATypedError(bytes: [UInt8]) {
    var bytes = bytes
    if bytes.first != 0xFF { bytes = [0xFF, 0xD8, 0xFF] + bytes }
    #expect(throws: ImageError.self) { try ImageDecoder().decodePlanes(bytes, options: DecodeOptions()) }
  }

  @Test(arguments: [0.1, 0.5, 0.9])
  func truncatedJPEGIsCorrupt(fraction: Double) throws {
    let jpeg = TestImages.jpeg(try Fixtures.photo("storm.jpg"), quality: 90)
    let cut = Array(jpeg.prefix(Int(Double(jpeg.count) * fraction)))
    TestImages.expectCorruptJPEG { () throws(ImageError) in
      _ = try ImageDecoder().decodePlanes(cut, options: DecodeOptions(target: Size(width: 64, height: 64)))
    }
  }

  @Test func tooManyPixelsIsCheckedFirst() throws {
    let jpeg = try Fixtures.photoBytes("storm.jpg")
    #expect(throws: ImageError.tooManyPixels(width: 945, height: 630, limit: 1000)) {
      try ImageDecoder().decodePlanes(jpeg, options: DecodeOptions(maxPixels: 1000))
    }
    #expect(throws: ImageError.tooLarge(bytes: jpeg.count, limit: 10)) {
      try ImageDecoder().decodePlanes(jpeg, options: DecodeOptions(maxBytes: 10))
    }
  }

  @Test(arguments: 1...8, [OutputFormat.png, .webp])
  func exifOrientationGivesUprightThumbnails(orientation: Int, format: OutputFormat) throws {
    // Given the upright 64×32 quadrant picture stored with this orientation
    let swaps = orientation >= 5
    let colors = OrientationTests.storedQuadrants[orientation, default: []].map {
      TestImages.quadrantColors[$0]
    }
    let stored = TestImages.quadrants(width: swaps ? 32 : 64, height: swaps ? 64 : 32, colors: colors)
    let jpeg = TestImages.withExifOrientation(TestImages.jpeg(stored), orientation)

    // When the planar path makes a 32×16 thumbnail
    let root = try Fixtures.temporaryDirectory()
    let variant = ThumbnailVariant(name: "t", box: Size(width: 32, height: 16), format: format, quality: 95)
    let set = try Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: root))
      .thumbnails(of: jpeg, source: "o", variants: [variant])

    // Then it is upright
    let bytes = try #require(FileManager.default.contents(atPath: root + "/" + set.variants[0].path))
    let image = try ImageDecoder().decode([UInt8](bytes), options: DecodeOptions()).buffer
    #expect(set.width == 64 && set.height == 32 && image.width == 32 && image.height == 16)
    for (index, (x, y)) in [(4, 4), (28, 4), (4, 12), (28, 12)].enumerated() {
      let (r, g, b) = TestImages.quadrantColors[index]
      #expect(TestImages.isClose(TestImages.pixel(image, x, y), [r, g, b], tolerance: 24))
    }
  }

  @Test(arguments: 1...8)
  func exifOrientationGivesUprightPlanes(orientation: Int) throws {
    // Given the upright 64×32 quadrant picture stored with this orientation
    let swaps = orientation >= 5
    let colors = OrientationTests.storedQuadrants[orientation, default: []].map {
      TestImages.quadrantColors[$0]
    }
    let stored = TestImages.quadrants(width: swaps ? 32 : 64, height: swaps ? 64 : 32, colors: colors)
    let jpeg = TestImages.withExifOrientation(TestImages.jpeg(stored), orientation)

    // When it is decoded to planes and converted to RGB
    let planes = try #require(try ImageDecoder().decodePlanes(jpeg, options: DecodeOptions()))
    let image = Resampler().resize(planes.image, to: Size(width: 64, height: 32), chromaFactor: (1, 1)).rgb()

    // Then the planes are upright, chroma included
    #expect(planes.originalSize == Size(width: 64, height: 32) && planes.image.luma.width == 64)
    #expect(
      planes.image.chromaFactor == (2, 2) && planes.image.cb.width == 32 && planes.image.cb.height == 16)
    for (index, (x, y)) in [(8, 8), (56, 8), (8, 24), (56, 24)].enumerated() {
      let (r, g, b) = TestImages.quadrantColors[index]
      #expect(TestImages.isClose(TestImages.pixel(image, x, y), [r, g, b], tolerance: 12))
    }
  }

  @Test(arguments: [OutputFormat.png, .jpeg])
  func planesAreEncodedOnlyAsWebP(format: OutputFormat) throws {
    // Given 4:2:0 planes of a photo
    let planes = try #require(
      try ImageDecoder().decodePlanes(try Fixtures.photoBytes("storm.jpg"), options: DecodeOptions()))
    let encoder = ImageEncoder()

    // Then WebP takes them and PNG and JPEG (encoded from RGB) do not
    #expect(encoder.acceptsPlanes(for: EncodeOptions(format: .webp)))
    #expect(!encoder.acceptsPlanes(for: EncodeOptions(format: format)))
    #expect(!(try encoder.encode(planes.image, options: EncodeOptions(format: .webp))).isEmpty)
    #expect(throws: ImageError.self) {
      try encoder.encode(planes.image, options: EncodeOptions(format: format))
    }
  }

  @Test(arguments: photos)
  func thumbnailsAreDeterministic(name: String) throws {
    let bytes = try Fixtures.photoBytes(name)
    let thumbnailer = Thumbnailer(
      decoder: ImageDecoder(), store: BlobStore(root: try Fixtures.temporaryDirectory()))
    let first = try thumbnailer.thumbnails(of: bytes, source: name, variants: [.card, .icon])
    let second = try thumbnailer.thumbnails(of: bytes, source: name, variants: [.card, .icon])
    #expect(first == second)
  }
}
