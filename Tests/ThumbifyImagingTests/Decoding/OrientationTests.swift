import Testing
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

@Suite("EXIF orientation", .offThePool)
struct OrientationTests {
  @Test(arguments: 1...8, [false, true])
  func jpegIsDecodedUpright(orientation: Int, isLittleEndian: Bool) throws {
    // Given the upright 64×32 picture (red top-left) stored the way a camera with this orientation stores it
    let stored = TestImages.storedPicture(orientation)
    let jpeg = TestImages.withExifOrientation(
      TestImages.jpeg(stored), orientation, isLittleEndian: isLittleEndian)

    // When it is decoded
    let image = try ImageDecoder().decode(jpeg, options: DecodeOptions())

    // Then the output is the upright picture
    #expect(image.buffer.width == 64 && image.buffer.height == 32)
    #expect(image.originalSize == Size(width: 64, height: 32))
    for (index, (x, y)) in [(8, 8), (56, 8), (8, 24), (56, 24)].enumerated() {
      let (r, g, b) = TestImages.quadrantColors[index]
      #expect(TestImages.isClose(TestImages.pixel(image.buffer, x, y), [r, g, b], tolerance: 8))
    }
  }

  @Test(arguments: 1...8, [false, true])
  func pngWithAnExifChunkIsDecodedUpright(orientation: Int, isLittleEndian: Bool) throws {
    // Given the upright 64×32 picture stored as this orientation stores it, in a PNG with an eXIf chunk
    let stored = TestImages.storedPicture(orientation)
    let png = TestImages.png(
      TestImages.png(stored.pixels, width: stored.width, height: stored.height, format: 2),
      inserting: [("eXIf", TestImages.tiffOrientation(UInt16(orientation), isLittleEndian: isLittleEndian))])

    // When it is decoded, at full size and for a 16×8 thumbnail (a box-shrunk decode)
    let image = try ImageDecoder().decode(png, options: DecodeOptions())
    let small = try ImageDecoder().decode(png, options: DecodeOptions(target: Size(width: 16, height: 8)))

    // Then the output is the upright picture at the upright size, turned once
    #expect(image.buffer.width == 64 && image.buffer.height == 32)
    #expect(image.originalSize == Size(width: 64, height: 32))
    for (index, (x, y)) in [(8, 8), (56, 8), (8, 24), (56, 24)].enumerated() {
      let (r, g, b) = TestImages.quadrantColors[index]
      #expect(TestImages.pixel(image.buffer, x, y) == [r, g, b])
      #expect(
        TestImages.pixel(small.buffer, x * small.buffer.width / 64, y * small.buffer.height / 32) == [
          r, g, b,
        ])
    }
    #expect(small.buffer.width >= 16 && small.buffer.width == small.buffer.height * 2)
    #expect(small.originalSize == Size(width: 64, height: 32))
  }

  @Test(arguments: ExifOrientation.allCases)
  func transformMovesEveryPixelExactly(orientation: ExifOrientation) {
    // Given a 3×2 buffer whose pixels are numbered
    let buffer = PixelBuffer(width: 3, height: 2, channels: 3, pixels: (0..<6).flatMap { [UInt8($0), 0, 0] })

    // When it is turned upright
    let upright = buffer.oriented(orientation)

    // Then each output pixel is the stored pixel the EXIF table names, checked via the quadrant table's corners
    let corners = [(0, 0), (2, 0), (0, 1), (2, 1)].map { buffer.pixels[($0.1 * 3 + $0.0) * 3] }
    let (w, h) = (upright.width, upright.height)
    #expect((w, h) == (orientation.swapsDimensions ? (2, 3) : (3, 2)))
    let uprightCorners = [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)].map {
      upright.pixels[($0.1 * w + $0.0) * 3]
    }
    let map = TestImages.storedQuadrants[orientation.rawValue, default: []]
    for storedCorner in 0..<4 {
      #expect(corners[storedCorner] == uprightCorners[map[storedCorner]])
    }
    #expect(upright.pixels.sorted() == buffer.pixels.sorted())
  }

  @Test func ignoresMalformedExif() throws {
    // Given a JPEG whose Exif segment has a TIFF IFD offset pointing far outside the segment
    let jpeg = TestImages.jpeg(TestImages.rgb(width: 16, height: 8) { _, _ in (9, 9, 9) })
    var payload = Array("Exif".utf8) + [0, 0] + Array("MM".utf8) + [0, 42, 0x7F, 0xFF, 0xFF, 0xFF]
    payload += [UInt8](repeating: 0, count: 8)
    let length = payload.count + 2
    let broken = Array(jpeg[0..<2]) + [0xFF, 0xE1, 0, UInt8(length)] + payload + Array(jpeg[2...])

    // Then the image decodes as stored
    let image = try ImageDecoder().decode(broken, options: DecodeOptions())
    #expect(image.buffer.width == 16 && image.buffer.height == 8)
  }

  @Test(arguments: [0, 9, 0xFFFF])
  func outOfRangeValuesMeanUpright(value: Int) {
    let tiff = TestImages.tiffOrientation(UInt16(value), isLittleEndian: true)
    #expect(ExifOrientation(tiff: ByteReader(tiff, format: .jpeg)) == nil)
  }
}
