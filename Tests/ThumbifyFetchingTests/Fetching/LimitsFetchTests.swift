import Testing

@testable import Thumbify
@testable import ThumbifyExtracting
@testable import ThumbifyFetching
@testable import ThumbifyImaging
@testable import ThumbifyStore
@testable import ThumbifySystem
@testable import ThumbifyTestSupport

@Suite("Per-host queue, limits and cancellation", .timeLimit(.minutes(5)), .dedicatedExecutor)
struct LimitsFetchTests {
  /// Fetches `count` copies of `path` concurrently; returns the statuses (or error codes).
  func fetchAll(_ fetcher: CurlFetcher, _ url: String, count: Int) async -> [String] {
    await withTaskGroup(of: String.self) { group in
      for _ in 0..<count {
        group.addTask {
          do {
            return String(try await fetcher.fetch(FetchRequest(url: url, kind: .page)).status)
          } catch {
            return (error as? FetchError)?.code ?? "\(error)"
          }
        }
      }
      return await group.reduce(into: [String]()) { $0.append($1) }
    }
  }

  @Test(arguments: [1, 2, 4])
  func perHostLimitIsRespected(limit: Int) async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher { $0.maxTransfersPerHost = limit }
    let results = await fetchAll(fetcher, server.url("/hold?ms=150&bucket=h"), count: 8)
    #expect(results == Array(repeating: "200", count: 8))
    let stats = try server.stats(bucket: "h")
    #expect(stats.max == limit)
    #expect(stats.count == 8)
  }

  @Test func globalLimitIsRespected() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher {
      $0.maxTransfersPerHost = 16
      $0.maxConcurrentTransfers = 3
    }
    _ = await fetchAll(fetcher, server.url("/hold?ms=150&bucket=g"), count: 9)
    #expect(try server.stats(bucket: "g").max == 3)
  }

  @Test func perHostDelaySpacesStarts() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher {
      $0.maxTransfersPerHost = 4
      $0.perHostDelay = .milliseconds(300)
    }
    let start = ContinuousClock.now
    _ = await fetchAll(fetcher, server.url("/ok"), count: 3)
    #expect(start.duration(to: .now) >= .milliseconds(600))
  }

  @Test func timeoutCountsTheTransferNotTheWait() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher {
      $0.maxTransfersPerHost = 1
      $0.timeout = .milliseconds(900)
    }
    let start = ContinuousClock.now
    let results = await fetchAll(fetcher, server.url("/hold?ms=400&bucket=t"), count: 4)
    #expect(results == Array(repeating: "200", count: 4), "each waited in thumbify's queue, not curl's")
    #expect(start.duration(to: .now) >= .milliseconds(1600))
  }

  @Test func cancellationRemovesTheTransfer() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher { $0.timeout = .seconds(30) }
    let task = testTask {
      await fetchError { try await fetcher.fetch(FetchRequest(url: server.url("/tarpit"), kind: .page)) }
    }
    try await Task.sleep(for: .milliseconds(300))
    let start = ContinuousClock.now
    task.cancel()
    let error = await task.value
    #expect(error == .cancelled)
    #expect(error?.family == .cancelled)
    #expect(start.duration(to: .now) < .seconds(20), "long before the 30 s timeout (generous for loaded CI)")
    let after = try await fetcher.fetch(FetchRequest(url: server.url("/ok"), kind: .page))
    #expect(after.status == 200, "the loop keeps running")
  }

  @Test func cancellingQueuedTransfersFreesTheirPlace() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher {
      $0.maxTransfersPerHost = 1
      $0.timeout = .seconds(30)
    }
    let blocker = testTask {
      await fetchError { try await fetcher.fetch(FetchRequest(url: server.url("/tarpit"), kind: .page)) }
    }
    let queued = (0..<5).map { _ in
      testTask {
        await fetchError { try await fetcher.fetch(FetchRequest(url: server.url("/ok"), kind: .page)) }
      }
    }
    try await Task.sleep(for: .milliseconds(200))
    for task in queued { task.cancel() }
    for task in queued {
      let error = await task.value
      #expect(error == .cancelled, "\(String(describing: error))")
    }
    blocker.cancel()
    let blocked = await blocker.value
    #expect(blocked == .cancelled, "\(String(describing: blocked))")
    let after = try await fetcher.fetch(FetchRequest(url: server.url("/ok"), kind: .page))
    #expect(after.status == 200)
  }

  @Test func shutdownCancelsWhatIsRunningAndRefusesNewWork() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher()
    let running = testTask {
      await fetchError { try await fetcher.fetch(FetchRequest(url: server.url("/tarpit"), kind: .page)) }
    }
    try await Task.sleep(for: .milliseconds(200))
    fetcher.shutdown()
    let error = await running.value
    #expect(error == .cancelled, "\(String(describing: error))")
    let later = await fetchError {
      try await fetcher.fetch(FetchRequest(url: server.url("/ok"), kind: .page))
    }
    #expect(later == .cancelled)
  }

  /// Issue 34: once stopped, the fetcher sends nothing new: what waits behind the host's limit and
  /// what is asked for later end `stopped` at once; the transfer already sent finishes.
  @Test func aStoppedFetcherSendsNothingNew() async throws {
    // Given one transfer of a host in flight (held at the server) and three waiting behind its limit
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher { $0.maxTransfersPerHost = 1 }
    let url = server.url("/hold?gate=stop&bucket=stop")
    let results = testTask { await fetchAll(fetcher, url, count: 4) }
    while try server.stats(bucket: "stop").count < 1 { try await Task.sleep(for: .milliseconds(20)) }

    // When it is stopped, and the held transfer is let go
    fetcher.stopStartingRequests()
    let later = await fetchError {
      try await fetcher.fetch(FetchRequest(url: server.url("/ok"), kind: .page))
    }
    try server.open(gate: "stop")

    // Then the waiting ones and the later one were stopped, unsent, and the one in flight finished
    #expect(later == .stopped)
    #expect(await results.value.sorted() == ["200", "stopped", "stopped", "stopped"])
    #expect(try server.stats(bucket: "stop").count == 1)
    #expect(try server.stats(bucket: "all").count == 1)
  }
}
