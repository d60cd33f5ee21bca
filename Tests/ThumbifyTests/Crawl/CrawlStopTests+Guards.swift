import Foundation
import Testing

@testable import Thumbify
@testable import ThumbifyStore
@testable import ThumbifyTestSupport

/// Issue 34, "Stops and guards that act first": after the first signal no request leaves the
/// process, counted at the server.
extension CrawlStopTests {
  /// Waits (polling, up to `limit` seconds: a bound for hangs, not a race) until `condition` holds;
  /// false, with an issue recorded, when it never did.
  func eventually(
    _ what: String, limit: Double = 120, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () throws -> Bool
  ) async throws -> Bool {
    let deadline = Date().addingTimeInterval(limit)
    while Date() < deadline {
      if try condition() { return true }
      try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("never: \(what)", sourceLocation: sourceLocation)
    return false
  }

  /// Whether the crawl writing to `out` logged its stop (`"event":"stopping"`): its stop has been
  /// asked for, the fetcher stopped before that line is written.
  func hasLoggedItsStop(_ out: String) -> Bool {
    ((try? String(contentsOfFile: out + ".log", encoding: .utf8)) ?? "").contains("\"event\":\"stopping\"")
  }

  @Test func noRequestIsSentAfterTheFirstSignal() async throws {
    // Given 20 pages of one host, held by the server until the test opens their gate, crawled by 8
    // workers and --per-host 2: two pages in flight, six waiting in the host's queue
    let prefix = "after-"
    let count = 20
    let list = root + "/after.txt"
    let lines = (0..<count).map { server.url("/hold?gate=after&bucket=\(prefix)\($0)") }
    try (lines.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
    let out = root + "/after"
    let victim = try start(list, out, concurrency: 8)
    guard await whenSignalsAreHandled(victim) else { return }
    // Both slots are taken: nothing else can have been sent before the signal
    guard try await eventually("two requests at the server", { try server.stats(bucket: "all").count >= 2 })
    else {
      kill(victim.processIdentifier, SIGKILL)
      return
    }
    #expect(try server.stats(bucket: "all").count == 2)

    // When the crawl gets SIGINT, and then the pages in flight are answered (within the grace or after
    // it: either way nothing new may be sent)
    kill(victim.processIdentifier, SIGINT)
    guard try await eventually("the crawl logs its stop", { hasLoggedItsStop(out) }) else {
      kill(victim.processIdentifier, SIGKILL)
      return
    }
    try server.open(gate: "after")
    let status = await victim.exitStatus()

    // Then the server saw no request after the signal: not the queued pages, not the favicon of the
    // pages that finished
    let log = (try? String(contentsOfFile: out + ".log", encoding: .utf8)) ?? ""
    #expect(status == 130, "\(log)")
    #expect(try server.stats(bucket: "all").count == 2, "\(log)")
    let stopped = try requestCounts(prefix: prefix, count: count)
    #expect(stopped.reduce(0, +) == 2)
    #expect(try readManifest(out).count <= 2)

    // And the rerun crawls the rest, each page once more at most
    #expect(try await start(list, out).exitStatus() == 0)
    #expect(try readManifest(out).count == count)
    let counts = try requestCounts(prefix: prefix, count: count)
    #expect(zip(stopped, counts).allSatisfy { before, after in after >= 1 && after - before <= 1 })
  }
}
