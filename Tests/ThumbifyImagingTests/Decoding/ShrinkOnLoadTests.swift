import Testing
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

@Suite("Shrink-on-load", .offThePool)
struct ShrinkOnLoadTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var stored: Size
    var orientation: ExifOrientation
    var target: Size
    var fit: Fit
    var headroom: Double
    var expected: Size
    var testDescription: String {
      "\(stored) o\(orientation.rawValue) → \(target) \(fit) ×\(headroom) = \(expected)"
    }
  }

  static let cases: [Case] = [
    // 4000×3000 into 600×315: contain needs 420×315, which 1/8 (500×375) covers.
    Case(
      stored: .init(width: 4000, height: 3000), orientation: .up, target: .init(width: 600, height: 315),
      fit: .contain, headroom: 1, expected: .init(width: 500, height: 375)),
    // cover needs 600×450: 1/8 is too small, 1/4 (1000×750) covers.
    Case(
      stored: .init(width: 4000, height: 3000), orientation: .up, target: .init(width: 600, height: 315),
      fit: .cover, headroom: 1, expected: .init(width: 1000, height: 750)),
    // With libvips' headroom of 2, contain needs 840×630: 1/4.
    Case(
      stored: .init(width: 4000, height: 3000), orientation: .up, target: .init(width: 600, height: 315),
      fit: .contain, headroom: 2, expected: .init(width: 1000, height: 750)),
    // Rotated by EXIF (upright 3000×4000): contain needs 237×315, still 1/8 of the stored 4000×3000.
    Case(
      stored: .init(width: 4000, height: 3000), orientation: .right, target: .init(width: 600, height: 315),
      fit: .contain, headroom: 1, expected: .init(width: 500, height: 375)),
    // Rotated, cover needs 600×800 upright = 800×600 stored: 1/4.
    Case(
      stored: .init(width: 4000, height: 3000), orientation: .left, target: .init(width: 600, height: 315),
      fit: .cover, headroom: 1, expected: .init(width: 1000, height: 750)),
    // Just too small for 1/8 (4000/8 = 500 < 501): 1/4.
    Case(
      stored: .init(width: 4000, height: 1000), orientation: .up, target: .init(width: 501, height: 500),
      fit: .contain, headroom: 1, expected: .init(width: 1000, height: 250)),
    // Never upscaled: a small image is decoded at full size.
    Case(
      stored: .init(width: 300, height: 200), orientation: .up, target: .init(width: 600, height: 315),
      fit: .contain, headroom: 1, expected: .init(width: 300, height: 200)),
    // Icons: 64×64 cover of 1200×630 needs 122×64: 1/8 (150×79).
    Case(
      stored: .init(width: 1200, height: 630), orientation: .up, target: .init(width: 64, height: 64),
      fit: .cover, headroom: 1, expected: .init(width: 150, height: 79)),
    // Odd sizes round up like TJSCALED: 1001×751 at 1/8 is 126×94, enough for contain 100×100 (100×76).
    Case(
      stored: .init(width: 1001, height: 751), orientation: .up, target: .init(width: 100, height: 100),
      fit: .contain, headroom: 1, expected: .init(width: 126, height: 94)),
  ]

  @Test(arguments: cases)
  func picksTheSmallestCoveringScale(_ test: Case) {
    let options = DecodeOptions(target: test.target, fit: test.fit, shrinkHeadroom: test.headroom)
    let required = ShrinkOnLoad.requiredSize(
      stored: test.stored, orientation: test.orientation, options: options)
    let factor = ShrinkOnLoad.smallestFactor(
      stored: test.stored, required: required, among: JPEGDecoder.scales)
    #expect(ShrinkOnLoad.scaledSize(test.stored, by: factor) == test.expected)
  }

  @Test func theScalesAreTheFastDCTOnes() {
    let scales = JPEGDecoder.scales.map { "\($0.num)/\($0.denom)" }.sorted()
    #expect(scales == ["1/1", "1/2", "1/4", "1/8"])
  }

  @Test(
    arguments: [(Fit.contain, 1.0, 500, 375), (.cover, 1.0, 1000, 750), (.contain, nil, 1000, 750)]
      as [(Fit, Double?, Int, Int)])
  func aRealPhotoSizedJPEGIsDecodedAtTheReducedScale(fit: Fit, jpegHeadroom: Double?, width: Int, height: Int)
    throws
  {
    // Given a 4000×3000 JPEG
    let jpeg = TestImages.jpeg(
      TestImages.rgb(width: 4000, height: 3000) { x, y in (UInt8(x / 16 % 256), UInt8(y / 12 % 256), 90) },
      quality: 50)

    // When it is decoded for a 600×315 card (JPEG headroom 1, or the default 1.5: contain needs 630×473)
    var options = DecodeOptions(target: Size(width: 600, height: 315), fit: fit)
    if let jpegHeadroom { options.jpegShrinkHeadroom = jpegHeadroom }
    let image = try ImageDecoder().decode(jpeg, options: options)

    // Then TurboJPEG decoded it at the reduced scale, and the original size is still reported
    #expect(image.buffer.width == width && image.buffer.height == height)
    #expect(image.originalSize == Size(width: 4000, height: 3000))
    // and the content is the same picture (the colour ramp at the centre)
    let centre = TestImages.pixel(image.buffer, width / 2, height / 2)
    #expect(TestImages.isClose(centre, [125, 125, 90], tolerance: 8))
  }

  @Test(arguments: [false, true])
  func aRotatedProgressiveJPEGShrinksInItsStoredOrientation(isProgressive: Bool) throws {
    // Given an 800×600 JPEG stored rotated (EXIF 6: upright it is 600×800) with red in the stored top-left
    let stored = TestImages.quadrants(
      width: 800, height: 600, colors: [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)])
    let jpeg = TestImages.withExifOrientation(TestImages.jpeg(stored, isProgressive: isProgressive), 6)

    // When decoded for a 75×100 contain box (the upright picture fits exactly at 1/8)
    let image = try ImageDecoder().decode(
      jpeg, options: DecodeOptions(target: Size(width: 75, height: 100), jpegShrinkHeadroom: 1))

    // Then it was decoded at 1/8 (100×75 stored) and turned upright: 75×100 with red now top-right
    #expect(image.buffer.width == 75 && image.buffer.height == 100)
    #expect(image.originalSize == Size(width: 600, height: 800))
    #expect(TestImages.isClose(TestImages.pixel(image.buffer, 60, 10), [255, 0, 0], tolerance: 10))
    #expect(TestImages.isClose(TestImages.pixel(image.buffer, 10, 10), [0, 0, 255], tolerance: 10))
  }
}
