import Synchronization
import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyFetching

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

  @Test("with a skip duration, hosts whose last failure is older are forgotten past the threshold")
  func sweptWithASkipDuration() {
    let clock = ManualClock()
    let health = HostHealth(
      limit: 2, skipDuration: .seconds(300), sweepThreshold: 10, clock: { clock.now.withLock { $0 } })
    let forever = HostHealth(limit: 2, sweepThreshold: 10, clock: { clock.now.withLock { $0 } })
    for index in 0..<20 {
      health.recordFailure("h\(index)")
      health.recordFailure("h\(index)")
      forever.recordFailure("h\(index)")
      forever.recordFailure("h\(index)")
    }
    // Recent failures are all kept (each of these hosts is skipped now).
    #expect(health.trackedHosts == 20)
    #expect(health.isSkipped("h0"))
    clock.now.withLock { $0 += 300 }
    health.recordFailure("new")
    forever.recordFailure("new")
    #expect(health.trackedHosts == 1)
    // Without a skip duration a skipped host stays skipped for the run: nothing is forgotten.
    #expect(forever.trackedHosts == 21)
    #expect(forever.isSkipped("h0"))
  }
}
