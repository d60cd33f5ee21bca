import Foundation
import Testing
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport
import ThumbifyTestSupport

@testable import Thumbify

/// The crawl pipeline with doubles for the network, extraction and imaging: what is fetched,
/// what is reused, what the manifest says.
@Suite("Crawl job with doubles")
struct CrawlJobTests {
  let directory = makeTemporaryDirectory()
  let fetcher = StubFetcher()

  init() {
    fetcher.serve(
      "http://site.test/a", "title: A\nimage: http://site.test/og.jpg\nicon: http://site.test/i.png")
    fetcher.serve(
      "http://site.test/b", "title: B\nimage: http://site.test/og.jpg\nicon: http://site.test/i.png")
    fetcher.serve("http://site.test/c", "title: C\nimage: http://site.test/c.jpg")
    fetcher.serve("http://site.test/og.jpg", bytes: Array("site-wide image".utf8))
    fetcher.serve("http://site.test/c.jpg", bytes: Array("own image".utf8))
    fetcher.serve("http://site.test/i.png", bytes: Array("icon".utf8))
    fetcher.serve("http://site.test/favicon.ico", bytes: Array("favicon".utf8))
  }

  func crawl(_ list: String, configuration: CrawlConfiguration = CrawlConfiguration(concurrency: 4))
    async throws -> (CrawlJob.Summary, [CrawlRecord], StubThumbnailer)
  {
    let thumbnailer = StubThumbnailer(root: directory)
    let job = CrawlJob(
      layout: testLayout(directory), configuration: configuration, fetcher: fetcher,
      extractor: StubExtractor(),
      thumbnailer: thumbnailer)
    let summary = try await job.run(openList: { URLListReader(bytes: Array(list.utf8)) })
    return (summary, try readManifest(directory), thumbnailer)
  }

  static let list = """
    # three pages, one shared og:image
    http://site.test/a

    HTTP://SITE.TEST:80/b#top
    not a url
    http://site.test/c
    http://site.test/a
    """

