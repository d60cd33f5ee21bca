import Synchronization

/// Counts consecutive failed attempts per host and skips a host for the rest of the run
/// once it reaches the limit.
final class HostHealth: Sendable {
  private struct State {
    var failures: [String: Int] = [:]
    var skipped: Set<String> = []
  }

  private let limit: Int
  private let state = Mutex(State())

  init(limit: Int) {
    self.limit = max(1, limit)
  }

  /// True when `host` has been given up for this run.
  func isSkipped(_ host: String) -> Bool {
    state.withLock { $0.skipped.contains(host) }
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
      guard count >= limit, !state.skipped.contains(host) else { return false }
      state.skipped.insert(host)
      return true
    }
  }
}
