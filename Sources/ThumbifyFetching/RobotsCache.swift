import Foundation
import Synchronization

/// robots.txt per origin for one run: fetched once per origin (concurrent callers share
/// one fetch) and kept, with validators, so callers can persist entries across runs.
///
/// Seed it with the entries exported by an earlier run: the first lookup of a seeded origin
/// revalidates with `If-None-Match`/`If-Modified-Since` and reuses the stored text on 304.
///
/// A long-running process (`thumbify serve`) bounds it: a verdict older than `maxAge` is fetched
/// again (revalidated with its own validators; RFC 9309 §2.4 asks for no more than 24 hours), and
/// past `maxOrigins` verdicts the older half is forgotten.
package final class RobotsCache: Sendable {
  /// A robots.txt as stored between runs.
  package struct Entry: Sendable, Codable, Equatable {
    /// `scheme://host:port`.
    package var origin: String
    /// The HTTP status it was fetched with (4xx entries mean "allow all").
    package var status: Int
    /// The text kept: whole lines only, at most the robots body cap.
    package var body: String
    package var etag: String?
    package var lastModified: String?

    package init(origin: String, status: Int, body: String, etag: String? = nil, lastModified: String? = nil)
    {
      self.origin = origin
      self.status = status
      self.body = body
      self.etag = etag
      self.lastModified = lastModified
    }
  }

  /// Fetches one robots.txt request; `CurlFetcher` passes its single-attempt fetch.
  typealias Fetch = @Sendable (FetchRequest) async -> Result<FetchResponse, FetchError>

  private struct State {
    var seeds: [String: Entry] = [:]
    var resolved: [String: Resolved] = [:]
    var inFlight: [String: Task<Resolved, Never>] = [:]
    /// Per origin, the callers that waited for its fetch and have not called `waiterQueued` yet.
    var waiters: [String: Int] = [:]
    /// When each verdict was resolved (`clock`'s seconds), when verdicts age or are counted.
    var resolvedAt: [String: Double] = [:]
  }

  /// One origin's verdict for this run.
  struct Resolved: Sendable {
    var rules: RobotsRules
    /// What to store for the next run (nil for 5xx and unreachable).
    var entry: Entry?
    /// Why robots.txt could not be read, when a network error (not a status) is the reason.
    var unreachable: FetchError?

    init(rules: RobotsRules, entry: Entry? = nil, unreachable: FetchError? = nil) {
      self.rules = rules
      self.entry = entry
      self.unreachable = unreachable
    }
  }

  private let userAgent: String
  /// Seconds a verdict is used before robots.txt is fetched again; nil: for the life of the cache.
  package let maxAge: Double?
  /// Verdicts kept at most (the older half is forgotten past it); nil: no limit.
  package let maxOrigins: Int?
  private let clock: @Sendable () -> Double
  private let state = Mutex(State())

  /// Creates a cache, optionally seeded with entries exported by an earlier run.
  ///
  /// - Parameters:
  ///   - maxAge: how long a verdict is used before robots.txt is fetched again; nil: for the life of
  ///     the cache (a crawl's run).
  ///   - maxOrigins: how many verdicts are kept; past it the older half is forgotten. nil: no limit
  ///     (a crawl exports them all for its next run).
  package convenience init(
    seed: [Entry] = [], userAgent: String = "thumbify", maxAge: Duration? = nil, maxOrigins: Int? = nil
  ) {
    self.init(seed: seed, userAgent: userAgent, maxAge: maxAge, maxOrigins: maxOrigins) {
      ProcessInfo.processInfo.systemUptime
    }
  }

  /// A cache whose ages are measured by `clock` (seconds; tests move it by hand).
  init(
    seed: [Entry] = [], userAgent: String = "thumbify", maxAge: Duration?, maxOrigins: Int?,
    clock: @escaping @Sendable () -> Double
  ) {
    self.userAgent = userAgent
    self.maxAge = maxAge.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
    self.maxOrigins = maxOrigins.map { max(2, $0) }
    self.clock = clock
    self.seed(seed)
  }

  /// Origins with a verdict held.
  var resolvedCount: Int { state.withLock { $0.resolved.count } }

  /// Adds entries from an earlier run; they are revalidated before use.
  package func seed(_ entries: [Entry]) {
    state.withLock { state in
      for entry in entries { state.seeds[entry.origin] = entry }
    }
  }

  /// The entries fetched or revalidated in this run (5xx and unreachable ones are not kept).
  package func export() -> [Entry] {
    state.withLock { state in state.resolved.values.compactMap(\.entry).sorted { $0.origin < $1.origin } }
  }

  /// The verdict for `origin`, fetching its robots.txt once if needed; `isWaiter` when the caller
  /// waited for the fetch, and must then call `waiterQueued(origin)` once its own request is queued
  /// (or given up). `hold` is called before the fetch starts (the fetcher holds the host's queue, so
  /// the waiters, woken together in no order, start in their priority order: `HostQueue.hold`).
  func verdict(for origin: String, hold: () -> Void = {}, fetch: @escaping Fetch) async -> (
    resolved: Resolved, isWaiter: Bool
  ) {
    let now = maxAge == nil ? 0 : clock()
    let task = state.withLock { state -> Task<Resolved, Never>? in
      if let maxAge, let at = state.resolvedAt[origin], now - at >= maxAge {
        // Too old: fetched again, revalidated with what it was fetched with.
        if let entry = state.resolved[origin]?.entry { state.seeds[origin] = entry }
        state.resolved[origin] = nil
        state.resolvedAt[origin] = nil
      }
      if state.resolved[origin] != nil { return nil }
      state.waiters[origin, default: 0] += 1
      if let task = state.inFlight[origin] { return task }
      hold()
      let seed = state.seeds[origin]
      let task = Task { await self.load(origin: origin, seed: seed, fetch: fetch) }
      state.inFlight[origin] = task
      return task
    }
    if let task { return (await task.value, true) }
    return (state.withLock { $0.resolved[origin] } ?? Resolved(rules: .disallowAll), false)
  }

  /// A waiter of `origin`'s fetch has queued its request; true when it was the last (release the hold).
  func waiterQueued(_ origin: String) -> Bool {
    state.withLock { state in
      let left = (state.waiters[origin] ?? 1) - 1
      state.waiters[origin] = left > 0 ? left : nil
      return left <= 0
    }
  }

  private func load(origin: String, seed: Entry?, fetch: Fetch) async -> Resolved {
    let request = FetchRequest(
      url: "\(origin)/robots.txt", kind: .robots, etag: seed?.etag, lastModified: seed?.lastModified,
      priority: .min)  // every page of the origin waits for it
    let resolved: Resolved
    switch await fetch(request) {
    case .success(let response) where response.isNotModified:
      if let seed {
        resolved = Resolved(rules: RobotsRules(parsing: seed.body, userAgent: userAgent), entry: seed)
      } else {
        resolved = Resolved(rules: .allowAll)
      }
    case .success(let response):
      let body = Self.wholeLines(response.body, isTruncated: response.isTruncated)
      resolved = Resolved(
        rules: RobotsRules(parsing: body, userAgent: userAgent),
        entry: Entry(
          origin: origin, status: response.status, body: body, etag: response.etag,
          lastModified: response.lastModified))
    case .failure(.httpStatus(let status)) where (400..<500).contains(status) && status != 429:
      resolved = Resolved(rules: .allowAll, entry: Entry(origin: origin, status: status, body: ""))
    case .failure(.httpStatus):
      resolved = Resolved(rules: .disallowAll)  // 5xx or 429: disallow for this run
    case .failure(let error):
      resolved = Resolved(rules: .disallowAll, unreachable: error)
    }
    let now = maxAge == nil && maxOrigins == nil ? 0 : clock()
    state.withLock { state in
      state.resolved[origin] = resolved
      state.inFlight[origin] = nil
      state.seeds[origin] = nil
      guard maxAge != nil || maxOrigins != nil else { return }
      state.resolvedAt[origin] = now
      if let maxOrigins, state.resolved.count > maxOrigins {
        let oldest = state.resolvedAt.sorted { $0.value < $1.value }.prefix(state.resolvedAt.count / 2)
        for (old, _) in oldest where old != origin && state.waiters[old] == nil {
          state.resolved[old] = nil
          state.resolvedAt[old] = nil
        }
      }
    }
    return resolved
  }

  /// Decodes the body; when it was cut at the cap, drops the last, partial line.
  static func wholeLines(_ body: [UInt8], isTruncated: Bool) -> String {
    guard isTruncated else { return String(decoding: body, as: UTF8.self) }
    guard let lastNewline = body.lastIndex(of: UInt8(ascii: "\n")) else { return "" }
    return String(decoding: body[...lastNewline], as: UTF8.self)
  }
}
