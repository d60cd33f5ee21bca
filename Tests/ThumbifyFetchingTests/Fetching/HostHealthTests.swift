import Synchronization
import Testing

@testable import ThumbifyFetching
@testable import ThumbifyTestSupport

@Suite("Host health: skipping a failing host", .offThePool)
struct HostHealthTests {
  /// A clock the test moves by hand.
  final class ManualClock: Sendable {
    let now = Mutex<Double>(1_000)
  }

  @Test("a host is skipped after the limit of failures, for good without a skip duration")
  func skippedForTheRun() {
    let clock = ManualClock()
    let health = HostHealth(limit: 2, clock: { clock.now.withLock { $0 } })
    #expect(!health.recordFailure("a"))
    #expect(health.recordFailure("a"))
    #expect(health.isSkipped("a"))
    clock.now.withLock { $0 += 1_000_000 }
    #expect(health.isSkipped("a"))
    #expect(!health.isSkipped("b"))
  }

  @Test("with a skip duration, the host is tried again once it has passed, with a fresh count")
  func forgivenAfterTheDuration() {
    let clock = ManualClock()
    let health = HostHealth(limit: 2, skipDuration: .seconds(300), clock: { clock.now.withLock { $0 } })
    health.recordFailure("a")
    health.recordFailure("a")
    clock.now.withLock { $0 += 299 }
    #expect(health.isSkipped("a"))
    clock.now.withLock { $0 += 1 }
    #expect(!health.isSkipped("a"))
    #expect(!health.recordFailure("a"))  // counting starts again
    #expect(health.recordFailure("a"))
    #expect(health.isSkipped("a"))
  }
}
