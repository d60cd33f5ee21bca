import CTurboJPEG
import Testing
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

/// Which sources can be served as they are (``WebReadyImage``): what thumbify's own encoders write is,
/// anything with metadata, colour chunks or animation is not, and garbage never is.
@Suite("Web-ready images", .offThePool)
struct WebReadyImageTests {
  static let picture = TestImages.rgb(width: 40, height: 30) { x, y in (UInt8(x * 6), UInt8(y * 8), 90) }

  @Test(arguments: [OutputFormat.jpeg, .png, .webp])
  func whatTheEncoderWritesIsWebReady(format: OutputFormat) throws {
    // Given the picture encoded by thumbify's encoder
    let bytes = try ImageEncoder().encode(Self.picture, options: EncodeOptions(format: format, quality: 80))

    // When it is checked, then it is web-ready in its own format, and it decodes to the same size
    #expect(WebReadyImage.format(of: bytes) == format)
    let decoded = try ImageDecoder().decode(bytes, options: DecodeOptions())
    #expect(decoded.buffer.width == 40 && decoded.buffer.height == 30)
  }

  @Test func progressiveAndGreyJPEGsAreWebReady() {
    let progressive = TestImages.jpeg(Self.picture, isProgressive: true)
    let grey = TestImages.jpeg(
      Self.picture.pixels, width: 40, height: 30, subsampling: TJSAMP_GRAY, quality: 80)
    #expect(WebReadyImage.format(of: progressive) == .jpeg)
    #expect(WebReadyImage.format(of: grey) == .jpeg)
  }

  @Test func metadataAndColourChunksAreNot() {
    let jpeg = TestImages.jpeg(Self.picture)
    let png = TestImages.png(Self.picture.pixels, width: 40, height: 30, format: 2)
    let cmyk = TestImages.jpeg(
      [UInt8](repeating: 100, count: 40 * 30 * 4), width: 40, height: 30, pixelFormat: TJPF_CMYK,
      subsampling: TJSAMP_444)
    #expect(WebReadyImage.format(of: png) == .png)
    #expect(WebReadyImage.format(of: TestImages.withExifOrientation(jpeg, 1)) == nil)
    #expect(WebReadyImage.format(of: TestImages.withICCProfile(jpeg, TestImages.iccProfile(.sRGB))) == nil)
    #expect(WebReadyImage.format(of: cmyk) == nil)
    #expect(
      WebReadyImage.format(of: TestImages.png(png, inserting: [("tEXt", Array("Author\0me".utf8))])) == nil)
    #expect(WebReadyImage.format(of: TestImages.png(png, inserting: [("gAMA", [0, 0, 0xAF, 0xC8])])) == nil)
    #expect(
      WebReadyImage.format(of: TestImages.webp(Self.picture, profile: TestImages.iccProfile(.sRGB))) == nil)
  }

  @Test(arguments: [OutputFormat.jpeg, .png, .webp])
  func truncatedOrCorruptBytesAreNot(format: OutputFormat) throws {
    // Given a web-ready file, cut at every length and with garbage after its signature
    let bytes = try ImageEncoder().encode(Self.picture, options: EncodeOptions(format: format, quality: 80))
    for length in 0..<min(bytes.count, 200) {
      let cut = Array(bytes.prefix(length))
      if format != .jpeg {  // a JPEG's headers can end before its scan data: what matters is no crash
        #expect(WebReadyImage.format(of: cut) == nil, "\(length)")
      } else {
        _ = WebReadyImage.format(of: cut)
      }
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      let garbage =
        Array(bytes.prefix(12)) + (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) }
      _ = WebReadyImage.format(of: garbage)
    }
    #expect(WebReadyImage.format(of: [UInt8](repeating: 0xFF, count: 64)) == nil)
  }
}
