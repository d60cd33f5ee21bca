import Foundation
import Synchronization
import Testing
import Thumbify
import ThumbifyFetching
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport
import ThumbifyTestSupport

@testable import ThumbifyStore

// The store's behaviour seen through a crawl (its blobs collected, its batches committed): here
// rather than in ThumbifyStoreTests, whose target builds without the pipeline.
extension CrawlJobTests {
  /// The pages another connection to the state database at `path` sees (what is committed).
  static func committedPages(in path: String) throws -> Int64 {
    let other = try SQLiteDatabase(path: path)
    return try other.query("SELECT count(*) FROM pages").first?.first?.integer ?? -1
  }

  @Test func removesOnlyOldUnreferencedBlobs() async throws {
    let directory = makeTemporaryDirectory("gc")
    defer { removeDirectory(directory) }
    // Given a crawl whose manifest references some blobs
    let fetcher = StubFetcher()
    fetcher.serve("http://site.test/a", "image: http://site.test/a.jpg")
    fetcher.serve("http://site.test/a.jpg", bytes: Array("a".utf8))
    let job = CrawlJob(
      layout: testLayout(directory), configuration: CrawlConfiguration(), fetcher: fetcher,
      extractor: StubExtractor(), thumbnailer: StubThumbnailer(root: directory))
    _ = try await job.run(openList: { URLListReader(bytes: Array("http://site.test/a\n".utf8)) })
    let referenced = blobFiles(directory)
    #expect(referenced.count == 2)
    // and two orphans, one old and one young, and an old leftover temp file
    let store = BlobStore(root: directory)
    let old = try store.store(Array("orphan-old".utf8), fileExtension: "webp")
    let young = try store.store(Array("orphan-young".utf8), fileExtension: "webp")
    let temp = directory + "/" + old.path.replacingOccurrences(of: old.sha256 + ".webp", with: ".tmp-abc")
    _ = FileManager.default.createFile(atPath: temp, contents: Data("torn".utf8))
    let hourAgo = Date().addingTimeInterval(-3_600)
    for path in [directory + "/" + old.path, temp] {
      try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: path)
    }
    for path in referenced {
      try FileManager.default.setAttributes(
        [.modificationDate: hourAgo], ofItemAtPath: directory + "/" + path)
    }
    // When gc runs with a 10-minute grace period
    let report = try GarbageCollector(layout: testLayout(directory), grace: 600).collect()
    // Then only the old orphan and the temp file are gone
    #expect(report.removed == 2)
    #expect(report.kept == 2)
    #expect(report.keptYoung == 1)
    #expect(blobFiles(directory) == referenced.union([young.path]))
    #expect(!FileManager.default.fileExists(atPath: temp))
  }

  @Test func aCrawlCommitsItsLastBatchBeforeItReturns() async throws {
    defer { removeDirectory(directory) }
    // Given a crawler whose store would keep its batch open for an hour,
    let fetcher = StubFetcher()
    fetcher.serve("http://site.test/a", "title: A")
    fetcher.serve("http://site.test/b", "title: B")
    let state = try StateStore(
      path: directory + "/state.sqlite", groupCommit: .init(maxWrites: 1000, maxDelay: .seconds(3600)))
    let crawler = Crawler(
      configuration: CrawlConfiguration(concurrency: 2), fetcher: fetcher,
      extractor: StubExtractor(), thumbnailer: StubThumbnailer(root: directory), state: state, run: 1,
      outputDirectory: directory)
    // when the crawl returns,
    try await crawler.crawl(URLListReader(bytes: Array("http://site.test/a\nhttp://site.test/b\n".utf8))) {
      _ in
    }
    // then its records are committed.
    #expect(try Self.committedPages(in: directory + "/state.sqlite") == 2)
    withExtendedLifetime(state) {}
  }

  @Test func aStalledCrawlJobCommitsWhatFinishedWithinMaxDelay() async throws {
    defer { removeDirectory(directory) }
    // Given a crawl job whose second page hangs until it is released,
    let fetcher = GatedFetcher(slowURL: "http://site.test/slow")
    defer { fetcher.release() }  // also when a requirement below fails, so the job ends
    fetcher.stub.serve("http://site.test/a", "title: A")
    fetcher.stub.serve("http://site.test/slow", "title: Slow")
    let job = CrawlJob(
      layout: testLayout(directory), configuration: CrawlConfiguration(concurrency: 2), fetcher: fetcher,
      extractor: StubExtractor(), thumbnailer: StubThumbnailer(root: directory))
    let finished = Mutex<Set<String>>([])
    let run = Task {
      try await job.run(openList: {
        URLListReader(bytes: Array("http://site.test/a\nhttp://site.test/slow\n".utf8))
      }) {
        event in
        if case .record(_, let record, _) = event {
          _ = finished.withLock { $0.insert(record.normalizedURL) }
        }
      }
    }
    // when the first page is finished and nothing else happens (generous deadlines: under
    // `swift test --parallel` on two cores, synchronous CPU-bound suites can hold the cooperative
    // pool for over a minute; CI once ran past a 60 s deadline here, and the state database did
    // not exist yet when it was queried),
    var deadline = Date().addingTimeInterval(600)
    while !finished.withLock({ $0.contains("http://site.test/a") }), Date() < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    try #require(finished.withLock { $0.contains("http://site.test/a") })
    // then its record is committed while the crawl still waits (another connection sees it),
    let statePath = testLayout(directory).stateDatabase
    deadline = Date().addingTimeInterval(300)
    var seen = try Self.committedPages(in: statePath)
    while seen < 1, Date() < deadline {
      try await Task.sleep(for: .milliseconds(10))
      seen = try Self.committedPages(in: statePath)
    }
    #expect(seen == 1)
    #expect(!finished.withLock { $0.contains("http://site.test/slow") })
    fetcher.release()
    let summary = try await run.value
    #expect(summary.outcomes[.ok] == 2)
  }
}

/// A `StubFetcher` whose `slowURL` answers only once `release()` is called (a stalled host).
private final class GatedFetcher: Fetching {
  let stub = StubFetcher()
  let slowURL: String
  private let isReleased = Mutex(false)

  init(slowURL: String) { self.slowURL = slowURL }

  func release() { isReleased.withLock { $0 = true } }

  func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
    if request.url == slowURL {
      while !isReleased.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
    }
    return try await stub.fetch(request)
  }
}
