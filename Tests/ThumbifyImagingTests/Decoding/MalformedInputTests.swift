import Testing
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

/// Mutated and truncated versions of valid files: every one must decode or throw an ``ImageError``, never crash.
@Suite("Malformed input", .offThePool)
struct MalformedInputTests {
  /// A small deterministic generator (64-bit LCG), so failures reproduce.
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(max(1, bound)))
    }
  }

  static func samples() throws -> [(String, [UInt8])] {
    let photo = TestImages.rgb(width: 48, height: 40) { x, y in
      (UInt8(x * 5), UInt8(y * 6), UInt8((x ^ y) * 3))
    }
    let gif = TestImages.gif(
      screenWidth: 12, screenHeight: 9, palette: GIFDecoderTests.palette,
      frames: [
        TestImages.GIFFrame(
          width: 12, height: 9, indices: (0..<108).map { UInt8($0 % 4) }, transparentIndex: 1)
      ])
    return [
      ("jpeg", TestImages.withExifOrientation(TestImages.jpeg(photo), 6)),
      ("progressive jpeg", TestImages.jpeg(photo, isProgressive: true)),
      ("cmyk jpeg", try TestImages.fixture("cmyk-adobe.jpg")),
      ("png", try TestImages.fixture("interlaced.png")),
      ("png16", try TestImages.fixture("gray-alpha16-interlaced.png")),
      ("webp", TestImages.webp(photo)),
      ("webp lossless", TestImages.webp(photo, isLossless: true)),
      ("gif", gif),
      ("bmp", try TestImages.fixture("palette-8.bmp")),
      ("bmp32", try TestImages.fixture("rgba-32.bmp")),
      ("ico", try TestImages.fixture("three-sizes.ico")),
      ("ico bmp", try TestImages.fixture("bmp-entries.ico")),
    ]
  }

  @Test func mutatedFilesDecodeOrThrowTypedErrors() throws {
    let decoder = ImageDecoder()
    var generator = Generator(state: 2026)
    var outcomes = (decoded: 0, failed: 0)
    for (_, original) in try Self.samples() {
      for round in 0..<150 {
        var bytes = original
        if round % 3 == 0 {
          bytes = Array(bytes.prefix(generator.next(bytes.count)))
        } else {
          for _ in 0...generator.next(4) {
            // Mutate mostly the headers, where the lengths and sizes live.
            let index = generator.next(min(bytes.count, round % 2 == 0 ? 64 : bytes.count))
            bytes[index] = UInt8(truncatingIfNeeded: generator.next(256))
          }
        }
        do {
          let image = try decoder.decode(
            bytes, options: DecodeOptions(target: Size(width: 24, height: 24), maxPixels: 4_000_000))
          #expect(
            image.buffer.pixels.count == image.buffer.width * image.buffer.height * image.buffer.channels)
          outcomes.decoded += 1
        } catch {
          outcomes.failed += 1
        }
      }
    }
    // Both outcomes occur, so the mutations reach past the format checks.
    #expect(outcomes.decoded > 100 && outcomes.failed > 100)
  }
}
