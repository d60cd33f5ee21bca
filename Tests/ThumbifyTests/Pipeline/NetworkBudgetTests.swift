import Foundation
import Synchronization
import Testing
import ThumbifyFetching
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport
import ThumbifyTestSupport

@testable import Thumbify

/// A fetcher that reports scripted network time, whatever time passes: `networkTimes[url]` per fetch
/// (a fetch whose time is over its request's timeout fails `timedOut`, charged the timeout), after
/// `queueDelay` of uncounted waiting, as in a busy host's queue.
private final class MeteredFetcher: Fetching {
  let stub = StubFetcher()
  let networkTimes: [String: Duration]
  let queueDelay: Duration
  /// How much less than its timeout a timed-out fetch measures (curl's timer and the fetcher's
  /// clock do not start at the same instant).
  let timeoutsMeasureShort: Duration
  private let log = Mutex<[FetchRequest]>([])

  init(
    networkTimes: [String: Duration] = [:], queueDelay: Duration = .zero,
    timeoutsMeasureShort: Duration = .zero
  ) {
    self.networkTimes = networkTimes
    self.queueDelay = queueDelay
    self.timeoutsMeasureShort = timeoutsMeasureShort
  }

  var requests: [FetchRequest] { log.withLock { $0 } }
  func timeout(of url: String) -> Duration?? { requests.first { $0.url == url }.map(\.timeout) }

  func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
    try await measuredFetch(request).result.get()
  }

  func measuredFetch(_ request: FetchRequest) async -> MeasuredFetch {
    log.withLock { $0.append(request) }
    if queueDelay > .zero { try? await Task.sleep(for: queueDelay) }
    let time = networkTimes[request.url] ?? .zero
    if let cap = request.timeout, time > cap {
      return MeasuredFetch(
        result: .failure(.timedOut("scripted tarpit")), networkTime: cap - timeoutsMeasureShort)
    }
    do {
      return MeasuredFetch(result: .success(try await stub.fetch(request)), networkTime: time)
    } catch {
      return MeasuredFetch(result: .failure(error), networkTime: time)
    }
  }
}

@Suite("A URL's network budget")
struct NetworkBudgetTests {
  @Test func chargesAddUpAndWhatIsLeftNeverGoesBelowZero() {
    var budget = NetworkBudget(total: .seconds(2))
    #expect(budget.remaining == .seconds(2) && !budget.isUsedUp)
    budget.charge(.milliseconds(500))
    budget.charge(.milliseconds(-100))  // a clock that went backwards charges nothing
    #expect(budget.used == .milliseconds(500))
    #expect(budget.remaining == .milliseconds(1_500))
    budget.charge(.seconds(3))
    #expect(budget.remaining == .zero && budget.isUsedUp)
    #expect(NetworkBudget(total: .seconds(-1)).isUsedUp)
  }

