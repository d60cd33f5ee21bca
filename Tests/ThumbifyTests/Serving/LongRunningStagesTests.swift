import Foundation
import Testing
import ThumbifyFetching
import ThumbifySystemTestSupport

@testable import Thumbify

/// `CrawlStages(…, isLongRunning:)`: what `CardService` (and so `thumbify serve`) runs with differs
/// from a crawl's stages in three settings (docs/serve.md, "Memory"), and nothing else shows them
/// until a service has run for days.
@Suite("Long-running stages", .timeLimit(.minutes(10)))
final class LongRunningStagesTests {
  private let directory = makeTemporaryDirectory("stages")
  deinit { try? FileManager.default.removeItem(atPath: directory) }

  private func stages(
    _ fetcher: FetcherConfiguration = FetcherConfiguration(), concurrency: Int, isLongRunning: Bool
  ) throws -> CrawlStages {
    try CrawlStages(
      fetcher: fetcher, configuration: CrawlConfiguration(concurrency: concurrency),
      outputDirectory: directory, isLongRunning: isLongRunning)
  }

  @Test("a service bounds its robots.txt verdicts and host skips and doubles its transfers")
  func aServiceBoundsWhatItKeeps() throws {
    let service = try stages(concurrency: 16, isLongRunning: true)
    defer { service.shutdown() }
    #expect(service.fetcherConfiguration.maxConcurrentTransfers == 32)
    #expect(service.fetcherConfiguration.retry.hostSkipDuration == .seconds(300))
    #expect(service.robotsCache.maxAge == 86_400)
    #expect(service.robotsCache.maxOrigins == 10_000)
  }

  @Test("a crawl keeps its verdicts and skips for the run, one transfer per URL (at least 8)")
  func aCrawlKeepsEverythingForItsRun() throws {
    let crawl = try stages(concurrency: 16, isLongRunning: false)
    defer { crawl.shutdown() }
    #expect(crawl.fetcherConfiguration.maxConcurrentTransfers == 16)
    #expect(crawl.fetcherConfiguration.retry.hostSkipDuration == nil)
    #expect(crawl.robotsCache.maxAge == nil)
    #expect(crawl.robotsCache.maxOrigins == nil)
    let narrow = try stages(concurrency: 2, isLongRunning: false)
    defer { narrow.shutdown() }
    #expect(narrow.fetcherConfiguration.maxConcurrentTransfers == 8)
  }

  @Test("a service keeps a shorter host skip it is given")
  func aShorterSkipIsKept() throws {
    var fetcher = FetcherConfiguration()
    fetcher.retry.hostSkipDuration = .seconds(60)
    let service = try stages(fetcher, concurrency: 4, isLongRunning: true)
    defer { service.shutdown() }
    #expect(service.fetcherConfiguration.retry.hostSkipDuration == .seconds(60))
  }
}
