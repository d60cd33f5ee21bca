import Foundation
import Testing
import ThumbifyExtracting
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// SIGINT and SIGTERM sent to a real `thumbify crawl` at different moments (issue 21, "Interrupting
/// loses work"): the crawl stops with 130/143, a valid manifest of what it finished and its state
/// intact, and a rerun fetches only what was not finished, counted by the fault server per page.
/// (130 and 143 are `ExitCode.interrupted` and `.terminated`, which this target does not import.)
@Suite("Crawl stops on SIGINT and SIGTERM", .serialized)
final class CrawlStopTests {
  let server: FaultServer
  let root: String

  init() async throws {
    root = makeTemporaryDirectory("stop")
    server = try await FaultServer()
  }

  deinit {
    server.stop()
    removeDirectory(root)
  }

  /// A list of `count` pages each held `milliseconds` by the server and counted in bucket
  /// `<prefix><index>`; returns its path.
  func writeList(_ name: String, count: Int, milliseconds: Int, prefix: String) throws -> String {
    let path = root + "/\(name).txt"
    let lines = (0..<count).map { server.url("/hold?ms=\(milliseconds)&bucket=\(prefix)\($0)") }
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Starts the binary with its summary (JSON) in `<out>.summary` and its log in `<out>.log`.
  func start(
    _ list: String, _ out: String, concurrency: Int = 4, perHost: Int = 2, options: [String] = []
  ) throws -> ChildProcess {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TestPaths.binary)
    process.arguments =
      [
        "crawl", list, "--out", out, "--state", out + ".state", "--allow-private-network", "--ignore-robots",
        "--log-format", "json",
        "--concurrency", "\(concurrency)", "--per-host", "\(perHost)",
      ] + options
    for suffix in [".summary", ".log"] {
      _ = FileManager.default.createFile(atPath: out + suffix, contents: nil)
    }
    process.standardOutput = FileHandle(forWritingAtPath: out + ".summary")
    process.standardError = FileHandle(forWritingAtPath: out + ".log")
    return try ChildProcess(process)
  }

