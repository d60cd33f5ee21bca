import CPNG
import Foundation
import Testing
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@Suite("PNG decoding", .offThePool)
struct PNGDecoderTests {
  let decoder = ImageDecoder()

  /// The pattern make-fixtures.py draws: red = 8x, green = 8y, blue = 255 − 4(x + y).
  static func pattern(_ x: Int, _ y: Int) -> [UInt8] {
    [UInt8(x * 8 % 256), UInt8(y * 8 % 256), UInt8((255 - 4 * (x + y)) % 256)]
  }

  @Test func decodesRGBAWithStraightAlpha() throws {
    // Given an 8×4 RGBA PNG whose alpha falls from left to right
    let samples = (0..<32).flatMap { i -> [UInt8] in [200, 100, 50, UInt8(255 - (i % 8) * 32)] }
    let png = TestImages.png(samples, width: 8, height: 4, format: 3)

    // When decoded
    let image = try decoder.decode(png, options: DecodeOptions())

    // Then it is RGBA with the colour untouched by the alpha (not premultiplied)
    #expect(image.format == .png && image.buffer.channels == 4)
    #expect(image.buffer.pixels == samples)
  }

  @Test func decodesGrayToRGB() throws {
    let gray = (0..<64).map { UInt8($0 * 4) }
    let image = try decoder.decode(
      TestImages.png(gray, width: 8, height: 8, format: 0), options: DecodeOptions())
    #expect(image.buffer.channels == 3)
    #expect(image.buffer.pixels == gray.flatMap { [$0, $0, $0] })
  }

  @Test func decodesPaletteWithTRNSToRGBA() throws {
    // Given an 8-bit palette PNG whose second entry is half transparent
    let colormap: [UInt8] = [255, 0, 0, 255, 0, 0, 255, 128]
    let indices = (0..<16).map { UInt8($0 % 2) }
    let png = TestImages.png(
      indices, width: 4, height: 4, format: UInt32(PNG_FORMAT_FLAG_COLORMAP | 3), colormap: colormap)

    // When decoded, then the palette and its transparency are expanded
    let image = try decoder.decode(png, options: DecodeOptions())
    #expect(image.buffer.channels == 4)
    #expect(TestImages.pixel(image.buffer, 0, 0) == [255, 0, 0, 255])
    #expect(TestImages.pixel(image.buffer, 1, 0) == [0, 0, 255, 128])
  }

  @Test func decodesAnInterlacedPNG() throws {
    let image = try decoder.decode(try TestImages.fixture("interlaced.png"), options: DecodeOptions())
    #expect(image.buffer.width == 16 && image.buffer.channels == 3)
    for (x, y) in [(0, 0), (5, 3), (15, 15), (7, 12)] {
      #expect(TestImages.pixel(image.buffer, x, y) == Self.pattern(x, y))
    }
  }

  @Test(arguments: ["rgb16.png", "rgb16-interlaced.png"])
  func decodes16BitSamplesAsSRGB(name: String) throws {
    // Given a 16-bit PNG without gAMA whose samples are v·257
    let image = try decoder.decode(try TestImages.fixture(name), options: DecodeOptions())

    // Then the 8-bit output is v (no linear-light reinterpretation)
    #expect(image.buffer.channels == 3)
    for y in 0..<16 {
      for x in 0..<16 { #expect(TestImages.pixel(image.buffer, x, y) == Self.pattern(x, y)) }
    }
  }

  @Test(arguments: ["gray-alpha16.png", "gray-alpha16-interlaced.png"])
  func decodes16BitGrayAlpha(name: String) throws {
    // Given gray = 16x, alpha = 16y (row 0 fully transparent, so its colour is undefined)
    let image = try decoder.decode(try TestImages.fixture(name), options: DecodeOptions())
    #expect(image.buffer.channels == 4)
    for y in 1..<16 {
      for x in 0..<16 {
        let g = UInt8(x * 16)
        #expect(TestImages.pixel(image.buffer, x, y) == [g, g, g, UInt8(y * 16)])
      }
    }
    #expect((0..<16).allSatisfy { TestImages.pixel(image.buffer, $0, 0)[3] == 0 })
  }

  @Test func decodes2BitPaletteWithTRNS() throws {
    // Given make-fixtures.py's 8×8 2-bit palette: index (x + y) % 4 into red, green, blue (alpha 128), yellow (alpha 0)
    let image = try decoder.decode(try TestImages.fixture("palette2-trns.png"), options: DecodeOptions())
    let palette: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 128], [255, 255, 0, 0]]
    for y in 0..<8 {
      for x in 0..<8 { #expect(TestImages.pixel(image.buffer, x, y) == palette[(x + y) % 4]) }
    }
  }

  @Test func rejectsGarbageWithLibpngsMessage() {
    let garbage: [UInt8] =
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0x41, count: 64)
    let message = TestImages.corruptionMessage(decoding: garbage, format: .png) ?? ""
    #expect(!message.isEmpty && message != "libpng reported no message.")
  }

  @Test func reportsTruncatedDataAsCorrupt() {
    let samples = (0..<(64 * 64 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
    let png = TestImages.png(samples, width: 64, height: 64, format: 2)
    #expect(
      TestImages.corruptionMessage(decoding: Array(png.prefix(png.count * 2 / 3)), format: .png)?.isEmpty
        == false)
  }

  @Test func refusesABombFromItsHeader() {
    // Given a tiny PNG whose IHDR claims 100000×100000 (CRC fixed so libpng accepts the header)
    var png = TestImages.png([0, 0, 0], width: 1, height: 1, format: 2)
    png = TestImages.patchingBigEndian(png, at: 16, 100_000)
    png = TestImages.patchingBigEndian(png, at: 20, 100_000)
    png = TestImages.patchingBigEndian(png, at: 29, crc32(png[12..<29]))

    // Then the pixel limit trips before the 30 GB buffer would be allocated
    #expect(throws: ImageError.tooManyPixels(width: 100_000, height: 100_000, limit: 50_000_000)) {
      try decoder.decode(png, options: DecodeOptions())
    }
  }

  /// The CRC-32 PNG chunks use.
  private func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
