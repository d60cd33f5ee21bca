import Foundation
import Synchronization
import Testing
import Thumbify
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifyStore

@Suite("Thumbnailer")
struct ThumbnailerTests {
  /// Records the options each decode was asked for, then decodes with the C libraries.
  final class RecordingDecoder: ImageDecoding {
    let requests = Mutex<[DecodeOptions]>([])
    func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
      requests.withLock { $0.append(options) }
      return try LibraryDecoder().decode(data, options: options)
    }
  }

  @Test func decodesOnceForSeveralVariants() throws {
    let root = try Fixtures.temporaryDirectory()
    let decoder = RecordingDecoder()
    let thumbnailer = Thumbnailer(decoder: decoder, store: BlobStore(root: root))
    let set = try thumbnailer.thumbnails(
      of: try Fixtures.photoBytes("storm.jpg"), source: "storm.jpg", variants: [.card, .card2x, .icon])
    let requests = decoder.requests.withLock { $0 }
    #expect(requests.count == 1)
    #expect(requests.first?.target == Size(width: 1200, height: 2400))
    #expect(requests.first?.fit == .cover)
    #expect(set.variants.map(\.name) == ["card", "card2x", "icon"])
    #expect(set.width == 945 && set.height == 630)
    // 945×630 into 600×1200 contain → 600×400; 2× is no upscale → the source size; icon 64×64.
    #expect(
      set.variants.map { Size(width: $0.width, height: $0.height) } == [
        Size(width: 600, height: 400), Size(width: 945, height: 630), Size(width: 64, height: 64),
      ])
    // storm.jpg is a JPEG: card2x keeps it JPEG (keep-jpeg), card and icon are WebP.
    #expect(set.variants.map(\.format) == [.webp, .jpeg, .webp])
    for thumbnail in set.variants {
      let bytes = try #require(FileManager.default.contents(atPath: root + "/" + thumbnail.path))
      #expect(bytes.count == thumbnail.bytes)
      let decoded = try #require(LibraryDecoder.pixels(of: [UInt8](bytes)))
      #expect(decoded.width == thumbnail.width && decoded.height == thumbnail.height)
    }
    #expect(set.color.hasPrefix("#") && !set.placeholder.isEmpty)
  }

  @Test func identicalRunsGiveIdenticalSets() throws {
    let root = try Fixtures.temporaryDirectory()
    let thumbnailer = Thumbnailer(decoder: LibraryDecoder(), store: BlobStore(root: root))
    let bytes = try Fixtures.photoBytes("freshflower-alpha.png")
    let first = try thumbnailer.thumbnails(of: bytes, source: "a", variants: [.card, .icon])
    let second = try thumbnailer.thumbnails(of: bytes, source: "a", variants: [.card, .icon])
    #expect(first == second)
  }

  @Test func decodeFailuresAreTypedImageErrors() throws {
    let thumbnailer = Thumbnailer(
      decoder: LibraryDecoder(), store: BlobStore(root: try Fixtures.temporaryDirectory()))
    #expect(throws: ThumbnailError.self) {
      try thumbnailer.thumbnails(of: Array("garbage".utf8), source: "x", variants: [.card])
    }
    do {
      _ = try thumbnailer.thumbnails(of: Array("garbage".utf8), source: "x", variants: [.card])
    } catch {
      #expect(error.code == "undecodableImage")
    }
  }

  @Test func storeFailuresAreTypedStoreErrors() throws {
    let directory = try Fixtures.temporaryDirectory()
    #expect(FileManager.default.createFile(atPath: directory + "/file", contents: Data()))
    let thumbnailer = Thumbnailer(decoder: LibraryDecoder(), store: BlobStore(root: directory + "/file"))
    let bytes = try Fixtures.photoBytes("storm.jpg")
    do {
      _ = try thumbnailer.thumbnails(of: bytes, source: "x", variants: [.icon])
      Issue.record("expected a store error")
    } catch {
      guard case .store(let storeError) = error else {
        Issue.record("expected a store error, got \(error)")
        return
      }
      #expect(storeError.description.hasSuffix(": Not a directory"))
    }
  }
}
