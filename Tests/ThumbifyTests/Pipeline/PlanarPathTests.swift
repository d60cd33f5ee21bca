import CTurboJPEG
import Foundation
import Testing
import Thumbify
import ThumbifyImagingTestSupport
import ThumbifyStore

@testable import ThumbifyImaging

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

  @Test func limitedRangeMappingsAreTheRoundedDefinitions() {
    // Given every sample value, one by one and sixteen at a time
    let (luma, chroma) = (YCbCrImage.limitedRangeMappings.luma, YCbCrImage.limitedRangeMappings.chroma)
    for value in 0..<256 {
      let sample = UInt8(value)
      // Then each maps as Y′ = 16 + Y·219/255 and C′ = 128 + (C − 128)·224/255, rounded
      let expectedLuma = UInt8((16 + Double(value) * 219 / 255).rounded())
      let expectedChroma = UInt8((128 + (Double(value) - 128) * 224 / 255).rounded())
      #expect(luma(sample) == expectedLuma && chroma(sample) == expectedChroma, "\(value)")
      #expect(luma(SIMD16(repeating: sample)) == SIMD16(repeating: expectedLuma), "\(value)")
      #expect(chroma(SIMD16(repeating: sample)) == SIMD16(repeating: expectedChroma), "\(value)")
    }
    // And a full-range image's copy is mapped sample by sample, SIMD steps and tail alike
    let plane = SamplePlane(width: 37, height: 3, samples: (0..<111).map { UInt8($0 * 7 % 256) })
    let image = YCbCrImage(
      luma: plane, cb: SamplePlane(width: 19, height: 2, repeating: 0),
      cr: SamplePlane(width: 19, height: 2, repeating: 255), range: .full, chromaFactor: (2, 2)
    ).limitedRange()
    #expect(image.range == .limited && image.luma.samples == plane.samples.map { luma($0) })
    #expect(image.cb.samples.allSatisfy { $0 == 16 } && image.cr.samples.allSatisfy { $0 == 240 })
  }

  @Test func cmykJPEGAndTransparentPNGSourcesTakeTheRGBPath() throws {
    // (Transparent and animated WebP: WebPPlanesTests.)
    let decoder = ImageDecoder()
    #expect(
      try decoder.decodePlanes(try TestImages.fixture("cmyk-adobe.jpg"), options: DecodeOptions()) == nil)
    #expect(
      try decoder.decodePlanes(try Fixtures.photoBytes("freshflower-alpha.png"), options: DecodeOptions())
        == nil)
    // A palette with tRNS: transparent although its colour type has no alpha channel. The header
    // says so (the planar decode would otherwise decode it, see the alpha and fall back: twice the work)
    #expect(!PNGDecoder.isOpaque(try TestImages.fixture("palette2-trns.png")))
    #expect(!PNGDecoder.isOpaque(try Fixtures.photoBytes("freshflower-alpha.png")))
    #expect(PNGDecoder.isOpaque(try TestImages.fixture("rgb16.png")))
    #expect(
      try decoder.decodePlanes(try TestImages.fixture("palette2-trns.png"), options: DecodeOptions()) == nil)
  }

  @Test(arguments: [(200, 30, 40), (20, 180, 90), (250, 240, 10), (0, 0, 255), (255, 0, 0)])
  func flatPNGGivesItsColour(red: Int, green: Int, blue: Int) throws {
    // Given a flat-coloured opaque PNG of odd size
    let color = (UInt8(red), UInt8(green), UInt8(blue))
    let png = try ImageEncoder().encode(
      TestImages.rgb(width: 37, height: 21) { _, _ in color }, options: EncodeOptions(format: .png))

    // When it is decoded to planes and converted back
    let planes = try #require(try ImageDecoder().decodePlanes(png, options: DecodeOptions()))
    let rgb = planes.image.rgb()

    // Then every pixel is that colour (to the rounding of two 8-bit conversions)
    #expect(planes.format == .png && planes.originalSize == Size(width: 37, height: 21))
    #expect(planes.image.range == .full && planes.image.chromaFactor == (2, 2))
    #expect((planes.image.cb.width, planes.image.cb.height) == (19, 11))
    for index in stride(from: 0, to: rgb.pixels.count, by: 3) {
      #expect(
        TestImages.isClose(Array(rgb.pixels[index..<index + 3]), [color.0, color.1, color.2], tolerance: 2))
    }
  }

  @Test func grayPNGHasExactLumaAndNeutralChroma() throws {
    let gray = (0..<(33 * 17)).map { UInt8($0 % 256) }
    let png = try ImageEncoder().encode(
      PixelBuffer(width: 33, height: 17, channels: 3, pixels: gray.flatMap { [$0, $0, $0] }),
      options: EncodeOptions(format: .png))
    let planes = try #require(try ImageDecoder().decodePlanes(png, options: DecodeOptions()))
    #expect(planes.image.luma.samples == gray)
    #expect(
      planes.image.cb.samples.allSatisfy { $0 == 128 } && planes.image.cr.samples.allSatisfy { $0 == 128 })
  }

  @Test func pngChromaIsTheBlockMeanOfTheRGBConversion() throws {
    // Given a gradient PNG of odd size (every 2×2 block different, edge blocks incomplete)
    let image = TestImages.rgb(width: 31, height: 15) { x, y in
      (UInt8(x * 8), UInt8(255 - y * 17), UInt8((x * y) % 256))
    }
    let png = try ImageEncoder().encode(image, options: EncodeOptions(format: .png))
    let planes = try #require(try ImageDecoder().decodePlanes(png, options: DecodeOptions()))

    // Then luma is BT.601 of each pixel and chroma that of each block's mean (edges repeated), ±1
    func pixel(_ x: Int, _ y: Int) -> [Double] {
      let index = (min(y, 14) * 31 + min(x, 30)) * 3
      return image.pixels[index..<index + 3].map(Double.init)
    }
    for y in 0..<15 {
      for x in 0..<31 {
        let (r, g, b) = (pixel(x, y)[0], pixel(x, y)[1], pixel(x, y)[2])
        let expected = 0.299 * r + 0.587 * g + 0.114 * b
        #expect(abs(Double(planes.image.luma.samples[y * 31 + x]) - expected) <= 1, "Y at \(x), \(y)")
      }
    }
    for y in 0..<8 {
      for x in 0..<16 {
        let block = [
          pixel(2 * x, 2 * y), pixel(2 * x + 1, 2 * y), pixel(2 * x, 2 * y + 1), pixel(2 * x + 1, 2 * y + 1),
        ]
        let means = (0..<3).map { c in block.map { $0[c] }.reduce(0, +) / 4 }
        let (r, g, b) = (means[0], means[1], means[2])
        let cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b
        let cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b
        #expect(abs(Double(planes.image.cb.samples[y * 16 + x]) - cb) <= 1, "Cb at \(x), \(y)")
        #expect(abs(Double(planes.image.cr.samples[y * 16 + x]) - cr) <= 1, "Cr at \(x), \(y)")
      }
    }
  }

  @Test func truncatedOpaquePNGIsATypedError() throws {
    let png = try ImageEncoder().encode(
      TestImages.rgb(width: 64, height: 64) { x, y in (UInt8(x * 4), UInt8(y * 4), 9) },
      options: EncodeOptions(format: .png))
    #expect(PNGDecoder.isOpaque(png))
    #expect {
      try ImageDecoder().decodePlanes(Array(png.prefix(png.count / 2)), options: DecodeOptions())
    } throws: { error in
      if case .corrupt(format: .png, _) = error as? ImageError { return true }
      return false
    }
  }

  @Test(arguments: [
    [], Array(repeating: 0x89, count: 40),
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 40),
  ])
  func unreadablePNGHeadersAreNotOpaque(bytes: [UInt8]) {
    #expect(!PNGDecoder.isOpaque(bytes))
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
    let jpeg = TestImages.withExifOrientation(
      TestImages.jpeg(TestImages.storedPicture(orientation)), orientation)

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
    let jpeg = TestImages.withExifOrientation(
      TestImages.jpeg(TestImages.storedPicture(orientation)), orientation)

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
  func onlyWebPTakesPlanesFromAnySource(format: OutputFormat) throws {
    // Given 4:2:0 planes of a photo
    let planes = try #require(
      try ImageDecoder().decodePlanes(try Fixtures.photoBytes("storm.jpg"), options: DecodeOptions()))
    let encoder = ImageEncoder()

    // Then WebP takes them from any source; PNG and JPEG outputs keep the RGB path, except that JPEG is
    // encoded from a JPEG source's own planes (keep-jpeg, KeepJPEGTests), and PNG never from planes
    #expect(encoder.acceptsPlanes(for: EncodeOptions(format: .webp)))
    #expect(!encoder.acceptsPlanes(for: EncodeOptions(format: format)))
    #expect(!(try encoder.encode(planes.image, options: EncodeOptions(format: .webp))).isEmpty)
    if format == .jpeg {
      #expect(!(try encoder.encode(planes.image, options: EncodeOptions(format: .jpeg))).isEmpty)
    } else {
      #expect(throws: ImageError.self) {
        try encoder.encode(planes.image, options: EncodeOptions(format: format))
      }
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
