import Testing

@testable import ThumbifyFetching

@Suite("Per-host queue")
struct HostQueueTests {
  /// Issue 21: one host's pages went out in reverse list order; a host's items start in the order
  /// queued, whatever the heap does inside.
  @Test func oneHostsItemsStartInTheOrderQueued() {
    var queue = HostQueue<Int>(globalLimit: 100, perHostLimit: 1, defaultDelay: .zero)
    for i in 0..<200 { queue.enqueue(i, host: "a") }
    var started: [Int] = []
    while let next = queue.popReady(now: .now).first {
      started.append(next.item)
      queue.finish(host: next.host)
    }
    #expect(started == Array(0..<200))
  }

  /// A lower priority starts first, queued late or not (a started page's images before new pages);
  /// equal priorities keep the order they were queued in, also after a removal from the middle.
  @Test func lowerPriorityGoesFirstAndEqualOnesStayInOrder() {
    var queue = HostQueue<Int>(globalLimit: 100, perHostLimit: 1, defaultDelay: .zero)
    for i in 1...9 { queue.enqueue(i * 10, host: "a", priority: i) }
    queue.enqueue(31, host: "a", priority: 3)
    queue.enqueue(11, host: "a", priority: 1)
    queue.enqueue(0, host: "a", priority: .min)
    #expect(queue.removePending(host: "a") { $0 == 50 })
    var started: [Int] = []
    while let next = queue.popReady(now: .now).first {
      started.append(next.item)
      queue.finish(host: next.host)
    }
    #expect(started == [0, 10, 11, 20, 30, 31, 40, 60, 70, 80, 90])
  }

  /// While robots.txt is fetched its waiters queue in any order; a held host starts only robots.txt
  /// (`Int.min`), and after the last release the others in priority order.
  @Test func aHeldHostStartsOnlyRobotsUntilReleased() {
    var queue = HostQueue<Int>(globalLimit: 100, perHostLimit: 1, defaultDelay: .zero)
    queue.hold(host: "a")
    queue.hold(host: "a")
    queue.enqueue(0, host: "a", priority: .min)
    let now = ContinuousClock.now
    #expect(queue.popReady(now: now).map(\.item) == [0])
    queue.finish(host: "a")
    for i in [3, 1, 2] { queue.enqueue(i, host: "a", priority: i) }
    #expect(queue.popReady(now: now).isEmpty)
    #expect(queue.timeUntilNextStart(now: now) == nil)  // the loop does not spin on a held host
    queue.release(host: "a")
    #expect(queue.popReady(now: now).isEmpty)
    queue.release(host: "a")
    var started: [Int] = []
    while let next = queue.popReady(now: now).first {
      started.append(next.item)
      queue.finish(host: next.host)
    }
    #expect(started == [1, 2, 3])
  }

  @Test func respectsGlobalAndPerHostLimits() {
    var queue = HostQueue<Int>(globalLimit: 3, perHostLimit: 2, defaultDelay: .zero)
    for i in 0..<5 { queue.enqueue(i, host: "a") }
    for i in 10..<12 { queue.enqueue(i, host: "b") }
    let now = ContinuousClock.now
    let first = queue.popReady(now: now)
    #expect(first.count == 3)
    #expect(first.filter { $0.host == "a" }.count <= 2)
    #expect(queue.popReady(now: now).isEmpty)
    queue.finish(host: first[0].host)
    #expect(queue.popReady(now: now).count == 1)
    #expect(queue.activeCount == 3)
  }

  @Test func delaySpacesStartsOfOneHost() {
    var queue = HostQueue<Int>(globalLimit: 10, perHostLimit: 10, defaultDelay: .zero)
    queue.setDelay(.seconds(1), host: "a")
    queue.enqueue(1, host: "a")
    queue.enqueue(2, host: "a")
    let now = ContinuousClock.now
    #expect(queue.popReady(now: now).map(\.item) == [1])
    #expect(queue.popReady(now: now + .milliseconds(500)).isEmpty)
    #expect(queue.timeUntilNextStart(now: now + .milliseconds(500)) == .milliseconds(500))
    #expect(queue.popReady(now: now + .seconds(1)).map(\.item) == [2])
  }

  @Test func removesPendingAndDrains() {
    var queue = HostQueue<Int>(globalLimit: 1, perHostLimit: 1, defaultDelay: .zero)
    for i in 0..<3 { queue.enqueue(i, host: "a") }
    #expect(queue.removePending(host: "a") { $0 == 1 })
    #expect(!queue.removePending(host: "a") { $0 == 7 })
    #expect(queue.popReady(now: .now).map(\.item) == [0])
    #expect(queue.removeAllPending() == [2])
    #expect(queue.pendingCount == 0)
  }

  @Test func manyItemsComeOutInOrder() {
    var queue = HostQueue<Int>(globalLimit: 1, perHostLimit: 1, defaultDelay: .zero)
    for i in 0..<1000 { queue.enqueue(i, host: "h") }
    var order: [Int] = []
    while let next = queue.popReady(now: .now).first {
      order.append(next.item)
      queue.finish(host: "h")
    }
    #expect(order == Array(0..<1000))
  }

  @Test func sweepForgetsIdleHostsOnceTheirDelayRanOut() {
    var queue = HostQueue<Int>(globalLimit: 10, perHostLimit: 1, defaultDelay: .milliseconds(100))
    let now = ContinuousClock.now
    for (index, host) in ["a", "b", "c"].enumerated() { queue.enqueue(index, host: host) }
    queue.setDelay(.seconds(5), host: "c")
    #expect(queue.popReady(now: now).count == 3)
    for host in ["a", "b", "c"] { queue.finish(host: host) }
    queue.sweep(now: now)
    #expect(queue.hostCount == 3, "their delays have not run out")
    queue.sweep(now: now + .seconds(1))
    #expect(queue.hostCount == 1, "only c, whose Crawl-delay is its own, is kept")
  }
}
