import Testing
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

@Suite("GIF decoding", .offThePool)
struct GIFDecoderTests {
  let decoder = ImageDecoder()
  static let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]

  @Test(arguments: [false, true])
  func decodesAnOpaqueFirstFrame(isInterlaced: Bool) throws {
    // Given a 16×11 GIF whose row y has colour y % 4, followed by a second, different frame
    let first = TestImages.GIFFrame(
      width: 16, height: 11, indices: (0..<176).map { UInt8($0 / 16 % 4) }, isInterlaced: isInterlaced)
    let second = TestImages.GIFFrame(width: 16, height: 11, indices: Array(repeating: 3, count: 176))
    let gif = TestImages.gif(
      screenWidth: 16, screenHeight: 11, palette: Self.palette, frames: [first, second])

    // When decoded
    let image = try decoder.decode(gif, options: DecodeOptions())

    // Then it is the first frame, rows in place, as RGB
    #expect(image.format == .gif && image.buffer.channels == 3)
    #expect(image.buffer.width == 16 && image.buffer.height == 11)
    for y in 0..<11 {
      let (r, g, b) = Self.palette[y % 4]
      #expect(TestImages.pixel(image.buffer, 7, y) == [r, g, b])
    }
  }

  @Test func honoursTheTransparentIndexAndFrameOffset() throws {
    // Given a 20×10 screen with an 8×4 frame at (6, 3) whose left half is the transparent index 2
    let indices = (0..<32).map { UInt8($0 % 8 < 4 ? 2 : 1) }
    let frame = TestImages.GIFFrame(
      left: 6, top: 3, width: 8, height: 4, indices: indices, transparentIndex: 2)
    let gif = TestImages.gif(screenWidth: 20, screenHeight: 10, palette: Self.palette, frames: [frame])

    // When decoded
    let image = try decoder.decode(gif, options: DecodeOptions())

    // Then the canvas is RGBA: transparent outside the frame and at the transparent index, green elsewhere
    #expect(image.buffer.channels == 4 && image.buffer.width == 20)
    #expect(TestImages.pixel(image.buffer, 0, 0)[3] == 0)
    #expect(TestImages.pixel(image.buffer, 7, 4)[3] == 0)
    #expect(TestImages.pixel(image.buffer, 12, 4) == [0, 255, 0, 255])
    #expect(TestImages.pixel(image.buffer, 12, 8)[3] == 0)
  }

  @Test(arguments: [false, true])
  func shrunkDecodeIsTheBoxShrinkOfTheFullCanvas(isInterlaced: Bool) throws {
    // Given a 61×45 GIF of a noisy index pattern (odd sides: partial blocks are dropped)
    let indices = (0..<(61 * 45)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) % 4 }
    let frame = TestImages.GIFFrame(width: 61, height: 45, indices: indices, isInterlaced: isInterlaced)
    let gif = TestImages.gif(screenWidth: 61, screenHeight: 45, palette: Self.palette, frames: [frame])

    // When decoded for a target a quarter of its size (headroom 1)
    var options = DecodeOptions(target: Size(width: 15, height: 11), fit: .contain)
    options.boxShrinkHeadroom = 1
    let shrunk = try decoder.decode(gif, options: options)

    // Then it is the resampler's box shrink of the full decode, and knows the full size
    let full = try decoder.decode(gif, options: DecodeOptions())
    #expect(shrunk.originalSize == Size(width: 61, height: 45))
    #expect(shrunk.buffer == BoxShrinker.shrink(full.buffer, by: 4))
  }

  @Test func shrunkDecodeKeepsTheFramesPlaceAndTransparency() throws {
    // Given a 40×40 screen with a 16×16 opaque green frame at (8, 16)
    let frame = TestImages.GIFFrame(
      left: 8, top: 16, width: 16, height: 16, indices: Array(repeating: 1, count: 256))
    let gif = TestImages.gif(screenWidth: 40, screenHeight: 40, palette: Self.palette, frames: [frame])

    // When shrunk by 8
    var options = DecodeOptions(target: Size(width: 5, height: 5), fit: .contain)
    options.boxShrinkHeadroom = 1
    let image = try decoder.decode(gif, options: options)

    // Then the frame's blocks are opaque green and the rest transparent
    #expect(image.buffer.width == 5 && image.buffer.channels == 4)
    #expect(TestImages.pixel(image.buffer, 1, 2) == [0, 255, 0, 255])
    #expect(TestImages.pixel(image.buffer, 2, 3) == [0, 255, 0, 255])
    #expect(TestImages.pixel(image.buffer, 0, 0)[3] == 0)
    #expect(TestImages.pixel(image.buffer, 3, 2)[3] == 0)
  }

  @Test func rejectsGarbageWithGiflibsMessage() {
    let garbage = Array("GIF89a".utf8) + [10, 0, 10, 0, 0x80, 0, 0] + [UInt8](repeating: 0x21, count: 40)
    #expect(TestImages.corruptionMessage(decoding: garbage, format: .gif)?.isEmpty == false)
  }

  @Test func reportsTruncatedDataAsCorrupt() {
    let indices = (0..<(64 * 64)).map { UInt8(truncatingIfNeeded: $0 &* 31 % 4) }
    let gif = TestImages.gif(
      screenWidth: 64, screenHeight: 64, palette: Self.palette,
      frames: [TestImages.GIFFrame(width: 64, height: 64, indices: indices)])
    #expect(
      TestImages.corruptionMessage(decoding: Array(gif.prefix(gif.count / 2)), format: .gif)?.isEmpty == false
    )
  }

  @Test func refusesABombFromTheScreenDescriptor() {
    // Given a 1×1 GIF whose screen descriptor claims 65535×65535
    var gif = TestImages.gif(
      screenWidth: 1, screenHeight: 1, palette: Self.palette,
      frames: [TestImages.GIFFrame(width: 1, height: 1, indices: [0])])
    gif.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])

    #expect(throws: ImageError.tooManyPixels(width: 65535, height: 65535, limit: 50_000_000)) {
      try decoder.decode(gif, options: DecodeOptions())
    }
  }

  @Test func refusesABombFromTheFrameDescriptor() {
    // Given a small screen whose frame claims 60000×60000
    let gif =
      Array("GIF89a".utf8) + [4, 0, 4, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
      + [0x2C, 0, 0, 0, 0, 0x60, 0xEA, 0x60, 0xEA, 0] + [2, 2, 0x4C, 0x01, 0, 0x3B]
    #expect(throws: ImageError.tooManyPixels(width: 60000, height: 60000, limit: 50_000_000)) {
      try decoder.decode(gif, options: DecodeOptions())
    }
  }
}
