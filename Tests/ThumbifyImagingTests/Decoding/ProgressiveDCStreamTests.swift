import CTurboJPEG
import Foundation
import Testing
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

/// The DC-only rewrite of progressive JPEGs for 1/8-scale decodes (``ProgressiveDCStream``).
@Suite("Progressive DC stream", .offThePool)
struct ProgressiveDCStreamTests {
  static let subsamplings = [TJSAMP_444, TJSAMP_422, TJSAMP_420, TJSAMP_440, TJSAMP_411, TJSAMP_GRAY]

  /// A progressive JPEG of a sample photo in `subsampling` (gray for `TJSAMP_GRAY`).
  static func progressive(_ subsampling: TJSAMP, photo: PixelBuffer) -> [UInt8] {
    guard subsampling == TJSAMP_GRAY else {
      return TestImages.jpeg(
        photo.pixels, width: photo.width, height: photo.height, subsampling: subsampling, quality: 90,
        isProgressive: true)
    }
    let gray = stride(from: 0, to: photo.pixels.count, by: 3).map { photo.pixels[$0 + 1] }
    return TestImages.jpeg(
      gray, width: photo.width, height: photo.height, pixelFormat: TJPF_GRAY, subsampling: TJSAMP_GRAY,
      quality: 90, isProgressive: true)
  }

  /// Options under which the decoders pick DCT scale 1/8 for the 945×630 `storm.jpg`.
  static let oneEighth = DecodeOptions(target: Size(width: 16, height: 16), fit: .cover)

  static func header(_ jpeg: [UInt8]) throws -> TurboJPEGDecompressor.Header {
    try jpeg.withUnsafeBufferPointer { (jpeg) throws(ImageError) in try TurboJPEGDecompressor().header(jpeg) }
  }

