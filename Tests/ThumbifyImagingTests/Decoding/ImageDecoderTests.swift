import Testing
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@Suite("Format sniffing and dispatch", .offThePool)
struct ImageDecoderTests {
  let decoder = ImageDecoder()

  /// An ISO-BMFF `ftyp` box with a major brand and compatible brands.
  static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
    let payload = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
    let size = 8 + payload.count
    return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + payload + [UInt8](repeating: 0, count: 32)
  }

  /// Formats told apart by their first bytes alone; of them only HEIC is not decoded.
  static let sniffed: [(String, [UInt8], ImageFormat)] = [
    ("svg", Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>".utf8), .svg),
    (
      "xml svg",
      Array("\u{FEFF}  <?xml version=\"1.0\"?>\n<!-- logo -->\n<SVG viewBox=\"0 0 1 1\"></SVG>".utf8), .svg
    ),
    ("avif", ftyp("avif", ["mif1", "miaf"]), .avif),
    ("avif by compatible brand", ftyp("mif1", ["avif", "miaf"]), .avif),
    ("heic", ftyp("heic", ["mif1", "heic"]), .heic),
    ("heif", ftyp("mif1", ["mif1", "heix"]), .heic),
  ]

  @Test(arguments: sniffed)
  func sniffsAndOnlyHEICIsUnsupported(name: String, bytes: [UInt8], format: ImageFormat) {
    #expect(ImageFormat(sniffing: bytes) == format)
    if format == .heic {
      #expect(throws: ImageError.unsupportedFormat(format)) {
        try decoder.decode(bytes, options: DecodeOptions())
      }
    } else {
      // SVG and AVIF reach their decoders (these stubs then decode, or fail as corrupt).
      do {
        _ = try decoder.decode(bytes, options: DecodeOptions())
      } catch {
        #expect(error.code == "undecodableImage", "\(error)")
      }
    }
  }

  @Test(arguments: [
    [], [0xFF], [0xFF, 0xD8], Array("<html><body>hello</body></html>".utf8),
    Array("<?xml version=\"1.0\"?><rss/>".utf8),
    Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8), Array("GIF88a".utf8), [0, 0, 1, 0, 0, 0],
    Array(ftyp("mp42", ["isom"])),
    Array("%PDF-1.7".utf8),
  ])
  func unknownBytesAreUnsupportedWithoutAFormat(bytes: [UInt8]) {
    #expect(ImageFormat(sniffing: bytes) == nil)
    #expect(throws: ImageError.unsupportedFormat(nil)) {
      try decoder.decode(bytes, options: DecodeOptions())
    }
  }

  @Test func theFormatComesFromTheBytesNotTheName() throws {
    // Given a PNG in a file named like a JPEG, the decoder never sees the name: it reports PNG
    let png = try TestImages.fixture("interlaced.png")
    #expect(try decoder.decode(png, options: DecodeOptions()).format == .png)
    #expect(ImageFormat(sniffing: try TestImages.fixture("cmyk-adobe.jpg")) == .jpeg)
    #expect(ImageFormat(sniffing: try TestImages.fixture("three-sizes.ico")) == .ico)
    #expect(ImageFormat(sniffing: try TestImages.fixture("mono-1.bmp")) == .bmp)
  }

  @Test func theByteLimitIsCheckedBeforeSniffing() {
    let bytes = [UInt8](repeating: 0, count: 2048)
    #expect(throws: ImageError.tooLarge(bytes: 2048, limit: 1024)) {
      try decoder.decode(bytes, options: DecodeOptions(maxBytes: 1024))
    }
  }

  @Test func aLowerPixelLimitIsHonoured() throws {
    let png = try TestImages.fixture("interlaced.png")
    #expect(throws: ImageError.tooManyPixels(width: 16, height: 16, limit: 255)) {
      try decoder.decode(png, options: DecodeOptions(maxPixels: 255))
    }
  }

  @Test func anOpaqueRGBADecodeIsReducedToRGB() throws {
    // Given an RGBA PNG whose alpha is 255 everywhere, and one with a single translucent pixel
    let opaque = (0..<16).flatMap { i -> [UInt8] in [UInt8(i * 16), 40, 80, 255] }
    var translucent = opaque
    translucent[7] = 254

    // Then the first comes back as RGB with the same colours, the second as RGBA
    let reduced = try decoder.decode(
      TestImages.png(opaque, width: 4, height: 4, format: 3), options: DecodeOptions())
    #expect(reduced.buffer.channels == 3)
    #expect(reduced.buffer.pixels == (0..<16).flatMap { i -> [UInt8] in [UInt8(i * 16), 40, 80] })
    let kept = try decoder.decode(
      TestImages.png(translucent, width: 4, height: 4, format: 3), options: DecodeOptions())
    #expect(kept.buffer.channels == 4 && kept.buffer.pixels == translucent)
  }

  @Test func decodesConcurrentlyWithIdenticalResults() async throws {
    // Given one file per decoder
    let photo = TestImages.rgb(width: 96, height: 64) { x, y in (UInt8(x * 2), UInt8(y * 3), UInt8(x ^ y)) }
    let files = try MalformedInputTests.samples().map(\.1) + [TestImages.jpeg(photo), TestImages.webp(photo)]
    let options = DecodeOptions(target: Size(width: 32, height: 32))
    let expected = try files.map { try decoder.decode($0, options: options).buffer }

    // When each is decoded eight times at once on the cooperative pool
    let results = await withTaskGroup(of: (Int, PixelBuffer?).self) { group in
      for _ in 0..<8 {
        for (index, file) in files.enumerated() {
          group.addTask { (index, try? ImageDecoder().decode(file, options: options).buffer) }
        }
      }
      return await group.reduce(into: [(Int, PixelBuffer?)]()) { $0.append($1) }
    }

    // Then every decode matches the sequential one
    #expect(results.count == files.count * 8)
    for (index, buffer) in results { #expect(buffer == expected[index]) }
  }
}
