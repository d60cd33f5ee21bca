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
    var entry = hosts[host] ?? Host(delay: defaultDelay)
    if entry.pendingCount == 0 { waiting.append(host) }
    entry.pending.append(item)
    hosts[host] = entry
  }

  /// Removes the first waiting item of `host` matching `predicate`; true when one was removed.
  mutating func removePending(host: String, where predicate: (Item) -> Bool) -> Bool {
    guard var entry = hosts[host] else { return false }
    guard let index = entry.pending[entry.head...].firstIndex(where: { $0.map(predicate) ?? false })
    else { return false }
    entry.pending[index] = nil
    compact(&entry)
    hosts[host] = entry
    if entry.pendingCount == 0 { waiting.removeAll { $0 == host } }
    return true
  }

  /// Takes every item that may start at `now`, marking each as active.
  mutating func popReady(now: ContinuousClock.Instant) -> [(item: Item, host: String)] {
    var started: [(item: Item, host: String)] = []
    var index = 0
    while index < waiting.count && activeCount < globalLimit {
      let host = waiting[index]
      guard var entry = hosts[host] else {
        waiting.remove(at: index)
        continue
      }
      while entry.active < perHostLimit && activeCount < globalLimit && entry.pendingCount > 0 {
        if let nextStart = entry.nextStart, nextStart > now { break }
        let item = entry.pending[entry.head]
        entry.pending[entry.head] = nil
        entry.head += 1
        compact(&entry)
        guard let item else { continue }
        entry.active += 1
        activeCount += 1
        if entry.delay > .zero { entry.nextStart = now + entry.delay }
        started.append((item, host))
      }
      hosts[host] = entry
      if entry.pendingCount == 0 {
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
    guard var entry = hosts[host] else { return }
    entry.active = max(0, entry.active - 1)
    activeCount = max(0, activeCount - 1)
    if entry.active == 0 && entry.pendingCount == 0 && entry.delay == defaultDelay
      && entry.nextStart == nil
    {
      hosts[host] = nil
    } else {
      hosts[host] = entry
    }
  }

  /// Sets `host`'s minimum delay between starts (robots.txt `Crawl-delay`).
  mutating func setDelay(_ delay: Duration, host: String) {
    var entry = hosts[host] ?? Host(delay: defaultDelay)
    entry.delay = max(delay, defaultDelay)
    hosts[host] = entry
  }

  /// Keeps `host` from starting anything before `instant` (`Retry-After`).
  mutating func postpone(host: String, until instant: ContinuousClock.Instant) {
    var entry = hosts[host] ?? Host(delay: defaultDelay)
    entry.nextStart = max(entry.nextStart ?? instant, instant)
    hosts[host] = entry
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

  /// Drains every waiting item (shutdown).
  mutating func removeAllPending() -> [Item] {
    var items: [Item] = []
    for (host, entry) in hosts {
      items += entry.pending[entry.head...].compactMap { $0 }
      hosts[host]?.pending = []
      hosts[host]?.head = 0
    }
    waiting = []
    return items
  }

  private func compact(_ entry: inout Host) {
    while entry.head < entry.pending.count && entry.pending[entry.head] == nil { entry.head += 1 }
    if entry.head > 64 && entry.head * 2 > entry.pending.count {
      entry.pending.removeFirst(entry.head)
      entry.head = 0
    }
  }
}