  @Test func theUsedUpErrorNamesTheTimeoutAndKeepsTheLastFailure() {
    let budget = NetworkBudget(total: .milliseconds(2_500))
    let error = budget.usedUpError(
      untried: 2, stage: "image",
      lastError: RecordError(code: "timedOut", message: "Too slow.", stage: "image"))
    #expect(error.code == "timedOut")
    #expect(error.stage == "image")
    #expect(
      error.message
        == "The URL's 2.5 s timeout was used up; 2 image candidates were not fetched. The last one tried: Too slow."
    )
    #expect(
      NetworkBudget(total: .seconds(30)).usedUpError(untried: 1, stage: "icon", lastError: nil).message
        == "The URL's 30 s timeout was used up; 1 icon candidate was not fetched.")
  }

  fileprivate func crawl(_ fetcher: MeteredFetcher, page: String, timeout: Duration) async throws
    -> CrawlRecord
  {
    let directory = makeTemporaryDirectory("budget")
    defer { removeDirectory(directory) }
    let job = CrawlJob(
      layout: testLayout(directory), configuration: CrawlConfiguration(concurrency: 1, timeout: timeout),
      fetcher: fetcher, extractor: StubExtractor(), thumbnailer: StubThumbnailer(root: directory))
    _ = try await job.run(openList: { URLListReader(bytes: Array((page + "\n").utf8)) })
    return try #require(try readManifest(directory).first)
  }

  @Test func thePageAndTheCandidatesAfterItShareTheTimeout() async throws {
    // Given a page taking 0.5 s of a 2 s timeout, a first image candidate that would take 3 s, and
    // an icon that fails after 0.5 s before the favicon
    let fetcher = MeteredFetcher(networkTimes: [
      "http://site.test/p": .milliseconds(500), "http://site.test/slow.jpg": .seconds(3),
      "http://site.test/gone.png": .milliseconds(500),
    ])
    fetcher.stub.serve(
      "http://site.test/p",
      "title: P\nimage: http://site.test/slow.jpg\nimage: http://site.test/fast.jpg\n"
        + "icon: http://site.test/gone.png")
    fetcher.stub.serve("http://site.test/fast.jpg", bytes: Array("fast".utf8))
    fetcher.stub.serve("http://site.test/favicon.ico", bytes: Array("favicon".utf8))

    // When it is crawled
    let record = try await crawl(fetcher, page: "http://site.test/p", timeout: .seconds(2))

    // Then each fetch was given what was left, the image and icon each what the page left
    #expect(fetcher.timeout(of: "http://site.test/p") == .seconds(2))
    #expect(fetcher.timeout(of: "http://site.test/slow.jpg") == .milliseconds(1_500))
    #expect(fetcher.timeout(of: "http://site.test/gone.png") == .milliseconds(1_500))
    #expect(fetcher.timeout(of: "http://site.test/favicon.ico") == .seconds(1))
    // and the image candidate after the one that used the budget up was not fetched
    #expect(fetcher.timeout(of: "http://site.test/fast.jpg") == nil)
    #expect(record.metadata?.title == "P")
    #expect(record.image == nil)
    #expect(record.imageError?.code == "timedOut")
    #expect(
      record.imageError?.message
        == "The URL's 2 s timeout was used up; 1 image candidate was not fetched. The last one tried: "
        + "The request timed out: scripted tarpit")
    #expect(record.icon?.source == "http://site.test/favicon.ico")
  }

  /// A loaded machine: the first candidate's fetch timed out a few milliseconds short of the time it
  /// was given by the fetcher's clock, and the second candidate was fetched in what seemed left.
  @Test func aCandidateThatTimedOutUsedWhatWasLeftWhateverItMeasured() async throws {
    // Given a first image candidate that times out, measured 5 ms short of its timeout
    let fetcher = MeteredFetcher(
      networkTimes: ["http://site.test/slow.jpg": .seconds(3)], timeoutsMeasureShort: .milliseconds(5))
    fetcher.stub.serve(
      "http://site.test/p", "title: P\nimage: http://site.test/slow.jpg\nimage: http://site.test/fast.jpg")
    fetcher.stub.serve("http://site.test/fast.jpg", bytes: Array("fast".utf8))

    // When it is crawled
    let record = try await crawl(fetcher, page: "http://site.test/p", timeout: .seconds(2))

    // Then the second candidate was not fetched: the budget is used up
    #expect(fetcher.timeout(of: "http://site.test/slow.jpg") == .seconds(2))
    #expect(fetcher.timeout(of: "http://site.test/fast.jpg") == nil)
    #expect(record.imageError?.code == "timedOut")
    #expect(record.imageError?.message.contains("1 image candidate was not fetched") == true)
  }

  @Test func timeSpentWaitingInAQueueIsNotCharged() async throws {
    // Given fetches that each wait 0.2 s in a queue and use no network time
    let fetcher = MeteredFetcher(queueDelay: .milliseconds(200))
    fetcher.stub.serve(
      "http://site.test/q", "title: Q\nimage: http://site.test/missing.jpg\nimage: http://site.test/ok.jpg")
    fetcher.stub.serve("http://site.test/ok.jpg", bytes: Array("ok".utf8))

    // When the page is crawled with a 0.1 s timeout
    let record = try await crawl(fetcher, page: "http://site.test/q", timeout: .milliseconds(100))

    // Then every candidate is still tried: the card took longer than the timeout, all of it waiting
    #expect(record.image?.source == "http://site.test/ok.jpg")
    #expect(record.imageError == nil)
  }
}
