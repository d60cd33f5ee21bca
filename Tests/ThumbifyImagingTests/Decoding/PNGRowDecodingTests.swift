import CPNG
import Foundation
import Testing
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

/// The row-by-row PNG decoder (`Sources/CPNGRows`) against libpng's own full-frame decode, and its
/// box-shrunk output against the resampler's pre-shrink of a full decode.
@Suite("PNG row decoding", .offThePool)
struct PNGRowDecodingTests {
  let decoder = ImageDecoder()

  /// Every kind of PNG the fixtures cover but the interlaced 16-bit ones, which libpng 1.6.39's
  /// simplified API itself garbles (PNGDecoderTests checks those against their known samples).
  @Test(arguments: [
    "gamma10.png", "rgba16.png", "gray4-trns.png", "palette2-trns.png", "interlaced.png", "rgb16.png",
    "gray-alpha16.png", "rgba-37x23.png", "rgba-interlaced-37x23.png",
  ])
  func fullSizeDecodeMatchesLibpngsSimplifiedAPI(name: String) throws {
    let png = try TestImages.fixture(name)
    let decoded = try PNGDecoder().decode(png, options: DecodeOptions())
    #expect(decoded.buffer == (try Self.simplifiedAPIDecode(png)))
  }

  @Test func aRealRGBAPhotoMatchesLibpngsSimplifiedAPI() throws {
    let png = try Fixtures.photoBytes("freshflower-alpha.png")
    let decoded = try PNGDecoder().decode(png, options: DecodeOptions())
    #expect(decoded.buffer.channels == 4)
    #expect(decoded.buffer == (try Self.simplifiedAPIDecode(png)))
  }

  @Test func gammaOtherThanSRGBsIsCorrected() throws {
    // Given the interlaced fixture's pattern stored with gAMA 1.0 (linear light)
    let linear = try decoder.decode(try TestImages.fixture("gamma10.png"), options: DecodeOptions()).buffer
    let plain = try decoder.decode(try TestImages.fixture("interlaced.png"), options: DecodeOptions()).buffer

    // Then mid-tones come out brighter, as sRGB encoding of linear values does
    #expect(TestImages.pixel(plain, 8, 8) == [64, 64, 191])
    let corrected = TestImages.pixel(linear, 8, 8)
    #expect(corrected[0] > 120 && corrected[2] > 210)
  }

  @Test(arguments: [1, 2, 3, 5])
  func interlacedRowsGiveTheSamePixelsAsSequentialOnes(factor: Int) throws {
    let options = Self.options(forFactor: factor, source: Size(width: 37, height: 23))
    let sequential = try decoder.decode(try TestImages.fixture("rgba-37x23.png"), options: options)
    let interlaced = try decoder.decode(try TestImages.fixture("rgba-interlaced-37x23.png"), options: options)
    #expect(sequential.buffer.width == 37 / factor && sequential.buffer.height == 23 / factor)
    #expect(interlaced.buffer == sequential.buffer)
  }

  @Test(arguments: [2, 3, 7])
  func shrunkOpaqueDecodeIsTheResamplersBoxShrinkOfAFullDecode(factor: Int) throws {
    // Given a 301×203 opaque PNG of noise (no block is flat, the odd sides leave partial blocks)
    let size = Size(width: 301, height: 203)
    let samples = (0..<(size.width * size.height * 3)).map {
      UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7)
    }
    let png = TestImages.png(samples, width: size.width, height: size.height, format: 2)

    // When decoded for a target that allows `factor`
    let shrunk = try decoder.decode(png, options: Self.options(forFactor: factor, source: size))

