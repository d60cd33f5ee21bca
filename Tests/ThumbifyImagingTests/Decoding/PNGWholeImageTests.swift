import CPNG
import Testing
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

/// The whole-image path of `Sources/CPNGRows` (libdeflate inflates every IDAT at once, thumbify undoes the
/// row filters): its pixels are the file's for every filter type and row width, and a file it does not
/// take whole is libpng's to decode or refuse, as before.
@Suite("PNG whole-image decoding", .offThePool)
struct PNGWholeImageTests {
  /// Every filter type on every row position (the first row too, where "above" is zero), for RGB and
  /// RGBA and for widths whose last pixel ends a row at every offset the SSE2 Paeth loads a word at.
  @Test(arguments: [3, 4])
  func everyFilterTypeGivesBackTheSamples(channels: Int) throws {
    for width in [1, 2, 3, 5, 33] {
      for firstFilter in 0..<5 {
        // Given noise, each row filtered with the next filter type
        let height = 7
        let samples = Self.noise(count: width * height * channels, seed: UInt32(width * 10 + firstFilter))
        let rows = Self.filteredRows(
          samples, width: width, channels: channels, filters: (0..<height).map { (firstFilter + $0) % 5 })
        let png = Self.png(width: width, height: height, channels: channels, idat: Self.zlibStored(rows))

        // When it is decoded
        let decoded = try Self.read(png)

        // Then the whole-image path took it and gave the samples back, as libpng's own decode does
        #expect(decoded.isWholeImage, "width \(width), first filter \(firstFilter)")
        #expect(decoded.buffer.pixels == samples, "width \(width), first filter \(firstFilter)")
        #expect(decoded.buffer == (try PNGRowDecodingTests.simplifiedAPIDecode(png)))
      }
    }
  }

  @Test func imageDataSplitOverManyChunksIsInflatedAsOne() throws {
    // Given an image whose zlib stream is cut into IDATs of 1, 0, 50 bytes and the rest, and a tEXt after
    let samples = Self.noise(count: 40 * 9 * 3, seed: 7)
    let zlib = Self.zlibStored(
      Self.filteredRows(samples, width: 40, channels: 3, filters: Array(repeating: 4, count: 9)))
    let pieces = [zlib[0..<1], zlib[1..<1], zlib[1..<51], zlib[51...]].map { Array($0) }
    let png = Self.png(
      width: 40, height: 9, channels: 3, idats: pieces, after: [("tEXt", Array("a\0b".utf8))])

    // Then it is decoded whole, to the samples
    let decoded = try Self.read(png)
    #expect(decoded.isWholeImage)
    #expect(decoded.buffer.pixels == samples)
  }

  @Test func sRGBsGammaIsLeftAloneAndAnotherGammaGoesToLibpng() throws {
    let samples = Self.noise(count: 16 * 4 * 3, seed: 11)
    let idat = Self.zlibStored(Self.filteredRows(samples, width: 16, channels: 3, filters: [0, 1, 2, 4]))

    // Given gAMA 1/2.2: decoded whole, the samples unchanged
    let srgb = Self.png(
      width: 16, height: 4, channels: 3, idat: idat, before: [("gAMA", [0, 0, 0xB1, 0x8F])])
    let plain = try Self.read(srgb)
    #expect(plain.isWholeImage)
    #expect(plain.buffer.pixels == samples)

    // Given gAMA 1.0: libpng corrects it, as its simplified API does
    let linear = Self.png(
      width: 16, height: 4, channels: 3, idat: idat, before: [("gAMA", [0, 1, 0x86, 0xA0])])
    let corrected = try Self.read(linear)
    #expect(!corrected.isWholeImage)
    #expect(corrected.buffer == (try PNGRowDecodingTests.simplifiedAPIDecode(linear)))
    #expect(corrected.buffer.pixels != samples)
  }

  @Test func anImageLargerThanTheWholeImageCapIsReadRowByRow() throws {
    // Given a 3000×1000 RGB image (9 MB inflated, over the 8 MB cap)
    let samples = [UInt8](repeating: 90, count: 3000 * 1000 * 3)
    let png = TestImages.png(samples, width: 3000, height: 1000, format: 2)

    // Then libpng's row reads decode it
    let decoded = try Self.read(png)
    #expect(!decoded.isWholeImage)
    #expect(decoded.buffer.width == 3000 && decoded.buffer.pixels.allSatisfy { $0 == 90 })
  }

  @Test func tooMuchImageDataIsLibpngsToAccept() throws {
    // Given a stream holding one row more than the image has (libpng warns and uses the rows it needs)
    let samples = Self.noise(count: 8 * 5 * 4, seed: 3)
    let rows = Self.filteredRows(
      samples + samples.prefix(8 * 4), width: 8, channels: 4, filters: [4, 4, 4, 4, 4, 4])
    let png = Self.png(width: 8, height: 5, channels: 4, idat: Self.zlibStored(rows))

    // Then libpng decodes it, to the image's rows
    let decoded = try Self.read(png)
    #expect(!decoded.isWholeImage)
    #expect(decoded.buffer.pixels == samples)
  }

