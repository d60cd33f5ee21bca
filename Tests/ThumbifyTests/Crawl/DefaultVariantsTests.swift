import Foundation
import Testing
import Thumbify
import ThumbifyExtracting
import ThumbifyFetchingTestSupport
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// One default variant set everywhere (issue 36, "One card everywhere"): a crawl and the library's
/// `LinkMetadata` accessors, each with its defaults, make the same thumbnails of one page, byte for byte.
@Suite("The default variants: the crawl and the library agree", .timeLimit(.minutes(5)))
struct DefaultVariantsTests {
  @Test func theCrawlAndTheLibraryMakeByteIdenticalDefaultBlobs() async throws {
    // Given a page on loopback nginx whose card image is a photo and whose icon is a PNG with alpha
    let site = makeTemporaryDirectory("defaults-site")
    let out = makeTemporaryDirectory("defaults-out")
    defer {
      removeDirectory(site)
      removeDirectory(out)
    }
    let www = site + "/www"
    try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
    let page = """
      <!doctype html><html><head><title>Storms</title>
      <meta property="og:image" content="/storm.jpg">
      <link rel="icon" type="image/png" href="/flower.png"></head><body>Storms.</body></html>
      """
    try page.write(toFile: www + "/index.html", atomically: true, encoding: .utf8)
    #expect(
      FileManager.default.createFile(
        atPath: www + "/storm.jpg", contents: Data(try Fixtures.photoBytes("storm.jpg"))))
    #expect(
      FileManager.default.createFile(
        atPath: www + "/flower.png", contents: Data(try Fixtures.photoBytes("freshflower-alpha.png"))))
    let nginx = try await LoopbackNginx(docroot: URL(fileURLWithPath: www))
    defer { nginx.stop() }
    let pageURL = nginx.url("/")

    // When it is crawled with the crawl's defaults
    let job = CrawlJob(
      layout: testLayout(out), configuration: CrawlConfiguration(), fetcher: try makeTestFetcher(),
      extractor: MetadataExtractor(),
      thumbnailer: Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: out)))
    _ = try await job.run(openList: { URLListReader(bytes: Array((pageURL + "\n").utf8)) })
    let record = try #require(try readManifest(out).first)
    let crawledImage = try #require(record.image)
    let crawledIcon = try #require(record.icon)

    // And its thumbnails are asked of the library with the library's defaults
    let provider = LinkMetadataProvider(fetcher: try makeTestFetcher())
    let metadata = try await provider.metadata(for: try #require(URL(string: pageURL)))
    let image = try await metadata.imageThumbnails()
    let icon = try await metadata.iconThumbnail()

    // Then both made the default set: the same names, sizes, formats and bytes
    #expect(
      crawledImage.variants.map(\.name) + crawledIcon.variants.map(\.name) == ["card", "card2x", "icon"])
    #expect(image.variants.map(\.name) + [icon.name] == ThumbnailVariant.defaults.map(\.name))
    let library = image.variants + [icon]
    let crawled = crawledImage.variants + crawledIcon.variants
    #expect(library.count == crawled.count)
    for (made, stored) in zip(library, crawled) {
      #expect(made.name == stored.name)
      #expect(made.width == stored.width && made.height == stored.height, "\(made.name)")
      #expect(made.format == stored.format, "\(made.name)")
      #expect(made.sha256 == stored.sha256, "\(made.name): the library's blob differs from the crawl's")
      let bytes = try #require(FileManager.default.contents(atPath: out + "/" + stored.path))
      #expect([UInt8](bytes) == made.bytes, "\(made.name)")
    }
    #expect(image.placeholder == crawledImage.placeholder && image.color == crawledImage.color)
    // storm.jpg is 945×630: card 600×400 WebP, card2x its own size (never upscaled) as JPEG (a JPEG source,
    // keep-jpeg); the icon 64×64 WebP.
    #expect(library.map(\.width) == [600, 945, 64])
    #expect(library.map(\.height) == [400, 630, 64])
    #expect(library.map(\.format) == [.webp, .jpeg, .webp])
  }
}
