import Foundation
import Synchronization

/// Counts consecutive failed attempts per host and skips a host for the rest of the run (or for
/// `skipDuration`) once it reaches the limit.
///
/// With a `skipDuration` (a long-running server) what it holds is bounded: past `sweepThreshold`
/// hosts, the counts of hosts whose last failure is older than `skipDuration`, and the skips that
/// have run out, are forgotten. Without one (a crawl), a skipped host stays skipped for the run.
final class HostHealth: Sendable {
  private struct State {
    var failures: [String: Int] = [:]
    /// When each counted host last failed (`clock`'s seconds).
    var lastFailure: [String: Double] = [:]
    /// Skipped hosts and when they were skipped (`clock`'s seconds).
    var skipped: [String: Double] = [:]
  }

  private let limit: Int
  private let skipDuration: Double?
  private let clock: @Sendable () -> Double
  private let sweepThreshold: Int
  private let state = Mutex(State())

  init(
    limit: Int, skipDuration: Duration? = nil, sweepThreshold: Int = 10_000,
    clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
  ) {
    self.limit = max(1, limit)
    self.sweepThreshold = max(1, sweepThreshold)
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
    state.withLock {
      $0.failures[host] = nil
      $0.lastFailure[host] = nil
    }
  }

  /// Hosts with a count or a skip held.
  var trackedHosts: Int { state.withLock { Set($0.failures.keys).union($0.skipped.keys).count } }

  /// Counts one failed attempt; true when this failure made the host skipped.
  @discardableResult
  func recordFailure(_ host: String) -> Bool {
    let now = clock()
    return state.withLock { state in
      if let skipDuration, state.failures.count + state.skipped.count > sweepThreshold {
        let recent = state.lastFailure.filter { now - $0.value < skipDuration }
        state.failures = state.failures.filter { recent[$0.key] != nil }
        state.lastFailure = recent
        state.skipped = state.skipped.filter { now - $0.value < skipDuration }
      }
      let count = (state.failures[host] ?? 0) + 1
      state.failures[host] = count
      if skipDuration != nil { state.lastFailure[host] = now }
      guard count >= limit, state.skipped[host] == nil else { return false }
      state.skipped[host] = now
      return true
    }
  }
}