  @Test func fullRunWritesOneRecordPerURLInInputOrder() async throws {
    defer { removeDirectory(directory) }
    let (summary, records, _) = try await crawl(Self.list)
    #expect(
      records.map(\.normalizedURL) == ["http://site.test/a", "http://site.test/b", "http://site.test/c"])
    #expect(
      records.map(\.originalURL) == ["http://site.test/a", "HTTP://SITE.TEST:80/b#top", "http://site.test/c"])
    #expect(records.allSatisfy { $0.outcome == .ok && $0.schema == CrawlRecord.schemaVersion })
    #expect(records[0].metadata?.title == "A")
    #expect(records[0].image?.variants.map(\.name) == ["card", "card2x"])
    #expect(records[0].icon?.variants.map(\.name) == ["icon"])
    #expect(records[2].icon?.source == "http://site.test/favicon.ico")
    #expect(summary.invalidLines == 1)
    #expect(summary.duplicates == 1)
    #expect(summary.reused == 0)
    #expect(summary.outcomes[.ok] == 3)
    #expect(!summary.isAllGood)
    for path in records.flatMap(\.blobPaths) {
      #expect(FileManager.default.fileExists(atPath: directory + "/" + path))
    }
  }

  @Test func aSharedImageIsFetchedAndResizedOnce() async throws {
    defer { removeDirectory(directory) }
    var list = ""
    for index in 0..<40 {
      fetcher.serve("http://site.test/p\(index)", "title: P\(index)\nimage: http://site.test/og.jpg")
      list += "http://site.test/p\(index)\n"
    }
    let (_, records, thumbnailer) = try await crawl(list, configuration: CrawlConfiguration(concurrency: 16))
    #expect(records.count == 40)
    #expect(fetcher.requests(for: "http://site.test/og.jpg").count == 1)
    #expect(thumbnailer.sources.filter { $0 == "http://site.test/og.jpg" }.count == 1)
    #expect(Set(records.compactMap { $0.image?.variants.first?.path }).count == 1)
  }

  @Test func cardsFollowTheManifestAndStaleOnesAreRemoved() async throws {
    defer { removeDirectory(directory) }
    func cardNames() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: directory + "/cards").sorted()
    }
    func names(_ urls: [String]) -> [String] {
      urls.map { CardKey(normalizedURL: $0).fileName }.sorted()
    }
    // Given a crawl of three URLs (one listed twice),
    _ = try await crawl(Self.list)
    #expect(
      try cardNames() == names(["http://site.test/a", "http://site.test/b", "http://site.test/c"]))
    // and a card a killed writer left (its URL is in no record) and a temporary file,
    let orphan = CardKey(normalizedURL: "http://site.test/orphan").fileName
    #expect(FileManager.default.createFile(atPath: directory + "/cards/" + orphan, contents: Data("{}".utf8)))
    #expect(FileManager.default.createFile(atPath: directory + "/cards/.tmp-dead", contents: nil))
    // when the next run's list drops one of them,
    let (summary, records, _) = try await crawl(
      "http://site.test/c\nhttp://site.test/a\nhttp://site.test/c\n")
    // then the listed URLs come first in list order, the dropped one is kept after them (no silent
    // deletion), and only the files no record names are removed.
    #expect(
      records.map(\.normalizedURL) == ["http://site.test/c", "http://site.test/a", "http://site.test/b"])
    #expect(summary.kept == 1)
    #expect(summary.records == 3)
    #expect(summary.outcomes.values.reduce(0, +) == 2)
    #expect(
      try cardNames() == names(["http://site.test/a", "http://site.test/b", "http://site.test/c"]))
    let card = try JSONDecoder().decode(
      Card.self,
      from: Data(contentsOf: URL(fileURLWithPath: directory + "/cards/" + names(["http://site.test/c"])[0])))
    #expect(card == Card(record: records[0]))
  }

  @Test func rerunSendsConditionalRequestsAndDoesNoImageWork() async throws {
    defer { removeDirectory(directory) }
    let (_, first, _) = try await crawl(Self.list)
    let blobsBefore = blobFiles(directory)
    fetcher.resetLog()
    let (summary, second, thumbnailer) = try await crawl(Self.list)
    #expect(second.allSatisfy { $0.outcome == .notModified })
    #expect(summary.outcomes[.notModified] == 3)
    #expect(fetcher.requests.allSatisfy { $0.etag != nil })
    #expect(!fetcher.requests.contains { $0.kind == .image })
    #expect(thumbnailer.sources.isEmpty)
    #expect(second.map(\.image) == first.map(\.image))
    #expect(blobFiles(directory) == blobsBefore)
  }

  @Test func aChangedPageIsUpdated() async throws {
    defer { removeDirectory(directory) }
    _ = try await crawl(Self.list)
    fetcher.serve("http://site.test/c", "title: C2\nimage: http://site.test/og.jpg", etag: "\"v2\"")
    let (_, records, _) = try await crawl(Self.list)
    #expect(records[2].outcome == .ok)
    #expect(records[2].metadata?.title == "C2")
    #expect(records[2].image?.source == "http://site.test/og.jpg")
    #expect(records[2].fetch?.etag == "\"v2\"")
  }

  @Test func aFailingPageKeepsItsLastGoodCardMarkedStale() async throws {
    defer { removeDirectory(directory) }
    let (_, first, _) = try await crawl(Self.list)
    fetcher.fail("http://site.test/b", .httpStatus(503))
    fetcher.fail("http://site.test/new", .dns("Could not resolve host: site.test"))
    let (summary, records, _) = try await crawl(Self.list + "\nhttp://site.test/new")
    #expect(records[1].outcome == .stale)
    #expect(
      records[1].error
        == RecordError(code: "httpStatus", message: "The server answered HTTP 503.", stage: "fetch"))
    #expect(records[1].metadata == first[1].metadata)
    #expect(records[1].image == first[1].image)
    #expect(records[3].outcome == .failed)
    #expect(records[3].error?.code == "dns")
    #expect(summary.outcomes[.stale] == 1)
    #expect(summary.outcomes[.failed] == 1)
    // The next good fetch clears the stale mark and the error.
    fetcher.serve("http://site.test/b", "title: B again", etag: "\"v3\"")
    let (_, third, _) = try await crawl(Self.list)
    #expect(third[1].outcome == .ok)
    #expect(third[1].error == nil)
  }

  @Test func maxAgeForcesAnUnconditionalRefresh() async throws {
    defer { removeDirectory(directory) }
    _ = try await crawl(Self.list)
    fetcher.resetLog()
    let (_, records, thumbnailer) = try await crawl(Self.list, configuration: CrawlConfiguration(maxAge: 0))
    #expect(records.allSatisfy { $0.outcome == .ok })
    #expect(fetcher.requests.allSatisfy { $0.etag == nil })
    // Unchanged bytes are recognised by their hash: no new thumbnails are made.
    #expect(thumbnailer.sources.isEmpty)
  }

  @Test func imageFailuresFallBackDownTheCandidates() async throws {
    defer { removeDirectory(directory) }
    fetcher.serve("http://site.test/d", "image: http://site.test/missing.jpg\nimage: http://site.test/c.jpg")
    fetcher.serve(
      "http://site.test/e", "image: http://site.test/corrupt.jpg\nicon: http://site.test/gone.png")
    fetcher.serve("http://site.test/corrupt.jpg", bytes: Array("CORRUPT".utf8))
    fetcher.fail("http://site.test/favicon.ico", .httpStatus(404))
    let (summary, records, _) = try await crawl("http://site.test/d\nhttp://site.test/e\n")
    #expect(records[0].image?.source == "http://site.test/c.jpg")
    #expect(records[0].imageError == nil)
    #expect(records[1].outcome == .ok)
    #expect(records[1].image == nil)
    #expect(records[1].imageError?.code == "undecodableImage")
    #expect(records[1].imageError?.stage == "image")
    #expect(records[1].iconError?.code == "httpStatus")
    #expect(summary.imageFailures == 2)
  }

  @Test func theFaviconIsTriedWhenAPageListsMoreIconsThanAreTried() async throws {
    defer { removeDirectory(directory) }
    // Given pages whose icons all fail, more of them than the crawl tries (4 by default), one page
    // listing /favicon.ico itself after them
    let icons = (1...5).map { "icon: http://site.test/gone\($0).png" }.joined(separator: "\n")
    fetcher.serve("http://site.test/many", icons)
    fetcher.serve("http://site.test/listed", icons + "\nicon: http://site.test/favicon.ico")
    let (_, records, _) = try await crawl("http://site.test/many\nhttp://site.test/listed\n")
    // Then each falls back to the favicon as its last candidate
    #expect(
      records.map { $0.icon?.source } == ["http://site.test/favicon.ico", "http://site.test/favicon.ico"])
    #expect(records.allSatisfy { $0.iconError == nil })
    #expect(fetcher.requests(for: "http://site.test/gone4.png").isEmpty)
  }

  @Test func anInterruptedRunIsResumedWithoutRedoingFinishedURLs() async throws {
    defer { removeDirectory(directory) }
    // Given a run that finished two URLs and then died before writing its manifest
    let state = try StateStore(path: testLayout(directory).stateDatabase)
    let run = try state.beginRun(options: ThumbnailVariant.defaults.cacheKey)
    let crawler = Crawler(
      configuration: CrawlConfiguration(), fetcher: fetcher, extractor: StubExtractor(),
      thumbnailer: StubThumbnailer(root: directory), state: state, run: run.id, outputDirectory: directory)
    try await crawler.crawl(URLListReader(bytes: Array("http://site.test/a\nhttp://site.test/c\n".utf8))) {
      _ in
    }
    fetcher.resetLog()
    // When the next run starts
    let (summary, records, _) = try await crawl(Self.list)
    // Then it resumes: only the unfinished URL is fetched
    #expect(summary.isResumed)
    #expect(summary.reused >= 2)
    #expect(Set(fetcher.requests.filter { $0.kind == .page }.map(\.url)) == ["http://site.test/b"])
    #expect(records.count == 3)
    // And it writes the cards the killed run had not (its crawler wrote none).
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory + "/cards").sorted()
        == records.map { CardKey(normalizedURL: $0.normalizedURL).fileName }.sorted())
    // And a run after a finished one starts afresh.
    let (next, _, _) = try await crawl(Self.list)
    #expect(!next.isResumed)
  }

  /// A library caller stops a job (as the CLI does on SIGINT): the run is left unfinished, its manifest
  /// holds its own records and the earlier good ones of the URLs it did not reach, and the next run
  /// resumes it, fetching only those.
  @Test func aStoppedJobKeepsEarlierRecordsAndTheNextRunDoesOnlyTheRest() async throws {
    defer { removeDirectory(directory) }
    _ = try await crawl(Self.list)
    fetcher.serve("http://site.test/a", "title: A2", etag: "\"v2\"")
    fetcher.serve("http://site.test/b", "title: B2", etag: "\"v2\"")
    fetcher.serve("http://site.test/c", "title: C2", etag: "\"v2\"")
    fetcher.resetLog()
    let job = CrawlJob(
      layout: testLayout(directory), configuration: CrawlConfiguration(concurrency: 1), fetcher: fetcher,
      extractor: StubExtractor(), thumbnailer: StubThumbnailer(root: directory))
    // The one worker finishes its page, then takes no other.
    let stopped = try await job.run(
      openList: { URLListReader(bytes: Array(Self.list.utf8)) },
      onEvent: { event in
        if case .record = event { job.stop() }
      })
    #expect(stopped.isInterrupted)
    #expect(!stopped.isAllGood)
    #expect(stopped.outcomes == [.ok: 1])
    #expect(stopped.keptFromEarlierRuns == 2)
    #expect(try readManifest(directory).map { $0.metadata?.title ?? "" } == ["A2", "B", "C"])
    #expect(fetcher.requests.filter { $0.kind == .page }.map(\.url) == ["http://site.test/a"])
    fetcher.resetLog()
    let (resumed, records, _) = try await crawl(Self.list)
    #expect(resumed.isResumed && !resumed.isInterrupted)
    #expect(resumed.reused >= 1)
    #expect(
      fetcher.requests.filter { $0.kind == .page }.map(\.url).sorted() == [
        "http://site.test/b", "http://site.test/c",
      ])
    #expect(records.map { $0.metadata?.title ?? "" } == ["A2", "B2", "C2"])
  }

  /// `stopNow()` cancels the page in flight: nothing is saved for it (not a `cancelled` failure the
  /// resumed run would reuse), and the next run fetches it.
  @Test func aJobStoppedAtOnceSavesNoCancelledPage() async throws {
    defer { removeDirectory(directory) }
    let slow = StubFetcher(delay: .seconds(300))
    slow.serve("http://site.test/a", "title: A")
    let job = CrawlJob(
      layout: testLayout(directory), configuration: CrawlConfiguration(concurrency: 1), fetcher: slow,
      extractor: StubExtractor(), thumbnailer: StubThumbnailer(root: directory))
    async let summary = job.run(openList: { URLListReader(bytes: Array("http://site.test/a\n".utf8)) })
    while slow.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
    let stopped = Date()
    job.stopNow()
    #expect(try await summary.isInterrupted)
    // Well under the fetch's 300 s (a loaded CI machine took 9.8 s once; the suite beside three busy
    // loops, 22.6 s).
    #expect(Date().timeIntervalSince(stopped) < 60)
    #expect(try readManifest(directory).isEmpty)
    let state = try StateStore(path: testLayout(directory).stateDatabase)
    #expect(try state.page("http://site.test/a").isEmpty)
  }

  @Test func aSecondRunOnTheSameDirectoryIsRefused() async throws {
    defer { removeDirectory(directory) }
    let lock = try RunLock(testLayout(directory))
    await #expect {
      _ = try await crawl(Self.list)
    } throws: { error in
      guard let error = error as? StoreError, case .locked(_, let pid) = error else { return false }
      return pid == getpid()
    }
    withExtendedLifetime(lock) {}
    // Once released, the directory can be crawled.
    _ = consume lock
    let (summary, _, _) = try await crawl(Self.list)
    #expect(summary.records == 3)
  }
}
