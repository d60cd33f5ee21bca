import Synchronization

/// A request to stop a crawl, from another task or a signal handler (`CrawlJob.stop`).
///
/// A graceful stop (`stop(cancellingAfter:)`) makes the crawl's workers take no new URL; pages in
/// flight go on, and whatever is still running after the grace period is cancelled, as by
/// `stopNow()` at once. Cancelled work is not saved (a cancelled fetch is not a failure of the
/// page): a page cancelled before it was fetched has no record, one fetched and read is saved marked
/// `incomplete` (`CrawlRecord.incomplete`), and the resumed run does the rest.
/// A stop is for good: a stopped token stops every crawl it is given afterwards at once.
package final class CrawlStop: Sendable {
  /// How far a stop has gone.
  package enum Level: Int, Sendable, Comparable {
    case running, graceful, immediate

    package static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  private struct State {
    var level = Level.running
    var nextWaiter = 0
    var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    /// Waiters cancelled before they were installed.
    var cancelled: Set<Int> = []
  }

  private let state = Mutex(State())

  package init() {}

  /// How far the stop has gone.
  package var level: Level { state.withLock { $0.level } }

  /// Whether the crawl should take no new URL.
  package var isStopping: Bool { level > .running }

  /// Stops taking new URLs; cancels what is still in flight after `grace` (a later `stopNow()` does it
  /// at once).
  package func stop(cancellingAfter grace: Duration = .seconds(2)) {
    let isFirst = state.withLock { state -> Bool in
      guard state.level == .running else { return false }
      state.level = .graceful
      return true
    }
    guard isFirst else { return }
    Task {
      try? await Task.sleep(for: grace)
      self.stopNow()
    }
  }

  /// Stops taking new URLs and cancels every transfer and image job in flight.
  package func stopNow() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.level = .immediate
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns when the stop becomes immediate, or when the calling task is cancelled.
  func waitUntilImmediate() async {
    let id = state.withLock { state -> Int in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumesNow = state.withLock { state -> Bool in
          if state.level == .immediate || state.cancelled.remove(id) != nil { return true }
          state.waiters[id] = continuation
          return false
        }
        if resumesNow { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
        guard let waiter = state.waiters.removeValue(forKey: id) else {
          if state.level != .immediate { state.cancelled.insert(id) }
          return nil
        }
        return waiter
      }
      waiter?.resume()
    }
  }
}
