import CTurboJPEG
import Testing
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@Suite("JPEG decoding", .offThePool)
struct JPEGDecoderTests {
  let decoder = ImageDecoder()

  @Test(arguments: [false, true])
  func decodesBaselineAndProgressiveWithTheirColours(isProgressive: Bool) throws {
    // Given a 64×32 JPEG with four coloured quadrants
    let source = TestImages.quadrants(width: 64, height: 32, colors: TestImages.quadrantColors)
    let jpeg = TestImages.jpeg(source, isProgressive: isProgressive)

    // When it is decoded at full size
    let image = try decoder.decode(jpeg, options: DecodeOptions())

    // Then the size, format and quadrant colours survive
    #expect(image.format == .jpeg)
    #expect(image.buffer.width == 64 && image.buffer.height == 32 && image.buffer.channels == 3)
    #expect(image.originalSize == Size(width: 64, height: 32))
    for (index, (x, y)) in [(8, 8), (56, 8), (8, 24), (56, 24)].enumerated() {
      let (r, g, b) = TestImages.quadrantColors[index]
      #expect(TestImages.isClose(TestImages.pixel(image.buffer, x, y), [r, g, b], tolerance: 6))
    }
  }

  @Test func decodesGrayscaleToRGB() throws {
    // Given a gray ramp compressed as a one-component JPEG
    let gray = (0..<(32 * 16)).map { UInt8(($0 % 32) * 8) }
    let jpeg = TestImages.jpeg(gray, width: 32, height: 16, pixelFormat: TJPF_GRAY, subsampling: TJSAMP_GRAY)

    // When it is decoded
    let image = try decoder.decode(jpeg, options: DecodeOptions())

    // Then every pixel is an RGB gray close to the source
    #expect(image.buffer.channels == 3)
    for x in [0, 10, 31] {
      let pixel = TestImages.pixel(image.buffer, x, 5)
      #expect(pixel[0] == pixel[1] && pixel[1] == pixel[2])
      #expect(TestImages.isClose([pixel[0]], [UInt8(x * 8)], tolerance: 4))
    }
  }

  @Test func rejectsGarbageWithTurboJPEGsMessage() {
    // Given bytes that start like a JPEG and then are noise
    let garbage: [UInt8] = [0xFF, 0xD8, 0xFF] + (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) }

    // Then decoding throws a corrupt error carrying the library's text
    #expect(TestImages.corruptionMessage(decoding: garbage, format: .jpeg)?.isEmpty == false)
  }

  @Test func reportsTruncatedDataAsCorrupt() {
    // Given a JPEG cut in the middle of its entropy-coded data
    let jpeg = TestImages.jpeg(
      TestImages.rgb(width: 256, height: 256) { x, y in (UInt8(x), UInt8(y), UInt8(x ^ y)) })
    let truncated = Array(jpeg[0..<(jpeg.count / 2)])

    // Then the decoder reports libjpeg's warning as corruption, in libjpeg's words
    let message = "Corrupt JPEG data: premature end of data segment"
    #expect(throws: ImageError.corrupt(format: .jpeg, message: message)) {
      try decoder.decode(truncated, options: DecodeOptions())
    }
  }

  @Test(arguments: [false, true])
  func decodesAFileMissingOnlyItsEndMarker(isProgressive: Bool) throws {
    // Given a JPEG whose final FF D9 was cut off (browsers show such files)
    let source = TestImages.quadrants(width: 64, height: 32, colors: TestImages.quadrantColors)
    let jpeg = TestImages.jpeg(source, isProgressive: isProgressive)

    // When decoded, then it is the whole picture
    let image = try decoder.decode(Array(jpeg.dropLast(2)), options: DecodeOptions())
    #expect(TestImages.isClose(TestImages.pixel(image.buffer, 56, 24), [255, 255, 255], tolerance: 6))
  }

  @Test(arguments: [false, true], [3, 40])
  func reportsDataCutInsideAScanAsCorrupt(isProgressive: Bool, cut: Int) {
    let photo = TestImages.rgb(width: 128, height: 128) { x, y in (UInt8(x * 2), UInt8(y * 2), UInt8(x ^ y)) }
    let jpeg = TestImages.jpeg(photo, isProgressive: isProgressive)
    let message = TestImages.corruptionMessage(decoding: Array(jpeg.dropLast(cut)), format: .jpeg) ?? ""
    #expect(message.lowercased().contains("premature end"))
  }

  @Test func reportsDataEndingBeforeTheFrameHeader() {
    let jpeg = TestImages.jpeg(TestImages.rgb(width: 16, height: 16) { _, _ in (1, 2, 3) })
    #expect(
      throws: ImageError.corrupt(format: .jpeg, message: "The data ends before the JPEG frame header (SOF).")
    ) {
      try decoder.decode(Array(jpeg.prefix(30)), options: DecodeOptions())
    }
  }

  @Test func refusesAHeaderClaimingTooManyPixelsBeforeDecoding() {
    // Given a real JPEG whose SOF header is patched to claim 60000×60000
    var jpeg = TestImages.jpeg(TestImages.rgb(width: 16, height: 16) { _, _ in (1, 2, 3) })
    guard let sof = (2..<jpeg.count - 1).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }) else {
      Issue.record("no SOF0 marker")
      return
    }
    jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0xEA, 0x60, 0xEA, 0x60])

    // Then the limit trips from the header alone
    #expect(throws: ImageError.tooManyPixels(width: 60000, height: 60000, limit: 50_000_000)) {
      try decoder.decode(jpeg, options: DecodeOptions())
    }
  }

  @Test func enforcesTheByteLimitFirst() {
    let jpeg = TestImages.jpeg(TestImages.rgb(width: 16, height: 16) { _, _ in (1, 2, 3) })
    #expect(throws: ImageError.tooLarge(bytes: jpeg.count, limit: 100)) {
      try decoder.decode(jpeg, options: DecodeOptions(maxBytes: 100))
    }
  }
}
