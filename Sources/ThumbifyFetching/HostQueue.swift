/// thumbify's own per-host queue: decides which waiting transfers may start now.
///
/// A transfer starts only when the global limit and its host's limit have a free slot and
/// the host's minimum delay since its previous start has passed, so curl's timeouts measure
/// the transfer and never the wait. Hosts take turns (round robin).
///
/// - Complexity: `popReady` is O(hosts with waiting work + started transfers).
struct HostQueue<Item> {
  /// One host's waiting items and counters.
  private struct Host {
    var pending: [Item?] = []
    var head = 0
    var active = 0
    var delay: Duration = .zero
    var nextStart: ContinuousClock.Instant?

    var pendingCount: Int { pending.count - head }
  }

  let globalLimit: Int
  let perHostLimit: Int
  let defaultDelay: Duration
  private var hosts: [String: Host] = [:]
  /// Hosts with pending items, in turn order.
  private var waiting: [String] = []
  private(set) var activeCount = 0

  init(globalLimit: Int, perHostLimit: Int, defaultDelay: Duration) {
    self.globalLimit = max(1, globalLimit)
    self.perHostLimit = max(1, perHostLimit)
    self.defaultDelay = defaultDelay
  }

  /// Items waiting over all hosts.
  var pendingCount: Int { hosts.values.reduce(0) { $0 + $1.pendingCount } }

  /// Queues `item` behind `host`'s other waiting items.
  mutating func enqueue(_ item: Item, host: String) {
    let wasIdle = withHost(host) { entry in
      entry.pending.append(item)
      return entry.pendingCount == 1
    }
    if wasIdle { waiting.append(host) }
  }

  /// Mutates `host`'s entry in place (a copy would copy its whole pending array).
  private mutating func withHost<Result>(_ host: String, _ body: (inout Host) -> Result) -> Result {
    body(&hosts[host, default: Host(delay: defaultDelay)])
  }

  /// Removes the first waiting item of `host` matching `predicate`; true when one was removed.
  mutating func removePending(host: String, where predicate: (Item) -> Bool) -> Bool {
    guard hosts[host] != nil else { return false }
    let (removed, isEmpty) = withHost(host) { entry -> (Bool, Bool) in
      guard let index = entry.pending[entry.head...].firstIndex(where: { $0.map(predicate) ?? false })
      else { return (false, false) }
      entry.pending[index] = nil
      Self.compact(&entry)
      return (true, entry.pendingCount == 0)
    }
    if isEmpty { waiting.removeAll { $0 == host } }
    return removed
  }

  /// Takes every item that may start at `now`, marking each as active.
  mutating func popReady(now: ContinuousClock.Instant) -> [(item: Item, host: String)] {
    var started: [(item: Item, host: String)] = []
    var index = 0
    while index < waiting.count && activeCount < globalLimit {
      let host = waiting[index]
      guard hosts[host] != nil else {
        waiting.remove(at: index)
        continue
      }
      let globalLimit = globalLimit
      let perHostLimit = perHostLimit
      var active = activeCount
      let pendingLeft = withHost(host) { entry -> Int in
        while entry.active < perHostLimit && active < globalLimit && entry.pendingCount > 0 {
          if let nextStart = entry.nextStart, nextStart > now { break }
          let item = entry.pending[entry.head]
          entry.pending[entry.head] = nil
          entry.head += 1
          Self.compact(&entry)
          guard let item else { continue }
          entry.active += 1
          active += 1
          if entry.delay > .zero { entry.nextStart = now + entry.delay }
          started.append((item, host))
        }
        return entry.pendingCount
      }
      activeCount = active
      if pendingLeft == 0 {
        waiting.remove(at: index)
      } else {
        index += 1
      }
    }
    if !started.isEmpty && waiting.count > 1 {
      waiting.append(waiting.removeFirst())  // the next round starts with another host
    }
    return started
  }

  /// Frees the slot of a transfer of `host` that finished or was cancelled.
  mutating func finish(host: String) {
    guard hosts[host] != nil else { return }
    activeCount = max(0, activeCount - 1)
    let defaultDelay = defaultDelay
    let isIdle = withHost(host) { entry -> Bool in
      entry.active = max(0, entry.active - 1)
      return entry.active == 0 && entry.pendingCount == 0 && entry.delay == defaultDelay
        && entry.nextStart == nil
    }
    if isIdle { hosts[host] = nil }
  }

  /// Sets `host`'s minimum delay between starts (robots.txt `Crawl-delay`).
  mutating func setDelay(_ delay: Duration, host: String) {
    let defaultDelay = defaultDelay
    withHost(host) { $0.delay = max(delay, defaultDelay) }
  }

  /// Keeps `host` from starting anything before `instant` (`Retry-After`).
  mutating func postpone(host: String, until instant: ContinuousClock.Instant) {
    withHost(host) { $0.nextStart = max($0.nextStart ?? instant, instant) }
  }

  /// How long until a waiting item whose host has a free slot may start, or nil when none waits.
  func timeUntilNextStart(now: ContinuousClock.Instant) -> Duration? {
    guard activeCount < globalLimit else { return nil }
    var soonest: Duration?
    for host in waiting {
      guard let entry = hosts[host], entry.active < perHostLimit, entry.pendingCount > 0 else { continue }
      let wait = entry.nextStart.map { max(.zero, $0 - now) } ?? .zero
      soonest = min(soonest ?? wait, wait)
    }
    return soonest
  }

  /// Forgets idle hosts whose delay has run out, so a long crawl over many hosts keeps only
  /// the hosts with work or a pending delay. Hosts with a `Crawl-delay` of their own are kept.
  mutating func sweep(now: ContinuousClock.Instant) {
    let defaultDelay = defaultDelay
    hosts = hosts.filter { _, entry in
      entry.active > 0 || entry.pendingCount > 0 || entry.delay != defaultDelay
        || (entry.nextStart.map { $0 > now } ?? false)
    }
  }

  /// Hosts the queue holds state for.
  var hostCount: Int { hosts.count }

  /// Drains every waiting item (shutdown).
  mutating func removeAllPending() -> [Item] {
    var items: [Item] = []
    for host in Array(hosts.keys) {
      withHost(host) { entry in
        items += entry.pending[entry.head...].compactMap { $0 }
        entry.pending = []
        entry.head = 0
      }
    }
    waiting = []
    return items
  }

  private static func compact(_ entry: inout Host) {
    while entry.head < entry.pending.count && entry.pending[entry.head] == nil { entry.head += 1 }
    if entry.head > 64 && entry.head * 2 > entry.pending.count {
      entry.pending.removeFirst(entry.head)
      entry.head = 0
    }
  }
}