  /// The JSON summary the run printed.
  func summary(_ out: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: out + ".summary"))
    return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
  }

  /// Waits until the process catches SIGINT and SIGTERM (`SigCgt` in /proc): a signal now is the
  /// crawl's to handle, not a default death; then, `delay` seconds later, sends it `signal` if given.
  /// False when that never happened within a minute (a debug binary starting on a machine loaded
  /// tenfold took over 5 s) or the process ended first; the issue is recorded and the process killed.
  ///
  /// On a thread of its own, not the test's task: on a loaded CI machine the cooperative pool was
  /// starved for longer than the whole crawl, so a task saw the handler and sent the signal only
  /// after the crawl had ended.
  func whenSignalsAreHandled(_ victim: ChildProcess, after delay: Double = 0, send signal: Int32? = nil) async
    -> Bool
  {
    let pid = victim.processIdentifier
    let ready = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      Thread {
        let mask: UInt64 = 1 << (UInt64(SIGINT) - 1) | 1 << (UInt64(SIGTERM) - 1)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
          guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            !status.contains("\nState:\tZ")
          else { break }
          // The crawl's own image, not the test runner's copy before its exec (whose dispositions
          // /proc shows for a moment; a signal then meets the runner's: an ignored SIGINT is lost).
          let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
          let isCrawl = command.split(separator: 0).dropFirst().first.map { Array($0) } == Array("crawl".utf8)
          // SigCgt only: a signal before the command's handler is in place is not the crawl's.
          let caught = status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }.flatMap {
            UInt64($0.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
          }
          if isCrawl, (caught ?? 0) & mask == mask {
            if let signal {
              usleep(UInt32(delay * 1_000_000))
              kill(pid, signal)
            }
            return continuation.resume(returning: true)
          }
          usleep(2_000)
        }
        continuation.resume(returning: false)
      }.start()
    }
    if !ready {
      Issue.record("the crawl never set up its signal handling, or ended first")
      kill(pid, SIGKILL)
      _ = await victim.exitStatus()
    }
    return ready
  }

  /// Every listed URL's request count at the server.
  func requestCounts(prefix: String, count: Int) throws -> [Int] {
    try (0..<count).map { try server.stats(bucket: "\(prefix)\($0)").count }
  }

  static let pages = 40

  /// 40 pages of 300 ms, 2 at a time (about 6 s): stopped at several moments by either signal, each
  /// page in flight finishes within the 2 s grace, so over the stopped run and its rerun every page is
  /// requested exactly once.
  // Fixed moments and two random ones (each run another). 0.0 and 0.2 s: with libdispatch's signal
  // sources a SIGINT that early was lost on the loaded CI
  // machine (exit 0, every page crawled); see StopSignals.
  @Test(arguments: [
    (SIGINT, 0.0), (SIGINT, 0.2), (SIGTERM, 0.2), (SIGINT, 0.5), (SIGTERM, 0.7), (SIGINT, 1.3),
    (SIGTERM, 1.9),
    (SIGINT, 2.6), (SIGINT, Double.random(in: 0..<3)), (SIGTERM, Double.random(in: 0..<3)),
  ])
  func aSignalStopsTheCrawlAndTheRerunDoesOnlyTheRest(signal: Int32, delay: Double) async throws {
    let prefix = "s\(signal)-\(Int(delay * 1000))-"
    let list = try writeList(prefix, count: Self.pages, milliseconds: 300, prefix: prefix)
    let out = root + "/" + prefix
    let victim = try start(list, out)
    guard await whenSignalsAreHandled(victim, after: delay, send: signal) else { return }
    let status = await victim.exitStatus()
    let log = (try? String(contentsOfFile: out + ".log", encoding: .utf8)) ?? ""
    #expect(status == (signal == SIGINT ? 130 : 143), "\(log)")

    // A valid manifest of what the run finished, each URL once, all of them ok.
    let finished = try readManifest(out)
    #expect(Set(finished.map(\.normalizedURL)).count == finished.count)
    #expect(finished.allSatisfy { $0.outcome == .ok }, "\(finished.compactMap(\.error))")
    #expect(finished.count < Self.pages, "the signal came after the crawl (\(delay) s)")
    let stopped = try summary(out)
    #expect(stopped["interrupted"] as? Bool == true)
    #expect(stopped["records"] as? Int == finished.count)
    #expect(log.contains("\"event\":\"stopping\""))
    // The state is intact and holds each finished URL's record of this (unfinished) run.
    do {
      let state = try StateStore(path: OutputLayout(out, stateDirectory: out + ".state").stateDatabase)
      for record in finished { #expect(try state.page(record.normalizedURL).current == record) }
    }
    // Nothing was asked twice, and the pages in flight were let finish (not cut off by the stop).
    let afterStop = try requestCounts(prefix: prefix, count: Self.pages)
    #expect(afterStop.allSatisfy { $0 <= 1 })
    #expect(afterStop.reduce(0, +) == finished.count, "pages were requested but not saved")

    // The rerun resumes: it reuses the finished records and requests only the other pages.
    #expect(try await start(list, out).exitStatus() == 0)
    #expect(try readManifest(out).count == Self.pages)
    let rerun = try summary(out)
    #expect(rerun["resumed"] as? Bool == true)
    #expect(rerun["reused"] as? Int == finished.count)
    #expect(rerun["interrupted"] as? Bool == false)
    #expect(try requestCounts(prefix: prefix, count: Self.pages) == Array(repeating: 1, count: Self.pages))
  }

  /// Pages held 120 s (under a 300 s timeout, so that only a stop ends them, and a bound of a minute
  /// tells a stop from them on a machine loaded enough to stall a test for tens of seconds): the first
  /// signal waits for them, the second cancels them at once; the cancelled pages are not saved (no
  /// `cancelled` failure for the resumed run to reuse), so the rerun fetches them.
  @Test func aSecondSignalCancelsWhatIsInFlight() async throws {
    let prefix = "second-"
    let count = 2  // --per-host 2: both in flight at once
    let list = try writeList(prefix, count: count, milliseconds: 120_000, prefix: prefix)
    let out = root + "/second"
    let victim = try start(list, out, options: ["--timeout", "300"])
    guard await whenSignalsAreHandled(victim) else { return }
    // Every page is in flight.
    while try requestCounts(prefix: prefix, count: count).reduce(0, +) < count {
      try await Task.sleep(for: .milliseconds(20))
    }
    kill(victim.processIdentifier, SIGINT)
    try await Task.sleep(for: .milliseconds(300))
    let second = Date()
    kill(victim.processIdentifier, SIGINT)
    let status = await victim.exitStatus()
    let took = Date().timeIntervalSince(second)
    #expect(status == 130)
    #expect(took < 60, "the second signal took \(took) s to stop the crawl (pages held 120 s)")
    #expect(try readManifest(out).isEmpty)
    #expect(try summary(out)["interrupted"] as? Bool == true)
    let state = try StateStore(path: OutputLayout(out, stateDirectory: out + ".state").stateDatabase)
    for url in try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n") {
      #expect(try state.page(URLNormalization.normalize(String(url))).isEmpty)
    }
  }

  /// A single signal cancels the pages still in flight once the 2 s grace is over (pages held 120 s
  /// under a 300 s timeout, as above).
  @Test func pagesStillInFlightAfterTheGraceAreCancelled() async throws {
    let prefix = "grace-"
    let list = try writeList(prefix, count: 2, milliseconds: 120_000, prefix: prefix)
    let out = root + "/grace"
    let victim = try start(list, out, options: ["--timeout", "300"])
    guard await whenSignalsAreHandled(victim) else { return }
    while try requestCounts(prefix: prefix, count: 2).reduce(0, +) < 2 {
      try await Task.sleep(for: .milliseconds(20))
    }
    let signalled = Date()
    kill(victim.processIdentifier, SIGTERM)
    #expect(await victim.exitStatus() == 143)
    let took = Date().timeIntervalSince(signalled)
    #expect(
      took >= 1.9 && took < 60, "stopped \(took) s after SIGTERM: the grace is 2 s, the pages are held 120 s")
    #expect(try readManifest(out).isEmpty)
  }
}
