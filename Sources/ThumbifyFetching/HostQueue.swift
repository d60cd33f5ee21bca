/// thumbify's own per-host queue: decides which waiting transfers may start now.
///
/// A transfer starts only when the global limit and its host's limit have a free slot and
/// the host's minimum delay since its previous start has passed, so curl's timeouts measure
/// the transfer and never the wait. Hosts take turns (round robin).
///
/// Within a host, items start by `priority` (lower first), and items of equal priority in the
/// order they were queued. The crawler gives a page's fetch and its images the page's list
/// position, so a host's pages go out in list order and the images of a started page go before
/// pages not yet started (a page waiting on its favicon behind every other page of its host
/// would finish last, and an interrupted crawl would have finished nothing).
///
/// - Complexity: `enqueue` is O(log n) in the host's waiting items (O(1) when they come in
///   order), `popReady` O(hosts with waiting work + started transfers × log n).
struct HostQueue<Item> {
  /// A waiting item and its place: `priority`, then the order it was queued in.
  private struct Waiting {
    var priority: Int
    var sequence: UInt64
    var item: Item

    func precedes(_ other: Waiting) -> Bool {
      priority != other.priority ? priority < other.priority : sequence < other.sequence
    }
  }

  /// One host's waiting items (a binary min-heap by `Waiting.precedes`) and counters.
  private struct Host {
    var pending: [Waiting] = []
    var active = 0
    var delay: Duration = .zero
    var nextStart: ContinuousClock.Instant?
    /// Holds (`hold(host:)`) not yet released: only `Int.min` items (robots.txt) may start meanwhile.
    var holds = 0

    var pendingCount: Int { pending.count }

    /// Whether the first waiting item may start as far as holds go.
    var isHeadHeld: Bool { holds > 0 && (pending.first.map { $0.priority != .min } ?? false) }

    mutating func push(_ waiting: Waiting) {
      pending.append(waiting)
      var child = pending.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard pending[child].precedes(pending[parent]) else { break }
        pending.swapAt(child, parent)
        child = parent
      }
    }

    /// Removes and returns the item at `index` of the heap.
    mutating func remove(at index: Int) -> Item {
      pending.swapAt(index, pending.count - 1)
      let removed = pending.removeLast()
      guard index < pending.count else { return removed.item }
      // The moved item may belong above or below its new place.
      var child = index
      while child > 0 {
        let parent = (child - 1) / 2
        guard pending[child].precedes(pending[parent]) else { break }
        pending.swapAt(child, parent)
        child = parent
      }
      var parent = child
      while true {
        let left = 2 * parent + 1
        guard left < pending.count else { break }
        let right = left + 1
        let first = right < pending.count && pending[right].precedes(pending[left]) ? right : left
        guard pending[first].precedes(pending[parent]) else { break }
        pending.swapAt(first, parent)
        parent = first
      }
      return removed.item
    }
  }

  let globalLimit: Int
  let perHostLimit: Int
  let defaultDelay: Duration
  private var hosts: [String: Host] = [:]
  /// Hosts with pending items, in turn order.
  private var waiting: [String] = []
  private(set) var activeCount = 0
  private var nextSequence: UInt64 = 0

  init(globalLimit: Int, perHostLimit: Int, defaultDelay: Duration) {
    self.globalLimit = max(1, globalLimit)
    self.perHostLimit = max(1, perHostLimit)
    self.defaultDelay = defaultDelay
  }

  /// Items waiting over all hosts.
  var pendingCount: Int { hosts.values.reduce(0) { $0 + $1.pendingCount } }

  /// Queues `item` behind `host`'s waiting items of a lower or the same `priority`.
  mutating func enqueue(_ item: Item, host: String, priority: Int = 0) {
    let queued = Waiting(priority: priority, sequence: nextSequence, item: item)
    nextSequence += 1
    let wasIdle = withHost(host) { entry in
      entry.push(queued)
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
      guard let index = entry.pending.firstIndex(where: { predicate($0.item) }) else { return (false, false) }
      _ = entry.remove(at: index)
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
          if entry.isHeadHeld { break }
          let item = entry.remove(at: 0)
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
        && entry.nextStart == nil && entry.holds == 0
    }
    if isIdle { hosts[host] = nil }
  }

  /// Sets `host`'s minimum delay between starts (robots.txt `Crawl-delay`).
  mutating func setDelay(_ delay: Duration, host: String) {
    let defaultDelay = defaultDelay
    withHost(host) { $0.delay = max(delay, defaultDelay) }
  }

  /// Keeps `host`'s items other than `Int.min` ones waiting until as many `release(host:)` calls.
  ///
  /// The pages of an origin wait for its robots.txt together and are woken in no particular order;
  /// the fetcher holds the host until each of them is queued, so they start in priority (list) order.
  mutating func hold(host: String) {
    withHost(host) { $0.holds += 1 }
  }

  /// Ends one `hold(host:)`.
  mutating func release(host: String) {
    guard hosts[host] != nil else { return }
    withHost(host) { $0.holds = max(0, $0.holds - 1) }
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
      guard let entry = hosts[host], entry.active < perHostLimit, entry.pendingCount > 0, !entry.isHeadHeld
      else { continue }
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
      entry.active > 0 || entry.pendingCount > 0 || entry.delay != defaultDelay || entry.holds > 0
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
        items += entry.pending.map(\.item)
        entry.pending = []
      }
    }
    waiting = []
    return items
  }
}
