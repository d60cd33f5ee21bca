import Foundation
import Testing
import Thumbify
import ThumbifyFetchingTestSupport
import ThumbifySystemTestSupport

@Suite("Public API: LinkMetadata caches", .timeLimit(.minutes(5)), .dedicatedExecutor)
struct PublicLinkMetadataCacheTests {
  @Test func aSecondCallForTheSameURLIsAnsweredFromMemory() async throws {
    // Given a provider with an in-memory cache
    let site = try await ArticleSite()
    let provider = try loopbackProvider(cache: MemoryLinkMetadataCache(capacity: 10))

    // When the same URL is asked for twice, the second time spelled differently
    let first = try await provider.metadata(for: site.articleURL)
    let spelledOtherwise = site.articleURL.absoluteString.replacingOccurrences(of: "http://", with: "HTTP://")
    let second = try await provider.metadata(for: URL(string: spelledOtherwise + "#top")!)

    // Then the page was fetched once and both answers are the same
    #expect(site.requests(for: "/article.html") == 1)
    #expect(first == second)
    // And the cached answer can still make thumbnails
    let thumbnails = try await second.imageThumbnails([.card])
    #expect(thumbnails.variants.count == 1)
  }

  @Test func withoutACacheEveryCallFetches() async throws {
    let site = try await ArticleSite()
    let provider = try loopbackProvider()
    _ = try await provider.metadata(for: site.articleURL)
    _ = try await provider.metadata(for: site.articleURL)
    #expect(site.requests(for: "/article.html") == 2)
  }

  @Test func theCardsOfACrawlAnswerWithoutAFetch() async throws {
    // Given a crawl's output directory holding the card of a URL served on loopback
    let site = try await ArticleSite()
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
      "thumbify-cards-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    let served = out.appendingPathComponent("served").path
    var fetcherConfiguration = FetcherConfiguration()
    fetcherConfiguration.allowsPrivateNetwork = true
    fetcherConfiguration.ignoresRobots = true
    let job = try CrawlJob(
      layout: OutputLayout(served, stateDirectory: out.appendingPathComponent("state").path),
      configuration: CrawlConfiguration(concurrency: 2, cpuThreads: 1), fetcher: fetcherConfiguration)
    let summary = try await job.run(list: .bytes(Array("\(site.articleURL.absoluteString)\n".utf8)))
    #expect(summary.outcomes[.ok] == 1)
    let crawled = site.requests(for: "/article.html")
    #expect(crawled == 1)

    // When a provider over those cards asks for the URL
    let provider = try loopbackProvider(cache: CardDirectoryCache(directory: served))
    let metadata = try await provider.metadata(for: site.articleURL)

    // Then the card answered: no fetch, and the crawl's thumbnails are in it
    #expect(site.requests(for: "/article.html") == crawled)
    #expect(metadata.title == "Storm season")
    #expect(metadata.image?.url == site.nginx.url("/img/card.jpg"))
    #expect(metadata.image?.width == ArticleSite.imageSize.width)
    #expect(metadata.image?.variants.isEmpty == false)
    #expect(metadata.originalURL == site.articleURL)
  }

  @Test func aCrawlCardThatFailedIsAMiss() async throws {
    let server = try await FaultServer()
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
      "thumbify-cards-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    let url = server.url("/ok")
    let key = try CardKey(url: url)
    let cards = out.appendingPathComponent("cards")
    try FileManager.default.createDirectory(at: cards, withIntermediateDirectories: true)
    let failed = #"{"key":"\#(key.hex)","normalizedURL":"\#(url)","schema":1,"stale":false,"state":"failed"}"#
    try Data(failed.utf8).write(to: cards.appendingPathComponent(key.fileName))
    let provider = try loopbackProvider(cache: CardDirectoryCache(directory: out.path))
    let metadata = try await provider.metadata(for: URL(string: url)!)
    #expect(metadata.title == "ok")
  }
}
