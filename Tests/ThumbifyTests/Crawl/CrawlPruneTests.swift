import Foundation
import Synchronization
import Testing
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport
import ThumbifyTestSupport

@testable import Thumbify

/// URLs missing from a run's list: kept by default, removed with `Pruning` within its limit, and the
/// run report's counts (`CrawlJob.Summary.report`).
@Suite("Crawl job: keeping, pruning and the run report")
struct CrawlPruneTests {
  let directory = makeTemporaryDirectory()
  let fetcher = StubFetcher()
  static let pages = (1...10).map { "http://site.test/p\($0)" }

  init() {
    for (index, page) in Self.pages.enumerated() {
      fetcher.serve(page, "title: P\(index + 1)\nimage: http://site.test/img\(index + 1).jpg")
      fetcher.serve("http://site.test/img\(index + 1).jpg", bytes: Array("image \(index + 1)".utf8))
    }
    fetcher.serve("http://site.test/favicon.ico", bytes: Array("favicon".utf8))
  }

  func crawl(_ urls: [String], pruning: CrawlJob.Pruning? = nil) async throws -> (
    CrawlJob.Summary, [CrawlRecord]
  ) {
    let job = CrawlJob(
      layout: testLayout(directory), configuration: CrawlConfiguration(concurrency: 4), fetcher: fetcher,
      extractor: StubExtractor(), thumbnailer: StubThumbnailer(root: directory), pruning: pruning)
    let list = urls.joined(separator: "\n") + "\n"
    let summary = try await job.run(openList: { URLListReader(bytes: Array(list.utf8)) })
    return (summary, try readManifest(directory))
  }

  func cards() throws -> Set<String> {
    Set(try FileManager.default.contentsOfDirectory(atPath: directory + "/cards"))
  }

  func card(_ url: String) -> String { CardKey(normalizedURL: url).fileName }

  func statePages() throws -> Int { try StateStore(path: testLayout(directory).stateDatabase).pageCount() }

  @Test func aPartialListKeepsTheOtherCardsAndRecords() async throws {
    defer { removeDirectory(directory) }
    // Given a crawl of ten pages
    _ = try await crawl(Self.pages)
    fetcher.resetLog()
    // When the next run lists two of them, the second first
    let (summary, records) = try await crawl([Self.pages[4], Self.pages[1]])
    // Then only those two are fetched, the manifest lists them first in list order and then the eight
    // others, and every card stays
    #expect(Set(fetcher.requests.filter { $0.kind == .page }.map(\.url)) == [Self.pages[4], Self.pages[1]])
    let others = Self.pages.enumerated().filter { ![1, 4].contains($0.offset) }.map(\.element)
    // (The first crawl ran four at a time: "first crawled" is the order they finished.)
    #expect(records.prefix(2).map(\.normalizedURL) == [Self.pages[4], Self.pages[1]])
    #expect(records.count == 10 && Set(records.dropFirst(2).map(\.normalizedURL)) == Set(others))
    #expect(records.prefix(2).allSatisfy { $0.outcome == .notModified })
    #expect(records.dropFirst(2).allSatisfy { $0.outcome == .ok })
    #expect(try cards() == Set(Self.pages.map(card)))
    #expect(summary.kept == 8)
    #expect(summary.pruned == 0)
    #expect(summary.outcomes == [.notModified: 2])
    #expect(summary.records == 10)
    #expect(summary.isAllGood)
    #expect(try statePages() == 10)
  }

  @Test func pruningWithinTheLimitRemovesCardsRecordsAndStateRows() async throws {
    defer { removeDirectory(directory) }
    let (_, first) = try await crawl(Self.pages)
    #expect(Set(first.flatMap(\.blobPaths)).count == 10 * 2 + 1)
    let removed = Mutex<[String]>([])
    // When a run with pruning (default limit 20 %) drops two of the ten URLs
    let (summary, records) = try await crawl(
      Array(Self.pages.prefix(8)),
      pruning: CrawlJob.Pruning(onRemoved: { url in removed.withLock { $0.append(url) } }))
    // Then their records, cards and state rows are gone and they are named
    #expect(records.map(\.normalizedURL) == Array(Self.pages.prefix(8)))
    #expect(try cards() == Set(Self.pages.prefix(8).map(card)))
    #expect(summary.pruned == 2)
    // In the state's row order: the order the first run's pages finished in, which a loaded machine
    // may change (p10 before p9).
    #expect(summary.prunedURLs.sorted() == Self.pages.suffix(2).sorted())
    #expect(removed.withLock { $0 }.sorted() == Self.pages.suffix(2).sorted())
    #expect(summary.kept == 0)
    #expect(try statePages() == 8)
    // And a later run without pruning does not bring them back
    let (_, after) = try await crawl([Self.pages[0]])
    #expect(after.count == 8)
    // And their thumbnail sets are no longer referenced, so gc removes their blobs
    var referenced = Set<String>()
    try StateStore(path: testLayout(directory).stateDatabase).referencedBlobPaths { referenced.insert($0) }
    #expect(referenced == Set(after.flatMap(\.blobPaths)))
    // (two card variants per page and the shared favicon; 2 × 10 + 1 before the prune)
    #expect(referenced.count == 8 * 2 + 1)
  }