    // Then it is exactly what the resampler's own pre-shrink makes of the full-size pixels
    let full = try decoder.decode(png, options: DecodeOptions())
    #expect(shrunk.originalSize == size)
    #expect(shrunk.buffer == BoxShrinker.shrink(full.buffer, by: factor))
  }

  @Test func shrunkAlphaWeightsColourByOpacity() throws {
    // Given 4×4 blocks, half transparent red and half opaque blue
    let samples = (0..<64).flatMap { i -> [UInt8] in i % 2 == 0 ? [255, 0, 0, 0] : [0, 0, 255, 255] }
    let png = TestImages.png(samples, width: 8, height: 8, format: 3)

    // When shrunk by 4, then each pixel is blue (transparent red counts for nothing), half opaque
    let shrunk = try decoder.decode(
      png, options: Self.options(forFactor: 4, source: Size(width: 8, height: 8)))
    #expect(shrunk.buffer.width == 2 && shrunk.buffer.channels == 4)
    #expect(TestImages.pixel(shrunk.buffer, 1, 1) == [0, 0, 255, 128])
  }

  @Test func largePNGThumbnailMatchesOneFromAFullSizeDecode() throws {
    // Given a 2400×1600 photo-like PNG (a real photo scaled up, plus grain)
    let photo = try decoder.decode(try Fixtures.photoBytes("freshflower-alpha.png"), options: DecodeOptions())
    let size = Size(width: 2400, height: 1600)
    var large = Resampler().resize(photo.buffer, to: size)
    for index in large.pixels.indices where index % 4 != 3 {
      large.pixels[index] = large.pixels[index] &+ UInt8(truncatingIfNeeded: index &* 40_503 >> 9) % 9
    }
    let png = try PNGEncoder().encode(large, options: EncodeOptions())
    let geometry = ThumbnailGeometry(source: size, box: Size(width: 300, height: 300), fit: .contain)

    // When decoded for a 300×300 thumbnail, and at full size
    let options = DecodeOptions(target: Size(width: 300, height: 300), fit: .contain)
    let shrunk = try decoder.decode(png, options: options)
    var fullOptions = options
    fullOptions.boxShrinkHeadroom = .infinity
    let full = try decoder.decode(png, options: fullOptions)

    // Then the decode holds a sixteenth of the pixels and the thumbnails agree
    #expect(shrunk.buffer.width == 600 && full.buffer.width == 2400)
    // (compared premultiplied: a nearly transparent pixel's straight colour is noise, and invisible)
    var a = Resampler().resize(shrunk, geometry: geometry)
    var b = Resampler().resize(full, geometry: geometry)
    #expect(a.width == b.width && a.height == b.height && a.channels == 4 && b.channels == 4)
    AlphaPremultiplier.premultiply(&a)
    AlphaPremultiplier.premultiply(&b)
    let differences = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }
    #expect(differences.max() ?? 0 <= 8)
    #expect(Double(differences.reduce(0, +)) / Double(differences.count) < 0.5)
  }

  @Test func truncatedInterlacedPNGIsCorrupt() throws {
    let png = try TestImages.fixture("rgba-interlaced-37x23.png")
    #expect(TestImages.corruptionMessage(decoding: Array(png.prefix(png.count - 200)), format: .png) != nil)
  }

  /// Options whose target makes the decoder shrink an image of `source` by exactly `factor`.
  static func options(forFactor factor: Int, source: Size) -> DecodeOptions {
    // Headroom 1 and a target of side/factor: the required size is then side/factor per axis.
    var options = DecodeOptions(
      target: Size(width: source.width / factor, height: source.height / factor), fit: .contain)
    options.boxShrinkHeadroom = 1
    return options
  }

  /// libpng's simplified API's 8-bit sRGB RGB(A) decode: the reference the row decoder matches.
  static func simplifiedAPIDecode(_ png: [UInt8]) throws -> PixelBuffer {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    defer { png_image_free(&image) }
    let begun = png.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
    try #require(begun != 0)
    image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
    let hasAlpha = image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
    image.format = UInt32(PNG_FORMAT_FLAG_COLOR) | (hasAlpha ? UInt32(PNG_FORMAT_FLAG_ALPHA) : 0)
    let channels = hasAlpha ? 4 : 3
    let (width, height) = (Int(image.width), Int(image.height))
    var pixels = [UInt8](repeating: 0, count: width * height * channels)
    let finished = pixels.withUnsafeMutableBytes {
      png_image_finish_read(&image, nil, $0.baseAddress, Int32(width * channels), nil)
    }
    try #require(finished != 0)
    return PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
  }
}
