import Testing
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@Suite("BMP decoding", .offThePool)
struct BMPDecoderTests {
  let decoder = ImageDecoder()

  @Test(arguments: ["pattern-24.bmp", "rgba-32.bmp"])
  func decodesPillowsTrueColourBitmaps(name: String) throws {
    let image = try decoder.decode(try TestImages.fixture(name), options: DecodeOptions())
    #expect(image.format == .bmp && image.buffer.width == 16 && image.buffer.height == 16)
    let hasAlpha = name.hasPrefix("rgba")
    #expect(image.buffer.channels == (hasAlpha ? 4 : 3))
    for y in 0..<16 {
      for x in 0..<16 {
        let expected = PNGDecoderTests.pattern(x, y) + (hasAlpha ? [UInt8(16 * y)] : [])
        #expect(TestImages.pixel(image.buffer, x, y) == expected)
      }
    }
  }

  @Test func decodesPillowsPaletteAndMonochromeBitmaps() throws {
    let palette: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0]]
    let paletted = try decoder.decode(try TestImages.fixture("palette-8.bmp"), options: DecodeOptions())
    let mono = try decoder.decode(try TestImages.fixture("mono-1.bmp"), options: DecodeOptions())
    for y in 0..<16 {
      for x in 0..<16 {
        #expect(TestImages.pixel(paletted.buffer, x, y) == palette[(x + y) % 4])
        #expect(TestImages.pixel(mono.buffer, x, y) == ((x + y) % 2 == 0 ? [255, 255, 255] : [0, 0, 0]))
      }
    }
  }

  @Test func decodesTopDownRowsAndCoreHeaders() throws {
    // Given 2×2 24-bit bitmaps listing red, green / blue, white from the top: one top-down, one core-header bottom-up
    let topRows: [UInt8] = [0, 0, 255, 0, 255, 0, 0, 0]
    let bottomRows: [UInt8] = [255, 0, 0, 255, 255, 255, 0, 0]
    let topDown = TestImages.Bitmap(
      width: 2, height: 2, bitCount: 24, isTopDown: true, pixelData: topRows + bottomRows)
    let core = TestImages.Bitmap(
      width: 2, height: 2, bitCount: 24, headerSize: 12, pixelData: bottomRows + topRows)

    for bitmap in [topDown, core] {
      let image = try decoder.decode(bitmap.file, options: DecodeOptions())
      #expect(image.buffer.pixels == [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])
    }
  }

  @Test func decodes16BitRGB565Bitfields() throws {
    // Given one 565 row: pure red, pure green, pure blue, and (16, 32, 16) of 31/63/31 → mid gray
    let pixels: [UInt16] = [0xF800, 0x07E0, 0x001F, 0x8410]
    let bitmap = TestImages.Bitmap(
      width: 4, height: 1, bitCount: 16, compression: 3, masks: [0xF800, 0x07E0, 0x001F],
      pixelData: pixels.flatMap { TestImages.le16(Int($0)) })
    let image = try decoder.decode(bitmap.file, options: DecodeOptions())
    #expect(image.buffer.pixels == [255, 0, 0, 0, 255, 0, 0, 0, 255, 132, 130, 132])
  }

  @Test func decodesV5AlphaBitfields() throws {
    // Given a V5 header whose masks put alpha in the top byte (ARGB)
    let bitmap = TestImages.Bitmap(
      width: 2, height: 1, bitCount: 32, headerSize: 124, compression: 3,
      masks: [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000],
      pixelData: [30, 20, 10, 128, 60, 50, 40, 255])
    let image = try decoder.decode(bitmap.file, options: DecodeOptions())
    #expect(image.buffer.channels == 4)
    #expect(image.buffer.pixels == [10, 20, 30, 128, 40, 50, 60, 255])
  }

  @Test func treatsAnAllZeroAlphaByteAsOpaque() throws {
    let bitmap = TestImages.Bitmap(width: 2, height: 1, bitCount: 32, pixelData: [1, 2, 3, 0, 4, 5, 6, 0])
    let image = try decoder.decode(bitmap.file, options: DecodeOptions())
    #expect(image.buffer.channels == 3 && image.buffer.pixels == [3, 2, 1, 6, 5, 4])
  }

  @Test func decodesRLE8AndRLE4WithSkippedPixelsTransparent() throws {
    let palette: [(UInt8, UInt8, UInt8)] = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)]
    // 4×2, bottom row first: run of 3 × index 1, end of line; top row: literal [2, 3, 1], then end of bitmap
    let rle8 = TestImages.Bitmap(
      width: 4, height: 2, bitCount: 8, compression: 1, palette: palette,
      pixelData: [3, 1, 0, 0, 0, 3, 2, 3, 1, 0, 0, 1])
    // RLE4: same picture; the run alternates nibbles 1,1,1 and the literal is nibbles 2,3,1
    let rle4 = TestImages.Bitmap(
      width: 4, height: 2, bitCount: 4, compression: 2, palette: palette,
      pixelData: [3, 0x11, 0, 0, 0, 3, 0x23, 0x10, 0, 1])
    for bitmap in [rle8, rle4] {
      let image = try decoder.decode(bitmap.file, options: DecodeOptions())
      #expect(image.buffer.channels == 4)
      #expect(TestImages.pixel(image.buffer, 0, 0) == [0, 255, 0, 255])
      #expect(TestImages.pixel(image.buffer, 1, 0) == [0, 0, 255, 255])
      #expect(TestImages.pixel(image.buffer, 2, 0) == [255, 0, 0, 255])
      #expect(TestImages.pixel(image.buffer, 3, 0)[3] == 0)
      #expect(TestImages.pixel(image.buffer, 0, 1) == [255, 0, 0, 255])
      #expect(TestImages.pixel(image.buffer, 3, 1)[3] == 0)
    }
  }

  @Test func rejectsGarbage() {
    let garbage = Array("BM".utf8) + [UInt8](repeating: 0xEE, count: 60)
    #expect(throws: ImageError.self) {
      try decoder.decode(garbage, options: DecodeOptions())
    }
  }

  @Test func reportsTruncatedPixelsAsCorrupt() throws {
    let bmp = try TestImages.fixture("pattern-24.bmp")
    let message =
      TestImages.corruptionMessage(decoding: Array(bmp.prefix(bmp.count - 100)), format: .bmp) ?? ""
    #expect(message.contains("truncated"))
  }

  @Test func refusesABombFromItsHeader() {
    let bitmap = TestImages.Bitmap(width: 100_000, height: 100_000, bitCount: 24, pixelData: [0, 0, 0, 0])
    #expect(throws: ImageError.tooManyPixels(width: 100_000, height: 100_000, limit: 50_000_000)) {
      try decoder.decode(bitmap.file, options: DecodeOptions())
    }
  }

  @Test func rejectsABitfieldMaskWithAGap() {
    // Given a 16-bit bitfields bitmap whose red mask 0x0F0F is two runs of bits: read as a 4-bit
    // channel, its pixel 0xFFFF gave (0x0F0F · 255 + 7) / 15 = 65535 and trapped in UInt8(…)
    let bitmap = TestImages.Bitmap(
      width: 1, height: 1, bitCount: 16, compression: 3, masks: [0x0F0F, 0x00F0, 0xF000],
      pixelData: [0xFF, 0xFF, 0, 0])

    // Then it is corrupt, as Chromium's BMP decoder calls a mask that is not one run of bits
    let message = TestImages.corruptionMessage(decoding: bitmap.file, format: .bmp) ?? ""
    #expect(message == "The colour mask 0xF0F is not one run of bits.")
  }

  @Test func reportsJPEGCompressionAsUnsupported() {
    let bitmap = TestImages.Bitmap(
      width: 2, height: 2, bitCount: 24, compression: 4, pixelData: [0xFF, 0xD8])
    #expect(throws: ImageError.unsupportedFormat(.bmp)) {
      try decoder.decode(bitmap.file, options: DecodeOptions())
    }
  }
}
