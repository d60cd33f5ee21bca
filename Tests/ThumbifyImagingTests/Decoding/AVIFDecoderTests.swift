import Foundation
import Testing
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

/// AVIF input: the fixtures are made by `Fixtures/make-avif-fixtures.sh` (avifenc) from a 32×16
/// quadrant picture (red, green / blue, white), near-lossless, so colours are checked closely.
@Suite("AVIF decoding", .offThePool)
struct AVIFDecoderTests {
  let decoder = ImageDecoder()
  let red: [UInt8] = [255, 0, 0]
  let green: [UInt8] = [0, 255, 0]
  let blue: [UInt8] = [0, 0, 255]
  let white: [UInt8] = [255, 255, 255]

  /// The colours at the four quadrants' centres of `buffer`, RGB only.
  func corners(_ buffer: PixelBuffer) -> [[UInt8]] {
    let (w, h) = (buffer.width, buffer.height)
    return [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)].map {
      Array(TestImages.pixel(buffer, $0.0, $0.1).prefix(3))
    }
  }

  func expectClose(_ actual: [[UInt8]], _ expected: [[UInt8]], tolerance: Int = 8) {
    for (a, e) in zip(actual, expected) {
      #expect(TestImages.isClose(a, e, tolerance: tolerance), "\(a) is not \(e)")
    }
  }

  @Test(arguments: ["avif-8bit.avif", "avif-10bit.avif", "avif-12bit.avif", "avif-8bit-420.avif"])
  func decodesOpaqueDepthsToEightBitRGB(_ name: String) throws {
    let bytes = try TestImages.fixture(name)
    #expect(ImageFormat(sniffing: bytes) == .avif)
    let image = try decoder.decode(bytes, options: DecodeOptions())
    #expect(image.format == .avif && image.buffer.channels == 3)
    #expect(image.buffer.width == 32 && image.buffer.height == 16)
    #expect(image.originalSize == Size(width: 32, height: 16))
    expectClose(corners(image.buffer), [red, green, blue, white], tolerance: name.contains("420") ? 40 : 8)
  }

  @Test(arguments: ["avif-8bit-alpha.avif", "avif-10bit-alpha.avif"])
  func decodesAlphaStraight(_ name: String) throws {
    let image = try decoder.decode(TestImages.fixture(name), options: DecodeOptions())
    #expect(image.buffer.channels == 4)
    // The right half is 25 % opaque and not premultiplied: green and white keep their colour.
    let right = TestImages.pixel(image.buffer, 24, 4)
    #expect(TestImages.isClose(right, green + [64], tolerance: 8), "\(right)")
    let left = TestImages.pixel(image.buffer, 8, 12)
    #expect(TestImages.isClose(left, blue + [255], tolerance: 8), "\(left)")
  }

  @Test(arguments: [
    // irot 1 turns counter-clockwise: the top right (green) comes to the top left.
    ("avif-irot1.avif", Size(width: 16, height: 32), 1),
    // imir 0 swaps top and bottom.
    ("avif-imir0.avif", Size(width: 32, height: 16), 2),
    // irot 1, then imir 1 swaps left and right.
    ("avif-irot1-imir1.avif", Size(width: 16, height: 32), 3),
  ])
  func appliesIrotAndImirOnce(_ name: String, upright: Size, layout: Int) throws {
    let image = try decoder.decode(TestImages.fixture(name), options: DecodeOptions())
    #expect(Size(width: image.buffer.width, height: image.buffer.height) == upright)
    #expect(image.originalSize == upright)
    let expected: [[[UInt8]]] = [
      [], [green, white, red, blue], [blue, white, red, green], [white, green, blue, red],
    ]
    expectClose(corners(image.buffer), expected[layout])
  }

  @Test func orientationTableMatchesTheExifCases() {
    #expect(AVIFDecoder.orientation(angle: 0, mirror: nil) == .up)
    #expect(AVIFDecoder.orientation(angle: 3, mirror: nil) == .right)
    #expect(AVIFDecoder.orientation(angle: 0, mirror: 1) == .upMirrored)
    #expect(AVIFDecoder.orientation(angle: 0, mirror: 0) == .downMirrored)
    #expect(AVIFDecoder.orientation(angle: 2, mirror: 1) == .downMirrored)
    #expect(AVIFDecoder.orientation(angle: 1, mirror: 1) == .rightMirrored)
    #expect(AVIFDecoder.orientation(angle: 3, mirror: 1) == .leftMirrored)
  }

  @Test func refusesMorePixelsThanTheLimitFromTheHeader() throws {
    let bytes = try TestImages.fixture("avif-8bit.avif")
    #expect(throws: ImageError.tooManyPixels(width: 32, height: 16, limit: 511)) {
      try decoder.decode(bytes, options: DecodeOptions(maxPixels: 511))
    }
    #expect(try decoder.decode(bytes, options: DecodeOptions(maxPixels: 512)).buffer.width == 32)
  }

  @Test(arguments: ["avif-8bit.avif", "avif-10bit-alpha.avif"])
  func truncatedInputIsCorruptNeverACrash(_ name: String) throws {
    let bytes = try TestImages.fixture(name)
    for length in stride(from: 24, to: bytes.count, by: 7) {
      let prefix = Array(bytes.prefix(length))
      guard ImageFormat(sniffing: prefix) == .avif else { continue }
      #expect(TestImages.corruptionMessage(decoding: prefix, format: .avif) != nil, "\(length) bytes")
    }
  }

  @Test func garbageAfterAnAVIFBrandIsCorrupt() {
    var rng = SplitMix(seed: 20)
    let ftyp: [UInt8] = [0, 0, 0, 0x14] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("mif1".utf8)
    for _ in 0..<20 {
      let garbage = ftyp + (0..<300).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      let message = TestImages.corruptionMessage(decoding: garbage, format: .avif)
      #expect(message?.contains("libavif returned") == true, "\(message ?? "no error")")
    }
  }

  @Test func sniffsABareHEIFWithAnAV1ItemAsAVIF() throws {
    // avifenc writes `avif` as the major brand; a bare `mif1` file names AV1 only in its items.
    var bytes = try TestImages.fixture("avif-8bit.avif")
    #expect(Array(bytes[8..<12]) == Array("avif".utf8))
    bytes.replaceSubrange(8..<12, with: Array("mif1".utf8))
    bytes.replaceSubrange(16..<20, with: Array("miaf".utf8))
    #expect(ImageFormat(sniffing: bytes) == .avif)
    let hevc = [0, 0, 0, 0x14] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1hvc1".utf8)
    #expect(ImageFormat(sniffing: hevc) == .heic)
    #expect(throws: ImageError.unsupportedFormat(.heic)) {
      try decoder.decode(hevc, options: DecodeOptions())
    }
  }
}
