import Testing
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

@Suite("ICO and CUR decoding", .offThePool)
struct ICODecoderTests {
  let decoder = ImageDecoder()

  @Test(
    arguments: [
      (nil, 48), (Size(width: 16, height: 16), 16), (Size(width: 20, height: 10), 32),
      (Size(width: 32, height: 32), 32),
      (Size(width: 64, height: 64), 48),
    ] as [(Size?, Int)])
  func picksTheBestPNGEntry(target: Size?, expectedSide: Int) throws {
    // Given Pillow's ICO with flat red 16, green 32 and half-transparent blue 48 px PNG entries
    let ico = try TestImages.fixture("three-sizes.ico")

    // When decoded for the target
    let image = try decoder.decode(ico, options: DecodeOptions(target: target))

    // Then the smallest entry at least as big as the target's larger side (else the largest) was chosen
    // (opaque entries come back as RGB)
    let colors: [Int: [UInt8]] = [16: [255, 0, 0], 32: [0, 255, 0], 48: [0, 0, 255, 128]]
    #expect(image.format == .ico && image.buffer.width == expectedSide && image.buffer.height == expectedSide)
    #expect(TestImages.pixel(image.buffer, 3, 3) == colors[expectedSide])
  }

  @Test func prefersTheDeeperEntryOfEqualSize() {
    let entries = [
      ICODecoder.Entry(size: Size(width: 32, height: 32), bitDepth: 8, offset: 0, length: 1, isPNG: false),
      ICODecoder.Entry(size: Size(width: 32, height: 32), bitDepth: 32, offset: 1, length: 1, isPNG: false),
      ICODecoder.Entry(size: Size(width: 16, height: 16), bitDepth: 32, offset: 2, length: 1, isPNG: false),
    ]
    #expect(ICODecoder.bestEntry(entries, target: Size(width: 24, height: 24))?.offset == 1)
    #expect(ICODecoder.bestEntry(entries, target: nil)?.offset == 1)
    #expect(ICODecoder.bestEntry(entries.reversed(), target: Size(width: 24, height: 24))?.offset == 1)
  }

  @Test func decodesPillows32BitBMPEntries() throws {
    // Given Pillow's ICO whose 32 px BMP entry is the 16×16 pattern doubled, alpha 16·y
    let image = try decoder.decode(try TestImages.fixture("bmp-entries.ico"), options: DecodeOptions())
    #expect(image.buffer.width == 32 && image.buffer.channels == 4)
    for (x, y) in [(0, 0), (9, 5), (31, 31)] {
      #expect(
        TestImages.pixel(image.buffer, x, y) == PNGDecoderTests.pattern(x / 2, y / 2) + [UInt8(16 * (y / 2))])
    }
  }

  @Test(arguments: [1, 2])
  func appliesTheANDMaskOfAPaletteEntry(type: Int) throws {
    // Given a 4×2 4-bit entry (red top row, blue bottom row) whose AND mask hides the top row's left half
    let xor: [UInt8] = [0x22, 0x22, 0, 0, 0x11, 0x11, 0, 0]  // bottom-up rows, padded to 4 bytes
    let and: [UInt8] = [0, 0, 0, 0, 0xC0, 0, 0, 0]  // bottom row opaque; top row bits 0–1 set
    let bitmap = TestImages.Bitmap(
      width: 4, height: 2, bitCount: 4, palette: [(0, 0, 0), (255, 0, 0), (0, 0, 255)], pixelData: xor + and)
    let ico = TestImages.ico([(4, 2, 4, bitmap.dib(heightField: 4))], type: type)

    // When decoded (as ICO, or as CUR whose depth fields are a hotspot)
    let image = try decoder.decode(ico, options: DecodeOptions())

    // Then it is RGBA with the masked pixels transparent
    #expect(image.format == (type == 1 ? .ico : .cur))
    #expect(image.buffer.channels == 4 && image.buffer.width == 4 && image.buffer.height == 2)
    #expect(TestImages.pixel(image.buffer, 0, 0)[3] == 0 && TestImages.pixel(image.buffer, 1, 0)[3] == 0)
    #expect(TestImages.pixel(image.buffer, 2, 0) == [255, 0, 0, 255])
    #expect(TestImages.pixel(image.buffer, 0, 1) == [0, 0, 255, 255])
  }

  @Test func rejectsGarbageEntries() {
    // Given a directory whose single DIB entry is noise
    let ico = TestImages.ico([(16, 16, 32, [UInt8](repeating: 0xA5, count: 40))])
    #expect(TestImages.corruptionMessage(decoding: ico, format: .ico)?.isEmpty == false)
  }

  @Test func refusesABombInAnEntry() {
    let bitmap = TestImages.Bitmap(width: 60000, height: 60000, bitCount: 32, pixelData: [0, 0, 0, 0])
    let ico = TestImages.ico([(0, 0, 32, bitmap.dib(heightField: 120_000))])
    #expect(throws: ImageError.tooManyPixels(width: 60000, height: 60000, limit: 50_000_000)) {
      try decoder.decode(ico, options: DecodeOptions())
    }
  }

  @Test func reportsATruncatedFileAsCorrupt() throws {
    let ico = try TestImages.fixture("three-sizes.ico")
    let truncated = Array(ico.prefix(ico.count - 40))
    #expect(
      throws: ImageError.corrupt(
        format: .ico, message: "Icon entry 3 of 3 claims 139 bytes at offset 244, outside the 343-byte file.")
    ) {
      try decoder.decode(truncated, options: DecodeOptions())
    }
  }

  @Test func reportsACorruptPNGEntryWithLibpngsMessage() throws {
    // Given an ICO whose only entry is a PNG signature followed by noise
    let entry = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0x33, count: 40)
    #expect(
      TestImages.corruptionMessage(decoding: TestImages.ico([(16, 16, 32, entry)]), format: .png)?.isEmpty
        == false)
  }
}

@Suite("ICO entries with extreme header fields", .offThePool)
struct ICOExtremeHeaderTests {
  /// The 1 KB ICO: one BMP entry whose BITMAPINFOHEADER says `width` × `height`.
  static func ico(width: Int32, height: Int32) -> [UInt8] {
    var dib = TestImages.le32(40) + TestImages.le32(Int(UInt32(bitPattern: width)))
    dib += TestImages.le32(Int(UInt32(bitPattern: height))) + TestImages.le16(1) + TestImages.le16(32)
    dib += [UInt8](repeating: 0, count: 24) + [UInt8](repeating: 0, count: 1024)
    return TestImages.ico([(16, 16, 32, dib)])
  }

  @Test(
    arguments: [
      (16, Int32.min), (Int32.min, 16), (Int32.min, Int32.min), (16, Int32.max), (Int32.max, Int32.max),
      (-16, 16), (0, 16),
    ] as [(Int32, Int32)])
  func isATypedErrorNotACrash(width: Int32, height: Int32) {
    // Given an icon whose bitmap header holds an extreme width or height (abs(INT_MIN) used to trap)
    let ico = Self.ico(width: width, height: height)

    // When decoded, with and without a target
    // Then each is a typed image error
    for target in [nil, Size(width: 64, height: 64)] {
      #expect(throws: ImageError.self) {
        _ = try ImageDecoder().decode(ico, options: DecodeOptions(target: target))
      }
    }
  }
}
