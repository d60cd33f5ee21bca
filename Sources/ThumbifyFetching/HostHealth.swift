import Foundation
import Synchronization

/// Counts consecutive failed attempts per host and skips a host for the rest of the run (or for
/// `skipDuration`) once it reaches the limit.
final class HostHealth: Sendable {
  private struct State {
    var failures: [String: Int] = [:]
    /// Skipped hosts and when they were skipped (`clock`'s seconds).
    var skipped: [String: Double] = [:]
  }

  private let limit: Int
  private let skipDuration: Double?
  private let clock: @Sendable () -> Double
  private let state = Mutex(State())

  init(
    limit: Int, skipDuration: Duration? = nil,
    clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
  ) {
    self.limit = max(1, limit)
    self.skipDuration = skipDuration.map {
      Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18
    }
    self.clock = clock
  }

  /// True when `host` has been given up (for this run, or for less than `skipDuration`); a host whose
  /// skip has expired is tried again with a fresh count.
  func isSkipped(_ host: String) -> Bool {
    let now = clock()
    return state.withLock { state in
      guard let since = state.skipped[host] else { return false }
      if let skipDuration, now - since >= skipDuration {
        state.skipped[host] = nil
        state.failures[host] = nil
        return false
      }
      return true
    }
  }

  /// A successful response resets the count.
  func recordSuccess(_ host: String) {
    state.withLock { _ = $0.failures.removeValue(forKey: host) }
  }

  /// Counts one failed attempt; true when this failure made the host skipped.
  @discardableResult
  func recordFailure(_ host: String) -> Bool {
    state.withLock { state in
      let count = (state.failures[host] ?? 0) + 1
      state.failures[host] = count
      guard count >= limit, state.skipped[host] == nil else { return false }
      state.skipped[host] = clock()
      return true
    }
  }
}
