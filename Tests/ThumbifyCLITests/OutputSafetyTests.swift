import Foundation
import Testing
import Thumbify
import ThumbifyStore
import ThumbifyStoreTestSupport

/// The ways a command line used to damage an output directory (issue 17's urgent defects 3–5).
@Suite("Command lines that must not damage an output directory")
struct OutputSafetyTests {
  static func temporaryDirectory(_ name: String) throws -> String {
    let path =
      NSTemporaryDirectory() + "thumbify-safety-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// A crawl of one URL that fails fast (a closed loopback port), so `out` holds a manifest and a card.
  static func crawlOneFailingURL(into out: String) async throws -> (manifest: Data, cards: [String]) {
    let list = out + ".urls.txt"
    try "http://127.0.0.1:9/gone\n".write(toFile: list, atomically: true, encoding: .utf8)
    let result = await runCLI([
      "crawl", list, "--out", out, "--allow-private-network", "--ignore-robots", "--quiet", "--timeout", "5",
    ])
    #expect(result.status == 1, "the one URL fails: \(result.err)")
    let manifest = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.jsonl"))
    let cards = try FileManager.default.contentsOfDirectory(atPath: out + "/cards")
    #expect(!manifest.isEmpty && cards.count == 1)
    return (manifest, cards)
  }

  @Test func aRefusedSecondStandardInputCrawlLeavesTheRunningOnesListAlone() async throws {
    // Given a running crawl of standard input (its lock held, its spooled list in place)
    let out = try Self.temporaryDirectory("stdin")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let lock = try RunLock(testLayout(out))
    let spool = testLayout(out).standardInputSpool
    let runningList = "http://127.0.0.1:9/a\nhttp://127.0.0.1:9/b\n"
    try runningList.write(toFile: spool, atomically: true, encoding: .utf8)

    // When a second `crawl -` on the same directory is started with another list
    let result = await runCLI(
      ["crawl", "-", "--out", out, "--allow-private-network"], input: Array("http://127.0.0.1:9/c\n".utf8))

    // Then it is refused, and the running crawl's list is untouched
    #expect(result.status == 70)
    #expect(result.err.hasPrefix("Error: Another thumbify run (pid \(getpid())) is using '\(out)'"))
    #expect(try String(contentsOfFile: spool, encoding: .utf8) == runningList)
    withExtendedLifetime(lock) {}
  }

  @Test(arguments: [
    (["crawl", "urls.txt", "--out", ""], "The value '' is invalid for '--out <dir>'", "crawl"),
    (["crawl", "urls.txt", "--out="], "The value '' is invalid for '--out <dir>'", "crawl"),
    (["crawl", "", "--out", "x"], "The value '' is invalid for '<urls-file>'", "crawl"),
    (["thumb", "a.png", "--out", ""], "The value '' is invalid for '--out <dir>'", "thumb"),
    (["gc", ""], "The value '' is invalid for '<dir>'", "gc"),
    (["report", "x", "--out", ""], "The value '' is invalid for '--out <file>'", "report"),
  ])
  func anEmptyPathIsBadUsage(arguments: [String], message: String, command: String) async throws {
    // Given an empty path (`--out ""` used to mean the root directory)
    // When the command runs
    let result = await runCLI(arguments)

    // Then it is the usage error, and nothing was written
    #expect(result.status == 64)
    #expect(result.err.hasPrefix("Error: \(message)\n"))
    #expect(result.err.contains("\nUsage: thumbify \(command) "))
    #expect(!FileManager.default.fileExists(atPath: "/manifest.jsonl"))
  }

  /// Issue 17: a negative number was taken for an option, so `--timeout -1` said "Missing value".
  @Test(arguments: [
    (
      ["crawl", "urls.txt", "--out", "x", "--timeout", "-1"],
      "The value '-1' is invalid for '--timeout <duration>'", "crawl"
    ),
    (
      ["extract", "http://a.test/", "--timeout", "-0.5"],
      "The value '-0.5' is invalid for '--timeout <duration>'", "extract"
    ),
    (
      ["crawl", "urls.txt", "--out", "x", "--concurrency", "-3"],
      "The value '-3' is invalid for '--concurrency <n>'", "crawl"
    ),
  ])
  func aNegativeNumberIsAnInvalidValue(arguments: [String], message: String, command: String) async {
    let result = await runCLI(arguments)
    #expect(result.status == 64)
    #expect(result.err.hasPrefix("Error: \(message)\n"))
    #expect(result.err.contains("\nUsage: thumbify \(command) "))
  }

  @Test func aDirectoryGivenAsTheListIsFatalAndKeepsTheOutput() async throws {
    // Given an output directory with a manifest and a card from an earlier crawl
    let out = try Self.temporaryDirectory("dirlist")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let before = try await Self.crawlOneFailingURL(into: out)
    let directory = try Self.temporaryDirectory("notalist")
    defer { try? FileManager.default.removeItem(atPath: directory) }

    // When a directory is given as the URL list
    let result = await runCLI([
      "crawl", directory, "--out", out, "--allow-private-network", "--ignore-robots", "--quiet",
    ])

    // Then the run is fatal (exit 70, the docs' promise for an unreadable list) and nothing is lost
    #expect(result.status == 70)
    #expect(
      result.err == "Error: Cannot read the URL list '\(directory)': Is a directory.\n"
        + "  Give a readable file, or '-' for standard input.\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.jsonl")) == before.manifest)
    #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/cards") == before.cards)
  }

  @Test func aListReadErrorIsThrownNotTakenForTheEnd() throws {
    // Given a directory: open(2) succeeds on it, read(2) fails with EISDIR
    let directory = try Self.temporaryDirectory("unreadable")
    defer { try? FileManager.default.removeItem(atPath: directory) }

    // When it is opened as a list by path, or read through a descriptor
    // Then both throw (an end of list here used to empty the manifest and delete every card)
    #expect(throws: StoreError.io(path: directory, operation: "read", message: "Is a directory")) {
      _ = try URLListReader(path: directory)
    }
    let descriptor = open(directory, O_RDONLY)
    defer { close(descriptor) }
    let reader = try URLListReader(fileDescriptor: descriptor)
    #expect(throws: StoreError.self) { _ = try reader.next() }
  }

  /// Issue 17: `thumb --out <a crawl's directory>` took no lock and replaced the crawl's manifest.
  @Test func thumbRefusesACrawlsDirectoryAndKeepsItsManifest() async throws {
    let out = try Self.temporaryDirectory("thumbcrawl")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let before = try await Self.crawlOneFailingURL(into: out)
    let result = await runCLI(["thumb", ThumbCommandTests.photos + "/storm.jpg", "--out", out])
    #expect(result.status == 70)
    #expect(result.err.contains("it is a crawl's output directory"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.jsonl")) == before.manifest)
  }

  @Test func thumbRefusesALockedDirectory() async throws {
    let out = try Self.temporaryDirectory("thumblock")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let lock = try RunLock(testLayout(out))
    let result = await runCLI(["thumb", ThumbCommandTests.photos + "/storm.jpg", "--out", out])
    #expect(result.status == 70)
    #expect(result.err.hasPrefix("Error: Another thumbify run (pid \(getpid())) is using '\(out)'"))
    #expect(!FileManager.default.fileExists(atPath: out + "/manifest.jsonl"))
    withExtendedLifetime(lock) {}
  }

  /// Issue 17: a kill during the manifest pass left `manifest.jsonl.tmp-<pid>` that nothing removed.
  @Test func theNextCrawlAndGCRemoveATemporaryManifestLeftByAKill() async throws {
    let out = try Self.temporaryDirectory("stale")
    defer { try? FileManager.default.removeItem(atPath: out) }
    _ = try await Self.crawlOneFailingURL(into: out)
    let stale = [out + "/manifest.jsonl.tmp-999999", out + "/manifest.jsonl.tmp-12"]
    for path in stale { #expect(FileManager.default.createFile(atPath: path, contents: Data("{".utf8))) }
    let unrelated = out + "/manifest.jsonl.tmp-notes"
    #expect(FileManager.default.createFile(atPath: unrelated, contents: Data()))
    _ = try await Self.crawlOneFailingURL(into: out)
    #expect(stale.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
    #expect(FileManager.default.fileExists(atPath: unrelated), "only <manifest>.tmp-<pid> names")
    #expect(FileManager.default.createFile(atPath: stale[0], contents: Data("{".utf8)))
    let gc = await runCLI(["gc", out])
    #expect(gc.status == 0, "\(gc.err)")
    #expect(!FileManager.default.fileExists(atPath: stale[0]))
  }

  /// Issue 17: `--out` below a regular file said "NSCocoaErrorDomain error 512".
  @Test func anOutputDirectoryInsideAFileNamesTheReason() async throws {
    let directory = try Self.temporaryDirectory("infile")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let file = directory + "/file"
    #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
    try "http://127.0.0.1:9/\n".write(toFile: directory + "/urls.txt", atomically: true, encoding: .utf8)
    let result = await runCLI(["crawl", directory + "/urls.txt", "--out", file + "/out", "--quiet"])
    #expect(result.status == 70)
    #expect(result.err == "Error: Could not create directory '\(file)': Not a directory\n")
  }
}
