import Synchronization
import Testing

@testable import ThumbifyFetching

/// `RobotsCache(maxAge:maxOrigins:)`: what a long-running server keeps of robots.txt.
@Suite("robots.txt cache bounds", .timeLimit(.minutes(10)))
struct RobotsCacheBoundsTests {
  /// A clock the test moves by hand, and a robots.txt "fetch" that counts its calls (every origin
  /// answers 404: allow all, an entry kept).
  final class Harness: Sendable {
    let now = Mutex<Double>(1_000)
    let fetches = Mutex<[String]>([])

    var fetch: RobotsCache.Fetch {
      { request in
        self.fetches.withLock { $0.append(request.url) }
        return .failure(.httpStatus(404))
      }
    }

    /// A lookup as the fetcher makes it: a caller that waited for the fetch reports its request queued.
    func ask(_ cache: RobotsCache, _ origin: String) async {
      if await cache.verdict(for: origin, fetch: fetch).isWaiter { _ = cache.waiterQueued(origin) }
    }
  }

  @Test("a verdict older than maxAge is fetched again; a younger one is not")
  func ageOut() async {
    let harness = Harness()
    let cache = RobotsCache(maxAge: .seconds(100), maxOrigins: nil) { harness.now.withLock { $0 } }
    await harness.ask(cache, "http://a.test")
    harness.now.withLock { $0 += 99 }
    await harness.ask(cache, "http://a.test")
    #expect(harness.fetches.withLock { $0.count } == 1)
    harness.now.withLock { $0 += 1 }
    await harness.ask(cache, "http://a.test")
    #expect(harness.fetches.withLock { $0 } == ["http://a.test/robots.txt", "http://a.test/robots.txt"])
  }

  @Test("past maxOrigins the older verdicts are forgotten; without limits every one is kept")
  func originLimit() async {
    let harness = Harness()
    let bounded = RobotsCache(maxAge: nil, maxOrigins: 4) { harness.now.withLock { $0 } }
    let unbounded = RobotsCache()
    for index in 0..<50 {
      harness.now.withLock { $0 += 1 }
      await harness.ask(bounded, "http://h\(index).test")
      await harness.ask(unbounded, "http://h\(index).test")
    }
    #expect(bounded.resolvedCount <= 4)
    #expect(bounded.export().count == bounded.resolvedCount)
    // The newest is kept, the oldest is fetched again when asked.
    #expect(bounded.export().map(\.origin).contains("http://h49.test"))
    #expect(unbounded.resolvedCount == 50)
    let before = harness.fetches.withLock { $0.count }
    await harness.ask(bounded, "http://h0.test")
    #expect(harness.fetches.withLock { $0.count } == before + 1)
  }
}
