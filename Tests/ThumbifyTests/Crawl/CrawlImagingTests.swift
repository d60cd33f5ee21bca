import Foundation
import Testing
import Thumbify
import ThumbifyImaging
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystem
import ThumbifySystemTestSupport
import ThumbifyTestSupport

/// The crawl with the real imaging stages (ImageDecoder, Thumbnailer, BlobStore) on the sample photos.
@Suite("Crawl with real thumbnails")
struct CrawlImagingTests {
  static let photos: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path + "/samples/photos"
  }()

  @Test func cardsAreMadeAtTheDefaultWidthsAndNeverUpscaled() async throws {
    let directory = makeTemporaryDirectory("imaging")
    defer { removeDirectory(directory) }
    let fetcher = StubFetcher()
    let storm = try #require(FileManager.default.contents(atPath: Self.photos + "/storm.jpg"))
    let flower = try #require(FileManager.default.contents(atPath: Self.photos + "/freshflower-alpha.png"))
    fetcher.serve(
      "http://site.test/storm", "image: http://site.test/storm.jpg\nicon: http://site.test/flower.png")
    fetcher.serve("http://site.test/flower", "image: http://site.test/flower.png")
    fetcher.serve("http://site.test/storm.jpg", bytes: [UInt8](storm))
    fetcher.serve("http://site.test/flower.png", bytes: [UInt8](flower))
    let job = CrawlJob(
      layout: testLayout(directory), configuration: CrawlConfiguration(), fetcher: fetcher,
      extractor: StubExtractor(),
      thumbnailer: Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: directory)))
    _ = try await job.run(openList: {
      URLListReader(bytes: Array("http://site.test/storm\nhttp://site.test/flower".utf8))
    })
    let records = try readManifest(directory)
    // storm.jpg is 945×630: card is 600 wide, card2x keeps 945 (never upscaled).
    let storms = try #require(records[0].image)
    #expect(storms.width == 945 && storms.height == 630)
    #expect(storms.variants.map(\.width) == [600, 945])
    #expect(storms.variants.map(\.height) == [400, 630])
    #expect(storms.placeholder.count > 10)
    #expect(storms.color.hasPrefix("#") && storms.color.count == 7)
    let icon = try #require(records[0].icon?.variants.first)
    #expect(icon.width == 64 && icon.height == 64)
    // storm.jpg is a JPEG: its card2x stays JPEG (keep-jpeg); the card and the icon are WebP.
    #expect(storms.variants.map(\.format) == [.webp, .jpeg] && icon.format == .webp)
    for variant in storms.variants + [icon] {
      let bytes = try #require(FileManager.default.contents(atPath: directory + "/" + variant.path))
      #expect(ImageFormat(sniffing: [UInt8](bytes))?.rawValue == variant.format.rawValue)
      #expect(SHA256Digest.hex(of: [UInt8](bytes)) == variant.sha256)
      #expect(
        variant.path
          == "blobs/\(variant.sha256.prefix(2))/\(variant.sha256.dropFirst(2).prefix(2))/\(variant.sha256).\(variant.format.fileExtension)"
      )
    }
    // flower.png (399×300) is smaller than both card boxes: kept at its size.
    #expect(records[1].image?.variants.map(\.width) == [399, 399])
  }
}
