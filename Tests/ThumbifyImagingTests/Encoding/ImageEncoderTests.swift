import Foundation
import Testing
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

@Suite("Image encoders", .offThePool)
struct ImageEncoderTests {
  /// Peak signal-to-noise ratio in dB between two same-sized buffers.
  static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
    var squared = 0.0
    for (x, y) in zip(a.pixels, b.pixels) {
      let difference = Double(x) - Double(y)
      squared += difference * difference
    }
    let mse = squared / Double(a.pixels.count)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
  }

  @Test(arguments: [(OutputFormat.webp, 30.0), (.jpeg, 30.0), (.png, Double.infinity)])
  func roundTripThroughTheCodecLibrary(_ format: OutputFormat, minimumPSNR: Double) throws {
    let photo = try Fixtures.photo("storm.jpg")
    let small = Resampler().resize(photo, to: Size(width: 300, height: 200))
    let bytes = try ImageEncoder().encode(small, options: EncodeOptions(format: format, quality: 90))
    let decoded = try #require(LibraryDecoder.pixels(of: bytes))
    #expect(decoded.width == 300 && decoded.height == 200 && decoded.channels == 3)
    #expect(Self.psnr(decoded, small) >= minimumPSNR)
  }

  @Test(arguments: [OutputFormat.webp, .png])
  func alphaSurvivesWebPAndPNG(_ format: OutputFormat) throws {
    let photo = try Fixtures.photo("freshflower-alpha.png")
    #expect(photo.channels == 4)
    let bytes = try ImageEncoder().encode(photo, options: EncodeOptions(format: format))
    let decoded = try #require(LibraryDecoder.pixels(of: bytes))
    #expect(decoded.channels == 4)
    let alpha = stride(from: 3, to: photo.pixels.count, by: 4).map { photo.pixels[$0] }
    let decodedAlpha = stride(from: 3, to: decoded.pixels.count, by: 4).map { decoded.pixels[$0] }
    #expect(alpha == decodedAlpha)
  }

  @Test func jpegFlattensAlphaOverWhite() throws {
    let transparent = PixelBuffer(
      width: 16, height: 16, channels: 4, pixels: [UInt8](repeating: 0, count: 16 * 16 * 4))
    let bytes = try JPEGEncoder().encode(transparent, options: EncodeOptions(format: .jpeg))
    let decoded = try #require(LibraryDecoder.pixels(of: bytes))
    #expect(decoded.pixels.allSatisfy { $0 >= 250 })
  }

  @Test func aWebPMethodInTheOptionsReachesLibwebp() throws {
    let photo = Resampler().resize(try Fixtures.photo("storm.jpg"), to: Size(width: 300, height: 200))
    let unset = try ImageEncoder().encode(photo, options: EncodeOptions(format: .webp))
    let four = try ImageEncoder().encode(photo, options: EncodeOptions(format: .webp, webpMethod: 4))
    let two = try ImageEncoder().encode(photo, options: EncodeOptions(format: .webp, webpMethod: 2))
    // Unset is the encoder's own method, 4; method 2 skips rate-distortion optimisation: other bytes.
    #expect(unset == four)
    #expect(two != four)
    let decoded = try #require(LibraryDecoder.pixels(of: two))
    #expect(decoded.width == 300 && decoded.height == 200)
    #expect(Self.psnr(decoded, photo) >= 30)
    // The planar path takes the method too.
    let planes = YCbCrImage(fullRange: photo)
    let planarFour = try ImageEncoder().encode(planes, options: EncodeOptions(format: .webp, webpMethod: 4))
    let planarTwo = try ImageEncoder().encode(planes, options: EncodeOptions(format: .webp, webpMethod: 2))
    #expect(planarTwo != planarFour)
  }

  @Test(arguments: OutputFormat.allCases)
  func sameInputGivesIdenticalBytes(_ format: OutputFormat) throws {
    let photo = try Fixtures.photo("ladybird.webp")
    let first = try ImageEncoder().encode(photo, options: EncodeOptions(format: format))
    let second = try ImageEncoder().encode(photo, options: EncodeOptions(format: format))
    #expect(first == second)
    let otherQuality = try ImageEncoder().encode(photo, options: EncodeOptions(format: format, quality: 50))
    #expect(format == .png || otherQuality != first)
  }

  @Test func qualityDefaultsToEighty() {
    #expect(EncodeOptions().quality == 80)
    #expect(EncodeOptions().format == .webp)
  }
}