  @Test func theGuardRefusesToPruneMoreThanItsLimitAndRemovesNothing() async throws {
    defer { removeDirectory(directory) }
    _ = try await crawl(Self.pages)
    let manifestBefore = try String(contentsOfFile: directory + "/manifest.jsonl", encoding: .utf8)
    fetcher.resetLog()
    // When a run with pruning lists three of the ten URLs (7 to remove, over 20 %)
    await #expect(throws: StoreError.pruneRefused(removing: 7, known: 10, limit: "20%")) {
      _ = try await crawl(Array(Self.pages.prefix(3)), pruning: CrawlJob.Pruning())
    }
    // Then it was refused before any fetch (not after crawling the whole list, as before)
    #expect(fetcher.requests.isEmpty, "\(fetcher.requests.map(\.url))")
    // And nothing is removed or replaced
    #expect(try String(contentsOfFile: directory + "/manifest.jsonl", encoding: .utf8) == manifestBefore)
    #expect(try cards() == Set(Self.pages.map(card)))
    #expect(try statePages() == 10)
    // And a count limit is a count: 7 are allowed with 7
    let (allowed, _) = try await crawl(
      Array(Self.pages.prefix(3)), pruning: CrawlJob.Pruning(limit: .count(7)))
    #expect(allowed.pruned == 7)
    #expect(try cards() == Set(Self.pages.prefix(3).map(card)))
  }

  @Test func aForcedPruneRemovesBeyondTheLimit() async throws {
    defer { removeDirectory(directory) }
    _ = try await crawl(Self.pages)
    // The refused run fetched nothing and left its run unfinished: the forced rerun resumes it.
    fetcher.resetLog()
    await #expect(throws: StoreError.self) {
      _ = try await crawl([Self.pages[0]], pruning: CrawlJob.Pruning(limit: .count(0)))
    }
    #expect(fetcher.requests.isEmpty)
    let (summary, records) = try await crawl(
      [Self.pages[0]], pruning: CrawlJob.Pruning(limit: .count(0), isForced: true))
    #expect(summary.isResumed)
    #expect(fetcher.requests.filter { $0.kind == .page }.map(\.url) == [Self.pages[0]])
    #expect(summary.pruned == 9)
    #expect(records.map(\.normalizedURL) == [Self.pages[0]])
    #expect(try cards() == [card(Self.pages[0])])
    #expect(try statePages() == 1)
  }

  @Test func theReportCountsErrorsByCodeAndHostAndNamesTheCardsWithoutImages() async throws {
    defer { removeDirectory(directory) }
    fetcher.fail("http://site.test/p2", .httpStatus(404))
    fetcher.fail("http://site.test/p3", .httpStatus(500))
    fetcher.fail("http://other.test/x", .dns("Could not resolve host: other.test"))
    fetcher.fail("http://site.test/img4.jpg", .httpStatus(404))
    let list = Array(Self.pages.prefix(5)) + ["http://other.test/x", "not a url"]
    let (summary, _) = try await crawl(list)
    let report = summary.report
    #expect(report.byCode["page"] == ["httpStatus": 2, "dns": 1])
    #expect(report.byCode["line"]?.values.reduce(0, +) == 1)
    #expect(report.byCode["image"] == ["httpStatus": 1])
    #expect(report.failureTotal == 4)
    #expect(
      report.failures.map(\.url).filter { $0.hasPrefix("http") }.sorted() == [
        "http://other.test/x", "http://site.test/p2", "http://site.test/p3",
      ])
    #expect(report.failures.first { $0.kind == "line" }?.line == 7)
    #expect(report.withoutImageTotal == 1)
    #expect(report.withoutImage.map(\.url) == ["http://site.test/p4"])
    #expect(report.withoutImage.first?.kind == "image")
    let hosts = report.topHosts()
    #expect(hosts.map(\.host) == ["site.test", "other.test"])
    #expect(hosts[0] == CrawlReport.HostCounts(host: "site.test", urls: 5, ok: 3, failed: 2, withoutImage: 1))
    #expect(hosts[1].failed == 1)
  }

  @Test(arguments: [
    ("0", Threshold.count(0)), ("12", .count(12)), ("20%", .percent(20)), ("2.5%", .percent(2.5)),
    ("100%", .percent(100)),
  ])
  func thresholdsParse(text: String, threshold: Threshold) {
    #expect(Threshold(text) == threshold)
    #expect(Threshold(text)?.description == text)
  }

  @Test(arguments: ["", "-1", "1.5", "101%", "x%", "%", "nan%", "20 %"])
  func badThresholdsAreRejected(text: String) {
    #expect(Threshold(text) == nil)
  }

  @Test func thresholdsCompareExactly() {
    #expect(Threshold.percent(20).allows(1, of: 5))
    #expect(!Threshold.percent(20).allows(2, of: 5))
    #expect(Threshold.percent(0).allows(0, of: 0))
    #expect(!Threshold.percent(0).allows(1, of: 1_000_000))
    #expect(Threshold.count(3).allows(3, of: 4))
    #expect(!Threshold.count(3).allows(4, of: 4))
  }

  @Test func hostsAreTheAuthorityWithoutUserInfo() {
    #expect(CrawlReport.host(of: "http://example.com/a") == "example.com")
    #expect(CrawlReport.host(of: "https://u:p@example.com:8443/a?b") == "example.com:8443")
    #expect(CrawlReport.host(of: "http://[::1]:80/") == "[::1]:80")
  }
}
