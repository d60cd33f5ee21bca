import Foundation
import Testing
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

/// AVIF output, decoded back with ``AVIFDecoder`` (libavif + dav1d, a different AV1 codec from the
/// encoder's libaom).
@Suite("AVIF encoding", .offThePool)
struct AVIFEncoderTests {
  @Test(arguments: [(90, 34.0), (80, 32.0), (50, 28.0)])
  func roundTripsWithinAPSNR(quality: Int, minimumPSNR: Double) throws {
    let photo = try Fixtures.photo("storm.jpg")
    let small = Resampler().resize(photo, to: Size(width: 300, height: 200))
    let bytes = try ImageEncoder().encode(small, options: EncodeOptions(format: .avif, quality: quality))
    #expect(ImageFormat(sniffing: bytes) == .avif)
    let decoded = try ImageDecoder().decode(bytes, options: DecodeOptions()).buffer
    #expect(decoded.width == 300 && decoded.height == 200 && decoded.channels == 3)
    let psnr = ImageEncoderTests.psnr(decoded, small)
    #expect(psnr >= minimumPSNR, "q=\(quality): \(psnr) dB")
  }

  @Test func alphaSurvives() throws {
    let photo = try Fixtures.photo("freshflower-alpha.png")
    #expect(photo.channels == 4)
    let bytes = try ImageEncoder().encode(photo, options: EncodeOptions(format: .avif, quality: 90))
    let decoded = try ImageDecoder().decode(bytes, options: DecodeOptions()).buffer
    #expect(decoded.channels == 4 && decoded.width == photo.width && decoded.height == photo.height)
    let alpha = stride(from: 3, to: photo.pixels.count, by: 4).map { photo.pixels[$0] }
    let decodedAlpha = stride(from: 3, to: decoded.pixels.count, by: 4).map { decoded.pixels[$0] }
    // Lossy alpha at the colour's quantizer: close everywhere, not exact at the edges.
    let errors = zip(alpha, decodedAlpha).map { abs(Int($0) - Int($1)) }
    let mean = Double(errors.reduce(0, +)) / Double(errors.count)
    #expect(
      (errors.max() ?? 255) <= 64 && mean < 2, "alpha off by up to \(errors.max() ?? 255), \(mean) on average"
    )
  }

  @Test func lowerQualityIsSmaller() throws {
    let photo = try Fixtures.photo("ladybird.webp")
    let high = try AVIFEncoder().encode(photo, options: EncodeOptions(format: .avif, quality: 90))
    let low = try AVIFEncoder().encode(photo, options: EncodeOptions(format: .avif, quality: 40))
    #expect(low.count < high.count)
  }

  @Test func qualityMapsToLibavifsQuantizer() {
    #expect(AVIFEncoder.quantizer(quality: 100) == 0)
    #expect(AVIFEncoder.quantizer(quality: 80) == 13)
    #expect(AVIFEncoder.quantizer(quality: 1) == 62)
    #expect(AVIFEncoder.quantizer(quality: -5) == 62)
  }

  @Test func oddSizesAndOnePixelEncode() throws {
    for size in [(1, 1), (3, 7), (601, 315)] {
      let image = Fixtures.gradient(width: size.0, height: size.1)
      let bytes = try AVIFEncoder().encode(image, options: EncodeOptions(format: .avif))
      let decoded = try ImageDecoder().decode(bytes, options: DecodeOptions()).buffer
      #expect(decoded.width == size.0 && decoded.height == size.1)
    }
  }
}