  /// Damage the whole-image path sees and leaves to libpng, which refuses each with its own message.
  @Test(arguments: Damage.allCases)
  func damagedImageDataIsRefusedByLibpng(damage: Damage) {
    let samples = Self.noise(count: 12 * 6 * 3, seed: 5)
    var filters = [1, 2, 3, 4, 4, 0]
    if damage == .badFilterType { filters[3] = 5 }
    var rows = Self.filteredRows(samples, width: 12, channels: 3, filters: filters)
    if damage == .missingRow { rows.removeLast(12 * 3 + 1) }
    var png = Self.png(width: 12, height: 6, channels: 3, idat: Self.zlibStored(rows))
    switch damage {
    case .badCRC: png[png.count - 13] ^= 0x40  // IDAT's CRC, just before IEND's 12 bytes
    case .noIEND: png.removeLast(12)
    case .badFilterType, .missingRow: break
    }

    // Then it is refused with libpng's message, as libpng's own full-frame decode refuses it
    let message = TestImages.corruptionMessage(decoding: png, format: .png)
    #expect(message?.isEmpty == false)
    #expect(message != "libpng reported no message.")
    // (libpng's simplified API stops after the image data, so only the row reader's png_read_end sees
    // the missing IEND: a truncated file, refused before the whole-image path as after it.)
    if damage != .noIEND { #expect(!Self.libpngDecodes(png)) }
  }

  /// Whether libpng's simplified API decodes `png` to 8-bit RGB(A) at all.
  static func libpngDecodes(_ png: [UInt8]) -> Bool {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    defer { png_image_free(&image) }
    guard png.withUnsafeBytes({ png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }) != 0
    else { return false }
    image.format = UInt32(PNG_FORMAT_FLAG_COLOR) | UInt32(PNG_FORMAT_FLAG_ALPHA)
    var pixels = [UInt8](repeating: 0, count: Int(image.width) * Int(image.height) * 4)
    return pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) } != 0
  }

  enum Damage: CaseIterable, Sendable { case badCRC, badFilterType, missingRow, noIEND }

  // MARK: - Writing PNGs by hand

  static func read(_ png: [UInt8]) throws -> (buffer: PixelBuffer, isWholeImage: Bool) {
    try png.withUnsafeBytes { bytes in
      let decoded = try PNGDecoder.read(bytes, options: DecodeOptions())
      return (decoded.buffer, decoded.isWholeImage)
    }
  }

  /// Deterministic noise (a linear congruential generator's high bytes).
  static func noise(count: Int, seed: UInt32) -> [UInt8] {
    var state = seed &* 2_654_435_761 &+ 1
    return (0..<count).map { _ in
      state = state &* 1_664_525 &+ 1_013_904_223
      return UInt8(truncatingIfNeeded: state >> 24)
    }
  }

  /// The rows of `samples` as PNG stores them: each a filter type byte and the row filtered with it
  /// (the PNG specification's forward filters, on the unfiltered neighbours).
  static func filteredRows(_ samples: [UInt8], width: Int, channels: Int, filters: [Int]) -> [UInt8] {
    let rowBytes = width * channels
    var output: [UInt8] = []
    for (y, filter) in filters.enumerated() {
      output.append(UInt8(filter))
      for i in 0..<rowBytes {
        let x = Int(samples[y * rowBytes + i])
        let a = i >= channels ? Int(samples[y * rowBytes + i - channels]) : 0
        let b = y > 0 ? Int(samples[(y - 1) * rowBytes + i]) : 0
        let c = y > 0 && i >= channels ? Int(samples[(y - 1) * rowBytes + i - channels]) : 0
        let predictor: Int
        switch filter {
        case 1: predictor = a
        case 2: predictor = b
        case 3: predictor = (a + b) / 2
        case 4:
          let (pa, pb, pc) = (abs(b - c), abs(a - c), abs(a + b - 2 * c))
          predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
        default: predictor = 0
        }
        output.append(UInt8(truncatingIfNeeded: x - predictor))
      }
    }
    return output
  }

  /// `data` as a zlib stream of stored (uncompressed) deflate blocks, which needs no compressor.
  static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var zlib: [UInt8] = [0x78, 0x01]
    let starts = Array(stride(from: 0, to: max(1, data.count), by: 65_535))
    for (index, start) in starts.enumerated() {
      let block = data[start..<min(data.count, start + 65_535)]
      let length = UInt16(block.count)
      zlib += [index == starts.count - 1 ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8)]
      zlib += [UInt8(~length & 0xFF), UInt8(~length >> 8)] + block
    }
    var (a, b): (UInt32, UInt32) = (1, 0)
    for byte in data {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return zlib + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: (b << 16 | a) >> $0) }
  }

  static func png(
    width: Int, height: Int, channels: Int, idat: [UInt8], before: [(String, [UInt8])] = [],
    after: [(String, [UInt8])] = []
  ) -> [UInt8] {
    png(width: width, height: height, channels: channels, idats: [idat], before: before, after: after)
  }

  /// An 8-bit RGB or RGBA PNG: IHDR, `before`, one IDAT per piece of `idats`, `after`, IEND.
  static func png(
    width: Int, height: Int, channels: Int, idats: [[UInt8]], before: [(String, [UInt8])] = [],
    after: [(String, [UInt8])] = []
  ) -> [UInt8] {
    let ihdr =
      [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: width >> $0) }
      + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: height >> $0) } + [8, channels == 4 ? 6 : 2, 0, 0, 0]
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + TestImages.pngChunk("IHDR", ihdr)
    for (type, payload) in before { png += TestImages.pngChunk(type, payload) }
    for piece in idats { png += TestImages.pngChunk("IDAT", piece) }
    for (type, payload) in after { png += TestImages.pngChunk(type, payload) }
    return png + TestImages.pngChunk("IEND", [])
  }
}