  /// The 1/8-scale RGB decode of `jpeg` as TurboJPEG gives it.
  static func rgb(_ jpeg: [UInt8], size: Size) throws(ImageError) -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
    try jpeg.withUnsafeBufferPointer { (jpeg) throws(ImageError) in
      try pixels.withUnsafeMutableBufferPointer { (output) throws(ImageError) in
        try TurboJPEGDecompressor().decompress(jpeg, into: output, size: size, pixelFormat: TJPF_RGB)
      }
    }
    return pixels
  }

  /// The 1/8-scale Y′CbCr planes of `jpeg` as TurboJPEG gives them (only Y for gray).
  static func planes(_ jpeg: [UInt8], size: Size, subsampling: Int32) throws(ImageError) -> [[UInt8]] {
    let count = subsampling == Int32(TJSAMP_GRAY.rawValue) ? 1 : 3
    let widths = (0..<count).map { Int(tjPlaneWidth(Int32($0), Int32(size.width), subsampling)) }
    let sizes = (0..<count).map {
      Int(tjPlaneSizeYUV(Int32($0), Int32(size.width), 0, Int32(size.height), subsampling))
    }
    let planes = sizes.map { UnsafeMutablePointer<UInt8>.allocate(capacity: $0) }
    defer { for plane in planes { plane.deallocate() } }
    try jpeg.withUnsafeBufferPointer { (jpeg) throws(ImageError) in
      try TurboJPEGDecompressor().decompressToPlanes(jpeg, into: planes, widths: widths, size: size)
    }
    return zip(planes, sizes).map { Array(UnsafeBufferPointer(start: $0, count: $1)) }
  }

  static func rewritten(_ jpeg: [UInt8], isRawOutput: Bool) -> [UInt8]? {
    ProgressiveDCStream.stream(jpeg) {
      ProgressiveDCStream.isDecodedFromDC($0, maximum: $1, isRawOutput: isRawOutput)
    }
  }

  @Test(arguments: subsamplings)
  func rewrittenStreamDecodesToTheSamePixelsAtOneEighth(subsampling: TJSAMP) throws {
    // Given a progressive JPEG of a photo
    let jpeg = Self.progressive(subsampling, photo: try Fixtures.photo("storm.jpg"))
    try Self.expectSamePixels(jpeg)
  }

  @Test func rewrittenStreamOfASampleAndALargeImageDecodesToTheSamePixels() throws {
    // Given a progressive sample photo and a progressive image of more than 32767 blocks
    // per component (more than one end-of-band run per emptied scan)
    try Self.expectSamePixels(try Fixtures.photoBytes("raindrops-progressive.jpg"))
    let large = Fixtures.gradient(width: 2048, height: 1160)
    try Self.expectSamePixels(TestImages.jpeg(large, quality: 85, isProgressive: true))

    // and a progressive JPEG without its last scan (the last luma refinement: libjpeg smooths it)
    let jpeg = TestImages.jpeg(try Fixtures.photo("storm.jpg"), isProgressive: true)
    let lastScan = try #require((0..<(jpeg.count - 1)).last { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
    try Self.expectSamePixels(Array(jpeg[..<lastScan]) + [0xFF, 0xD9])
  }

  /// Expects the rewritten streams (RGB and planar rules) of `jpeg` to be smaller and to decode
  /// at 1/8 to exactly the pixels and planes of the original.
  static func expectSamePixels(_ jpeg: [UInt8]) throws {
    let header = try Self.header(jpeg)
    let size = ShrinkOnLoad.scaledSize(header.size, by: (1, 8))

    // When its AC scans are emptied as the RGB and the planar decodes allow
    let forRGB = try #require(Self.rewritten(jpeg, isRawOutput: false))
    let forPlanes = try #require(Self.rewritten(jpeg, isRawOutput: true))

    // Then the streams are smaller and the 1/8 decodes are the original's, bit for bit
    #expect(forRGB.count < jpeg.count * 3 / 4 && forPlanes.count <= forRGB.count)
    #expect(try Self.rgb(forRGB, size: size) == Self.rgb(jpeg, size: size))
    #expect(
      try Self.planes(forPlanes, size: size, subsampling: header.subsampling)
        == Self.planes(jpeg, size: size, subsampling: header.subsampling))
  }

  @Test(arguments: 1...8)
  func exifOrientationIsAppliedToTheOneEighthDecode(orientation: Int) throws {
    // Given a progressive JPEG with this EXIF orientation
    let plain = TestImages.jpeg(try Fixtures.photo("storm.jpg"), isProgressive: true)
    let jpeg = TestImages.withExifOrientation(plain, orientation)
    let size = ShrinkOnLoad.scaledSize(try Self.header(jpeg).size, by: (1, 8))

    // When it is decoded at 1/8
    let decoded = try ImageDecoder().decode(jpeg, options: Self.oneEighth)

    // Then it is the full stream's 1/8 decode, turned upright
    let stored = PixelBuffer(
      width: size.width, height: size.height, channels: 3, pixels: try Self.rgb(plain, size: size))
    let orientation = try #require(ExifOrientation(rawValue: orientation))
    #expect(decoded.buffer == stored.oriented(orientation))
    #expect(decoded.originalSize == orientation.upright(Size(width: 945, height: 630)))
  }

  @Test func otherJPEGsAreNotRewritten() throws {
    // Given a baseline JPEG, a progressive one with a restart interval, and cut-off progressive ones
    let photo = try Fixtures.photo("storm.jpg")
    let baseline = TestImages.jpeg(photo)
    let progressive = TestImages.jpeg(photo, isProgressive: true)
    let restarts =
      Array(progressive.prefix(2)) + [0xFF, 0xDD, 0x00, 0x04, 0x00, 0x10] + progressive.dropFirst(2)
    let cut = [0.1, 0.5, 0.9, 0.999].map { Array(progressive.prefix(Int(Double(progressive.count) * $0))) }

    // Then none of them is rewritten, and the complete progressive one is
    for jpeg in [baseline, restarts] + cut {
      #expect(Self.rewritten(jpeg, isRawOutput: false) == nil)
    }
    #expect(Self.rewritten(progressive, isRawOutput: false) != nil)
  }

  @Test func progressiveJPEGOfMoreThan500ScansIsStillRefused() throws {
    // Given a progressive JPEG whose last scan (a luma AC refinement) is repeated 500 more times
    let jpeg = TestImages.jpeg(try Fixtures.photo("storm.jpg"), isProgressive: true)
    let lastScan = try #require((0..<(jpeg.count - 1)).last { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
    let scan = jpeg[lastScan..<(jpeg.count - 2)]
    let bomb = Array(jpeg.dropLast(2)) + Array((0..<500).map { _ in scan }.joined()) + [0xFF, 0xD9]
    let size = ShrinkOnLoad.scaledSize(try Self.header(bomb).size, by: (1, 8))

    // When it is decoded at 1/8
    // Then it is refused as TurboJPEG refuses the full stream (TJFLAG_LIMITSCANS), not rewritten
    #expect(Self.rewritten(bomb, isRawOutput: false) == nil)
    var expected: ImageError?
    do { _ = try Self.rgb(bomb, size: size) } catch { expected = error }
    let refusal = try #require(expected)
    #expect(throws: refusal) { try ImageDecoder().decode(bomb, options: Self.oneEighth) }
    #expect(throws: refusal) { try ImageDecoder().decodePlanes(bomb, options: Self.oneEighth) }
  }

  @Test(arguments: [0.05, 0.2, 0.5, 0.8, 0.95, 0.999])
  func cutOffProgressiveJPEGIsStillCorrupt(fraction: Double) throws {
    // Given a progressive JPEG cut off inside a scan
    let jpeg = TestImages.jpeg(try Fixtures.photo("storm.jpg"), isProgressive: true)
    let cut = Array(jpeg.prefix(Int(Double(jpeg.count) * fraction)))
    let options = Self.oneEighth

    // When it is decoded at 1/8, to RGB and to planes
    // Then both report it as corrupt, as the full stream's decode does
    TestImages.expectCorruptJPEG { () throws(ImageError) in
      _ = try ImageDecoder().decode(cut, options: options)
    }
    TestImages.expectCorruptJPEG { () throws(ImageError) in
      _ = try ImageDecoder().decodePlanes(cut, options: options)
    }
  }

  @Test(arguments: 0..<20)
  func garbledProgressiveJPEGGivesTheFullStreamsResultOrItsDCImage(seed: Int) throws {
    // Given a progressive JPEG with 64 bytes somewhere in its scans overwritten by pseudo-random bytes
    let clean = TestImages.jpeg(try Fixtures.photo("storm.jpg"), isProgressive: true)
    var jpeg = clean
    var state = UInt64(seed + 1) &* 0x9E37_79B9_7F4A_7C15
    let start = jpeg.count / 16 + seed * jpeg.count / 22
    for index in start..<(start + 64) {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      jpeg[index] = UInt8(truncatingIfNeeded: state >> 56)
    }
    let header = try Self.header(jpeg)
    let size = ShrinkOnLoad.scaledSize(header.size, by: (1, 8))

    // When the decoder decodes it at 1/8
    var decoded: PixelBuffer?
    var error: ImageError?
    do { decoded = try ImageDecoder().decode(jpeg, options: Self.oneEighth).buffer } catch let thrown {
      error = thrown
    }

    // Then it gives the same pixels, or the same error, as TurboJPEG's decode of the full stream;
    // except that garbage only inside AC scans the 1/8 decode does not read is not seen (where the
    // full stream's decode may run out of data: "premature end of data segment"): then it gives
    // the clean file's 1/8 decode
    var pixels: [UInt8]?
    var expected: ImageError?
    do { pixels = try Self.rgb(jpeg, size: size) } catch let thrown { expected = thrown }
    #expect(decoded == nil || (decoded?.width, decoded?.height) == (size.width, size.height))
    if let decoded, pixels == nil {
      #expect(decoded.pixels == (try Self.rgb(clean, size: size)), "\(String(describing: expected))")
    } else {
      #expect(decoded?.pixels == pixels && error == expected)
    }
  }
}
