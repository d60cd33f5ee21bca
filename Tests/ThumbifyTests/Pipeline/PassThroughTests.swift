import CTurboJPEG
import Foundation
import Testing
import Thumbify
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifyStore
import ThumbifySystem
import ThumbifySystemTestSupport

/// A web-ready source that already fits a variant's box is stored as it is when that is smaller than
/// the encode (docs/imaging.md, "Pass-through").
@Suite("Pass-through", .offThePool)
struct PassThroughTests {
  /// A busy picture (a smooth gradient under a fine pseudo-random texture), which no encoder shrinks to
  /// nothing: a low-quality JPEG of it is smaller than a WebP q85, a PNG of it far larger.
  static func picture(width: Int, height: Int) -> PixelBuffer {
    TestImages.rgb(width: width, height: height) { x, y in
      var seed = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
      seed = (seed ^ (seed >> 13)) &* 1_274_126_177
      let noise = Int(seed >> 26)  // 0…63
      return (
        UInt8(min(255, x * 255 / width / 2 + noise)), UInt8(min(255, y * 255 / height / 2 + noise)),
        UInt8(min(255, 96 + noise))
      )
    }
  }

  /// Thumbnails `bytes` with the production thumbnailer; the set and each variant's blob.
  static func thumbnails(of bytes: [UInt8], variants: [ThumbnailVariant]) throws -> (
    set: ThumbnailSet, blobs: [[UInt8]]
  ) {
    let root = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let set = try Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: root)).thumbnails(
      of: bytes, source: "picture", variants: variants)
    let blobs = try set.variants.map { variant in
      [UInt8](try #require(FileManager.default.contents(atPath: root + "/" + variant.path)))
    }
    return (set, blobs)
  }

  @Test func aSmallerFittingJPEGIsStoredAsItIs() throws {
    // Given a 400×300 JPEG at quality 30, under the card's box
    let jpeg = TestImages.jpeg(Self.picture(width: 400, height: 300), quality: 30)

    // When it is thumbnailed as the default card and card2x
    let (set, blobs) = try Self.thumbnails(of: jpeg, variants: [.card, .card2x])

    // Then both variants are the source's bytes, recorded as JPEG at its size
    #expect(blobs == [jpeg, jpeg])
    for variant in set.variants {
      #expect(variant.format == .jpeg)
      #expect(variant.path.hasSuffix(".jpg"))
      #expect(variant.bytes == jpeg.count)
      #expect(variant.sha256 == SHA256Digest.hex(of: jpeg))
      #expect(variant.width == 400 && variant.height == 300)
    }
    #expect(!set.placeholder.isEmpty)
  }

  @Test func theSameSourceIsEncodedWithoutPassThrough() throws {
    // Given the same small JPEG and the card variant without `pass`
    let jpeg = TestImages.jpeg(Self.picture(width: 400, height: 300), quality: 30)
    var card = ThumbnailVariant.card
    card.passesThrough = false

    // When it is thumbnailed
    let (set, blobs) = try Self.thumbnails(of: jpeg, variants: [card])

    // Then it is encoded as the variant says
    #expect(set.variants[0].format == .webp)
    #expect(blobs[0] != jpeg)
    #expect(ImageFormat(sniffing: blobs[0]) == .webp)
  }

  @Test func aLargerSourceIsEncoded() throws {
    // Given a fitting PNG of the busy picture (lossless: several times a WebP's size)
    let pixels = Self.picture(width: 400, height: 300)
    let png = TestImages.png(pixels.pixels, width: 400, height: 300, format: 2)

    // When it is thumbnailed as the default card
    let (set, blobs) = try Self.thumbnails(of: png, variants: [.card])

    // Then the encode, smaller, is kept
    #expect(set.variants[0].format == .webp)
    #expect(blobs[0].count < png.count)
  }

  @Test func aSourceThatMustBeResizedIsEncoded() throws {
    // Given a low-quality JPEG wider than the card's box
    let jpeg = TestImages.jpeg(Self.picture(width: 800, height: 400), quality: 30)

    // When it is thumbnailed as card and card2x
    let (set, blobs) = try Self.thumbnails(of: jpeg, variants: [.card, .card2x])

    // Then the card is a resized WebP and only card2x (where it fits) is the source
    #expect(set.variants.map(\.format) == [.webp, .jpeg])
    #expect(set.variants[0].width == 600 && set.variants[0].height == 300)
    #expect(blobs[1] == jpeg)
  }

  @Test func aJPEGWithEXIFIsEncoded() throws {
    // Given the small low-quality JPEG with an EXIF segment (orientation 1: nothing to turn)
    let jpeg = TestImages.withExifOrientation(
      TestImages.jpeg(Self.picture(width: 400, height: 300), quality: 30), 1)

    // When it is thumbnailed
    let (set, blobs) = try Self.thumbnails(of: jpeg, variants: [.card])

    // Then it is re-encoded, which drops the EXIF data
    #expect(set.variants[0].format == .webp)
    #expect(blobs[0] != jpeg)
  }

  @Test func aFittingIconIsStoredAsItIsWhenSmaller() throws {
    // Given a 64×64 lossless WebP of a flat two-colour icon (a few dozen bytes)
    let icon = TestImages.rgb(width: 64, height: 64) { x, _ in x < 32 ? (200, 30, 30) : (30, 30, 200) }
    let webp = TestImages.webp(icon, quality: 100, isLossless: true)

    // When it is thumbnailed as the default icon
    let (set, blobs) = try Self.thumbnails(of: webp, variants: [.icon])

    // Then the source is the icon when it is the smaller, and the encode otherwise
    let encoded = try Self.thumbnails(
      of: webp, variants: [ThumbnailVariant(name: "icon", box: Size(width: 64, height: 64), fit: .cover)])
    if webp.count < encoded.blobs[0].count {
      #expect(blobs[0] == webp)
    } else {
      #expect(blobs[0] == encoded.blobs[0])
    }
    #expect(set.variants[0].format == .webp)
  }
}
