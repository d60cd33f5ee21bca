import Foundation
import Testing
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@Suite("Placeholders", .offThePool)
struct PlaceholderTests {
  static func solid(_ rgb: [UInt8], width: Int = 40, height: Int = 30) -> PixelBuffer {
    PixelBuffer(
      width: width, height: height, channels: 3, pixels: (0..<(width * height)).flatMap { _ in rgb })
  }

  @Test(arguments: [[200, 40, 40], [30, 120, 220], [250, 250, 250], [10, 10, 10]] as [[UInt8]])
  func thumbHashEncodesTheAverageColour(_ rgb: [UInt8]) throws {
    let hash = ThumbHash.encode(Self.solid(rgb))
    let average = try #require(ThumbHash.averageColor(of: hash))
    #expect(abs(average.r * 255 - Double(rgb[0])) < 12)
    #expect(abs(average.g * 255 - Double(rgb[1])) < 12)
    #expect(abs(average.b * 255 - Double(rgb[2])) < 12)
    #expect(average.a == 1)
  }

  /// The pattern the reference vectors were made from: r = 7x+3y, g = x²+5y, b = xy,
  /// a = 13x+29y when `hasAlpha` (all mod 256). (A pure horizontal alpha ramp makes
  /// vertical AC terms exactly zero, where float noise decides a `round(7.5)`.)
  static func pattern(width: Int, height: Int, hasAlpha: Bool) -> PixelBuffer {
    var pixels: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        let alpha = hasAlpha ? (x * 13 + y * 29) % 256 : 255
        pixels += [
          UInt8((x * 7 + y * 3) % 256), UInt8((x * x + y * 5) % 256), UInt8(x * y % 256), UInt8(alpha),
        ]
      }
    }
    return PixelBuffer(width: width, height: height, channels: 4, pixels: pixels)
  }

  /// Expected hashes computed with the reference implementation's Rust crate (evanw/thumbhash,
  /// through the `thumbhash-rs` Python wheel's `rgba_to_thumb_hash`) on the same pattern.
  @Test(arguments: [
    (32, 24, false, "3RgOHYxAZohUeHmFiGd4h5RfDohn"),
    (20, 30, true, "2viFCwQIUHFoaHm5XA9dmwBKdgQIQHo="),
    (64, 40, true, "nwiGC4IHgyBSRHXujxxveRkKVmeSYTY="),
    (100, 75, false, "HwgGDYJmdkdmVwhkZVRndu6PurxA"),
  ])
  func thumbHashMatchesTheReferenceImplementation(width: Int, height: Int, hasAlpha: Bool, expected: String) {
    let hash = ThumbHash.encode(Self.pattern(width: width, height: height, hasAlpha: hasAlpha))
    #expect(Data(hash).base64EncodedString() == expected)
  }

  @Test func thumbHashHeaderFollowsTheReferenceLayout() {
    // Opaque landscape image: 5 header bytes, no alpha byte, the landscape bit set,
    // and (7 luminance columns → 7 rows of triangular AC terms) the reference's length.
    let hash = ThumbHash.encode(Fixtures.gradient(width: 100, height: 50))
    let header24 = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16
    let header16 = Int(hash[3]) | Int(hash[4]) << 8
    #expect(header24 >> 23 == 0)
    #expect(header16 >> 15 == 1)
    #expect(header16 & 7 == 4)  // ly = round(7 * 50 / 100) = 4 (JS rounds .5 up)
    // AC counts: luminance 7×4 triangle → 16 terms (minus DC) … p and q 3×3 → 5 each.
    let luminanceTerms =
      (0..<4).reduce(0) { total, cy in
        total + (0..<7).filter { cx in cx * 4 < 7 * (4 - cy) }.count
      } - 1
    #expect(hash.count == 5 + (luminanceTerms + 5 + 5 + 1) / 2)
  }

  @Test func translucentImagesCarryAlpha() throws {
    var pixels: [UInt8] = []
    for x in 0..<(20 * 20) { pixels += [0, 0, 255, x % 20 < 10 ? 255 : 0] }
    let hash = ThumbHash.encode(PixelBuffer(width: 20, height: 20, channels: 4, pixels: pixels))
    let average = try #require(ThumbHash.averageColor(of: hash))
    #expect(hash[2] >> 7 == 1)
    #expect(abs(average.a - 0.5) < 0.1)
    #expect(average.b > 0.9 && average.r < 0.1)
  }

  @Test func dominantColourIsTheLargestArea() {
    // 70% green, 30% red: green dominates even though the mean is brownish.
    var pixels: [UInt8] = []
    for index in 0..<100 { pixels += index < 70 ? [20, 200, 40] : [220, 10, 10] }
    #expect(
      DominantColor.hex(of: PixelBuffer(width: 10, height: 10, channels: 3, pixels: pixels)) == "#14c828")
  }

  @Test func placeholderOfARealPhoto() throws {
    let placeholder = Placeholder(image: try Fixtures.photo("storm.jpg"))
    let bytes = try #require(Data(base64Encoded: placeholder.thumbHash))
    #expect((20...30).contains(bytes.count))
    #expect(placeholder.color.count == 7 && placeholder.color.hasPrefix("#"))
  }
}
