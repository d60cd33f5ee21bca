import Foundation
import Testing
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// `--state <dir>` and the default state directory on the command line (issue 21).
@Suite("The state directory on the command line")
struct StateOptionTests {
  /// `<root>/out` crawled with `--state <root>/state`: one unreachable URL, so the crawl writes its
  /// manifest, cards and state without a server.
  struct Crawled {
    let root = makeTemporaryDirectory("state-option")
    var out: String { root + "/out" }
    var state: String { root + "/state" }

    func crawl(_ extra: [String] = []) async throws -> (status: Int32, out: String, err: String) {
      try "http://127.0.0.1:9/a\n".write(toFile: root + "/urls.txt", atomically: true, encoding: .utf8)
      return await runCLI(
        ["crawl", root + "/urls.txt", "--out", out, "--allow-private-network", "--ignore-robots", "-q"]
          + extra)
    }
  }

  @Test func gcUsesTheGivenStateAndRefusesACrawlWithoutIt() async throws {
    let crawled = Crawled()
    defer { removeDirectory(crawled.root) }
    #expect(try await crawled.crawl(["--state", crawled.state]).status == 1)
    #expect(FileManager.default.fileExists(atPath: crawled.state + "/state.sqlite"))
    #expect(!FileManager.default.fileExists(atPath: testLayout(crawled.out).stateDirectory))

    let collected = await runCLI(["gc", crawled.out, "--state", crawled.state, "--grace", "0"])
    #expect(collected.status == 0, "\(collected.err)")
    #expect(collected.err.isEmpty)

    // Without --state, the default state directory holds nothing of this crawl: gc must not collect
    // with the manifest alone (the state references blobs the manifest does not).
    let refused = await runCLI(["gc", crawled.out, "--grace", "0"])
    #expect(refused.status == 70)
    #expect(
      refused.err
        == "Error: '\(crawled.out)' is a crawl's output directory, but its state is not in "
        + "'\(testLayout(crawled.out).stateDirectory)'.\n  Give the crawl's --state <dir>.\n")
  }

  @Test func gcTakesTheLockInTheGivenState() async throws {
    let crawled = Crawled()
    defer { removeDirectory(crawled.root) }
    _ = try await crawled.crawl(["--state", crawled.state])
    let lock = try RunLock(OutputLayout(crawled.out, stateDirectory: crawled.state))
    let refused = await runCLI(["gc", crawled.out, "--state", crawled.state])
    #expect(refused.status == 70)
    #expect(refused.err.contains("Another thumbify run (pid \(getpid())) is using '\(crawled.out)'"))
    withExtendedLifetime(lock) {}
  }

  @Test func cardsAndReportTakeTheStateAndCardsItsLock() async throws {
    // Given a crawl with its state in a directory of its own
    let crawled = Crawled()
    defer { removeDirectory(crawled.root) }
    _ = try await crawled.crawl(["--state", crawled.state])

    // Then cards and report accept the same --state as every other command of the directory
    let cards = await runCLI(["cards", crawled.out, "--state", crawled.state])
    #expect(cards.status == 0, "\(cards.err)")
    let report = await runCLI(["report", crawled.out, "--state", crawled.state])
    #expect(report.status == 0, "\(report.err)")
    #expect(FileManager.default.fileExists(atPath: crawled.out + "/index.html"))

    // And cards does not write under a run holding that state's lock
    let lock = try RunLock(OutputLayout(crawled.out, stateDirectory: crawled.state))
    let refused = await runCLI(["cards", crawled.out, "--state", crawled.state])
    #expect(refused.status == 70)
    #expect(refused.err.contains("Another thumbify run (pid \(getpid())) is using '\(crawled.out)'"))
    withExtendedLifetime(lock) {}
  }

  @Test func theDefaultStateIsUnderXDGStateHomeAndNothingIsLeftInTheOutput() async throws {
    let crawled = Crawled()
    defer { removeDirectory(crawled.root) }
    #expect(try await crawled.crawl().status == 1)
    let layout = testLayout(crawled.out)
    #expect(layout.stateDirectory.hasPrefix(TestState.home + "/thumbify/out-"))
    #expect(FileManager.default.fileExists(atPath: layout.stateDatabase))
    let entries = try FileManager.default.contentsOfDirectory(atPath: crawled.out).sorted()
    #expect(entries == ["cards", "manifest.jsonl"])
  }

  @Test func withoutHomeOrXDGStateHomeACrawlAsksForTheStateOption() async throws {
    let crawled = Crawled()
    defer { removeDirectory(crawled.root) }
    try "http://127.0.0.1:9/a\n".write(toFile: crawled.root + "/urls.txt", atomically: true, encoding: .utf8)
    for command in [
      ["crawl", crawled.root + "/urls.txt", "--out", crawled.out], ["gc", crawled.out],
      ["thumb", "a.png", "--out", crawled.out],
    ] {
      let result = await runCLI(command, environment: [:])
      #expect(result.status == 70)
      #expect(
        result.err
          == "Error: Could not find a state directory for '\(crawled.out)': neither XDG_STATE_HOME nor HOME "
          + "is set; give one with --state <dir>\n")
    }
    #expect(!FileManager.default.fileExists(atPath: crawled.out))
  }

  @Test func anOldStateInTheOutputIsMovedWithOneLogLine() async throws {
    let crawled = Crawled()
    defer { removeDirectory(crawled.root) }
    let old = OutputLayout(crawled.out, stateDirectory: crawled.out + "/.thumbify")
    try FileManager.default.createDirectory(atPath: old.stateDirectory, withIntermediateDirectories: true)
    _ = try StateStore(path: old.stateDatabase).beginRun(options: "x")
    let result = await runCLI(["gc", crawled.out, "--state", crawled.state])
    #expect(result.status == 0)
    #expect(
      result.err
        == "Moved the crawl state from '\(crawled.out)/.thumbify' to '\(crawled.state)'.\n")
    #expect(!FileManager.default.fileExists(atPath: old.stateDirectory))
    #expect(FileManager.default.fileExists(atPath: crawled.state + "/state.sqlite"))
  }

  @Test func theMoveIsOneJSONLineInAJSONLog() async throws {
    let crawled = Crawled()
    defer { removeDirectory(crawled.root) }
    let old = OutputLayout(crawled.out, stateDirectory: crawled.out + "/.thumbify")
    try FileManager.default.createDirectory(atPath: old.stateDirectory, withIntermediateDirectories: true)
    _ = try StateStore(path: old.stateDatabase).beginRun(options: "x")
    try "http://127.0.0.1:9/a\n".write(toFile: crawled.root + "/urls.txt", atomically: true, encoding: .utf8)
    let result = await runCLI([
      "crawl", crawled.root + "/urls.txt", "--out", crawled.out, "--state", crawled.state,
      "--allow-private-network", "--ignore-robots", "--log-format", "json",
    ])
    let first = try #require(result.err.split(separator: "\n").first)
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: String])
    // Every JSON log line says when it was written, and how much it matters
    let time = object.removeValue(forKey: "time") ?? ""
    #expect(time.hasPrefix("20") && time.hasSuffix("Z") && time.count == 24, "\(time)")
    #expect(object.removeValue(forKey: "level") == "info")
    #expect(
      object == [
        "event": "stateMoved", "command": "crawl",
        "message": "Moved the crawl state from '\(crawled.out)/.thumbify' to '\(crawled.state)'.",
      ])
  }

  @Test func thumbStillRefusesACrawlsDirectoryWhateverItsState() async throws {
    let crawled = Crawled()
    defer { removeDirectory(crawled.root) }
    _ = try await crawled.crawl(["--state", crawled.state])
    let manifest = try Data(contentsOf: URL(fileURLWithPath: crawled.out + "/manifest.jsonl"))
    for extra in [["--state", crawled.state], []] {
      let result = await runCLI(["thumb", "a.png", "--out", crawled.out] + extra)
      #expect(result.status == 70)
      #expect(result.err.contains("it is a crawl's output directory"))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: crawled.out + "/manifest.jsonl")) == manifest)
  }
}
