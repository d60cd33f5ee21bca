import Testing
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

/// Opaque still WebP decoded at full size to libwebp's own planes (`WebPDecoder.decodePlanes`).
@Suite("WebP to planes", .offThePool)
struct WebPPlanesTests {
  static let textured = TestImages.rgb(width: 96, height: 64) { x, y in
    (UInt8(truncatingIfNeeded: x * 37 ^ y * 11), UInt8(truncatingIfNeeded: y * 29 + x), UInt8(x * 2))
  }

  @Test(arguments: [false, true])
  func flatColoursComeBackAtAnOddSize(isLossless: Bool) throws {
    // Given a 33×17 flat-colour WebP, lossy or lossless
    let webp = TestImages.webp(
      TestImages.rgb(width: 33, height: 17) { _, _ in (200, 60, 30) }, isLossless: isLossless)

    // When it is decoded to planes
    let planes = try #require(try ImageDecoder().decodePlanes(webp, options: DecodeOptions()))

    // Then they are the bitstream's limited-range 4:2:0 planes, whole, and of that colour
    #expect(planes.format == .webp && planes.originalSize == Size(width: 33, height: 17))
    #expect(planes.image.range == .limited && planes.image.chromaFactor == (2, 2))
    #expect(planes.image.luma.width == 33 && planes.image.luma.height == 17)
    #expect(planes.image.cb.width == 17 && planes.image.cb.height == 9 && planes.image.cr.width == 17)
    let rgb = planes.image.rgb()
    for (x, y) in [(0, 0), (16, 8), (32, 16)] {
      #expect(TestImages.isClose(TestImages.pixel(rgb, x, y), [200, 60, 30], tolerance: 6), "at \(x), \(y)")
    }
  }

  @Test(arguments: [false, true])
  func transparentWebPTakesTheRGBPath(isLossless: Bool) throws {
    let rgba = PixelBuffer(
      width: 16, height: 16, channels: 4,
      pixels: (0..<256).flatMap { i -> [UInt8] in [90, 90, 200, i % 16 < 8 ? 255 : 0] })
    let webp = TestImages.webp(rgba, isLossless: isLossless)
    #expect(try ImageDecoder().decodePlanes(webp, options: DecodeOptions()) == nil)
  }

  @Test func animationTakesTheRGBPath() throws {
    // An animated canvas (VP8X animation flag, ANIM chunk): its first frame is composited in RGB(A)
    let webp = TestImages.webpFile(
      TestImages.vp8x(flags: 0x02, width: 40, height: 20)
        + TestImages.riffChunk("ANIM", [0, 0, 0, 0, 0, 0]))
    #expect(try WebPDecoder.features(of: webp).has_animation != 0)
    #expect(try ImageDecoder().decodePlanes(webp, options: DecodeOptions()) == nil)
  }

  @Test func largerThanTheLimitKeepsTheScaledDecode() throws {
    let webp = TestImages.webp(Self.textured)
    #expect(try WebPDecoder(fullSizePlanesLimit: 96 * 64).decodePlanes(webp, options: DecodeOptions()) != nil)
    #expect(
      try WebPDecoder(fullSizePlanesLimit: 96 * 64 - 1).decodePlanes(webp, options: DecodeOptions()) == nil)
  }

  @Test func theFilterIsSkippedWhereLibwebpsScaledDecodeSkipsIt() throws {
    // libwebp's rule: below 3/4 of both sides
    #expect(
      WebPDecoder.bypassesFiltering(
        stored: Size(width: 1600, height: 900), scaled: Size(width: 560, height: 315)))
    #expect(
      !WebPDecoder.bypassesFiltering(
        stored: Size(width: 1600, height: 900), scaled: Size(width: 1200, height: 675)))
    #expect(
      !WebPDecoder.bypassesFiltering(
        stored: Size(width: 1600, height: 900), scaled: Size(width: 1000, height: 900)))

    // Given a textured lossy WebP whose deblocking filter changes the pixels
    let webp = TestImages.webp(Self.textured, quality: 30)
    let size = Size(width: 96, height: 64)
    let filtered = try WebPDecoder.decodePlanes(webp, size: size, bypassFiltering: false)
    let unfiltered = try WebPDecoder.decodePlanes(webp, size: size, bypassFiltering: true)
    #expect(filtered.luma != unfiltered.luma)

    // Then a thumbnail-sized target gets the unfiltered planes and no target the filtered ones
    let small = try #require(
      try ImageDecoder().decodePlanes(webp, options: DecodeOptions(target: Size(width: 32, height: 32))))
    let whole = try #require(try ImageDecoder().decodePlanes(webp, options: DecodeOptions()))
    #expect(small.image == unfiltered && whole.image == filtered)
  }

  @Test(arguments: [0.3, 0.6, 0.95])
  func truncatedWebPIsCorrupt(fraction: Double) throws {
    let webp = TestImages.webp(Self.textured)
    let cut = Array(webp.prefix(Int(Double(webp.count) * fraction)))
    #expect {
      try ImageDecoder().decodePlanes(cut, options: DecodeOptions(target: Size(width: 32, height: 32)))
    } throws: { error in
      if case .corrupt(format: .webp, _) = error as? ImageError { return true }
      return false
    }
  }

  @Test func tooManyPixelsIsCheckedFromTheHeader() throws {
    let webp = TestImages.webp(Self.textured)
    #expect(throws: ImageError.tooManyPixels(width: 96, height: 64, limit: 1000)) {
      try ImageDecoder().decodePlanes(webp, options: DecodeOptions(maxPixels: 1000))
    }
  }

  @Test(arguments: 1...8)
  func exifOrientationGivesUprightPlanes(orientation: Int) throws {
    // Given the upright 64×32 quadrant picture stored with this orientation in an EXIF chunk
    let webp = TestImages.webpWithExifOrientation(TestImages.storedPicture(orientation), orientation)

    // When it is decoded to planes and converted to RGB
    let planes = try #require(try ImageDecoder().decodePlanes(webp, options: DecodeOptions()))
    let image = Resampler().resize(planes.image, to: Size(width: 64, height: 32), chromaFactor: (1, 1)).rgb()

    // Then the planes are upright, chroma included
    #expect(planes.originalSize == Size(width: 64, height: 32) && planes.image.cb.width == 32)
    for (index, (x, y)) in [(8, 8), (56, 8), (8, 24), (56, 24)].enumerated() {
      let (r, g, b) = TestImages.quadrantColors[index]
      #expect(TestImages.isClose(TestImages.pixel(image, x, y), [r, g, b], tolerance: 12))
    }
  }
}
