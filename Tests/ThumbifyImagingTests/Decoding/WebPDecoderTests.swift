import Testing
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@Suite("WebP decoding", .offThePool)
struct WebPDecoderTests {
  let decoder = ImageDecoder()
  let quadrants = TestImages.quadrants(width: 64, height: 32, colors: TestImages.quadrantColors)

  @Test func decodesLossyRGB() throws {
    let image = try decoder.decode(TestImages.webp(quadrants), options: DecodeOptions())
    #expect(image.format == .webp && image.buffer.channels == 3)
    #expect(image.buffer.width == 64 && image.buffer.height == 32)
    for (index, (x, y)) in [(8, 8), (56, 8), (8, 24), (56, 24)].enumerated() {
      let (r, g, b) = TestImages.quadrantColors[index]
      #expect(TestImages.isClose(TestImages.pixel(image.buffer, x, y), [r, g, b], tolerance: 12))
    }
  }

  @Test(arguments: [true, false])
  func decodesAlphaStraight(isLossless: Bool) throws {
    // Given an RGBA image whose right half is 25% opaque orange
    let pixels = (0..<(32 * 16)).flatMap { i -> [UInt8] in
      i % 32 < 16 ? [0, 90, 200, 255] : [250, 120, 10, 64]
    }
    let source = PixelBuffer(width: 32, height: 16, channels: 4, pixels: pixels)

    // When it round-trips through libwebp
    let image = try decoder.decode(TestImages.webp(source, isLossless: isLossless), options: DecodeOptions())

    // Then the alpha survives and colour is not premultiplied
    #expect(image.buffer.channels == 4)
    let tolerance = isLossless ? 0 : 12
    #expect(
      TestImages.isClose(TestImages.pixel(image.buffer, 4, 8), [0, 90, 200, 255], tolerance: tolerance))
    #expect(
      TestImages.isClose(TestImages.pixel(image.buffer, 28, 8), [250, 120, 10, 64], tolerance: tolerance))
  }

  @Test func shrinksOnLoadWithTheScaledDecode() throws {
    // Given a 1200×630 WebP
    let big = TestImages.rgb(width: 1200, height: 630) { x, _ in (UInt8(x / 5 % 256), 128, 60) }
    let webp = TestImages.webp(big, quality: 50)

    // When decoded for a 64×64 cover icon (needs 122×64)
    let image = try decoder.decode(
      webp, options: DecodeOptions(target: Size(width: 64, height: 64), fit: .cover))

    // Then libwebp scaled it to that size and the ramp is intact
    #expect(image.buffer.width == 122 && image.buffer.height == 64)
    #expect(image.originalSize == Size(width: 1200, height: 630))
    #expect(TestImages.isClose(TestImages.pixel(image.buffer, 61, 32), [120, 128, 60], tolerance: 10))
  }

  @Test(arguments: [6, 3])
  func appliesTheEXIFChunksOrientation(orientation: Int) throws {
    // Given the quadrant picture stored rotated, in an extended WebP with an EXIF chunk
    let webp = TestImages.webpWithExifOrientation(TestImages.storedPicture(orientation), orientation)

    // When decoded, then it is upright
    let image = try decoder.decode(webp, options: DecodeOptions())
    #expect(image.buffer.width == 64 && image.buffer.height == 32)
    for (index, (x, y)) in [(8, 8), (56, 8), (8, 24), (56, 24)].enumerated() {
      let (r, g, b) = TestImages.quadrantColors[index]
      #expect(TestImages.isClose(TestImages.pixel(image.buffer, x, y), [r, g, b], tolerance: 12))
    }
  }

  @Test(arguments: [true, false])
  func decodesTheFirstFrameOfAnAnimation(isLossless: Bool) throws {
    // Given a 40×20 animation whose first frame is a 20×10 red patch at (10, 4), half of it
    // translucent, and whose second frame is all blue; frames are VP8L, or ALPH + VP8 when lossy
    let red = PixelBuffer(
      width: 20, height: 10, channels: 4,
      pixels: (0..<200).flatMap { i -> [UInt8] in [255, 0, 0, i % 20 < 10 ? 255 : 128] })
    let blue = PixelBuffer(
      width: 40, height: 20, channels: 4,
      pixels: Array(repeating: [0, 0, 255, 255], count: 800).flatMap { $0 })
    func frame(_ buffer: PixelBuffer, x: Int, y: Int) -> [UInt8] {
      let header =
        Array(TestImages.le32(x / 2).prefix(3)) + Array(TestImages.le32(y / 2).prefix(3))
        + Array(TestImages.le32(buffer.width - 1).prefix(3))
        + Array(TestImages.le32(buffer.height - 1).prefix(3))
        + [100, 0, 0, 0]
      var chunks = TestImages.webpChunks(TestImages.webp(buffer, isLossless: isLossless))
      if chunks.starts(with: Array("VP8X".utf8)) { chunks.removeFirst(18) }  // a frame holds no VP8X
      return TestImages.riffChunk("ANMF", header + chunks)
    }
    let webp = TestImages.webpFile(
      TestImages.vp8x(flags: 0x02 | 0x10, width: 40, height: 20)
        + TestImages.riffChunk("ANIM", [0, 0, 0, 0, 0, 0])
        + frame(red, x: 10, y: 4) + frame(blue, x: 0, y: 0))

    // When decoded
    let image = try decoder.decode(webp, options: DecodeOptions())

    // Then the canvas shows the first frame on transparency
    #expect(image.buffer.width == 40 && image.buffer.height == 20 && image.buffer.channels == 4)
    let tolerance = isLossless ? 0 : 12
    #expect(
      TestImages.isClose(TestImages.pixel(image.buffer, 13, 8), [255, 0, 0, 255], tolerance: tolerance))
    #expect(
      TestImages.isClose(TestImages.pixel(image.buffer, 26, 8), [255, 0, 0, 128], tolerance: tolerance))
    #expect(TestImages.pixel(image.buffer, 2, 2)[3] == 0)
    #expect(TestImages.pixel(image.buffer, 35, 18)[3] == 0)
  }

  @Test func rejectsAnAnimationFrameShorterThanItsHeader() {
    // Given an animation whose first ANMF chunk has 12 of its 16 header bytes: the frame's size
    // (1×1) reads, and the bitstream after the header began past the chunk's end (a range trap)
    let webp = TestImages.webpFile(
      TestImages.vp8x(flags: 0x02, width: 4, height: 4) + TestImages.riffChunk("ANIM", [0, 0, 0, 0, 0, 0])
        + TestImages.riffChunk("ANMF", [UInt8](repeating: 0, count: 12)))

    // Then it is corrupt
    let message = TestImages.corruptionMessage(decoding: webp, format: .webp) ?? ""
    #expect(message.contains("ends before"))
  }

  @Test func rejectsGarbage() {
    let garbage =
      Array("RIFF".utf8) + [60, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [UInt8](repeating: 0x5A, count: 52)
    let message = TestImages.corruptionMessage(decoding: garbage, format: .webp) ?? ""
    #expect(message.contains("VP8_STATUS"))
  }

  @Test(arguments: [false, true])
  func reportsTruncatedDataAsCorrupt(isLossless: Bool) {
    let noisy = TestImages.rgb(width: 128, height: 128) { x, y in
      (UInt8(x * 7 % 256), UInt8(y * 13 % 256), UInt8((x * y) % 256))
    }
    let webp = TestImages.webp(noisy, isLossless: isLossless)
    #expect(
      throws: ImageError.corrupt(
        format: .webp, message: "libwebp returned VP8_STATUS_NOT_ENOUGH_DATA (the data is truncated).")
    ) {
      try decoder.decode(Array(webp.prefix(webp.count / 2)), options: DecodeOptions())
    }
  }

  @Test func refusesABombFromItsHeader() {
    // Given a lossy WebP whose VP8 frame header is patched to claim 16383×16383
    var webp = TestImages.webp(TestImages.rgb(width: 16, height: 16) { _, _ in (5, 5, 5) })
    webp.replaceSubrange(26..<30, with: [0xFF, 0x3F, 0xFF, 0x3F])

    #expect(throws: ImageError.tooManyPixels(width: 16383, height: 16383, limit: 50_000_000)) {
      try decoder.decode(webp, options: DecodeOptions())
    }
  }
}
