import Foundation
import Testing
import ThumbifyExtracting
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyStore

/// Issue 34: a page that answers 404 or 410 night after night is dropped only by an explicit option,
/// `--drop-gone-after <duration>`, never silently; the real binary over several runs, a page switched
/// between answers at the fault server, and the state's record of since when it is gone moved back
/// in time instead of sleeping.
@Suite("Crawl drops pages gone for long only when asked", .serialized)
final class CrawlGoneTests {
  let server: FaultServer
  let root: String

  init() async throws {
    root = makeTemporaryDirectory("gone")
    server = try await FaultServer()
  }

  deinit {
    server.stop()
    removeDirectory(root)
  }

  /// What `/switch?key=<key>` answers from now on.
  func answer(_ key: String, _ status: Int) throws {
    _ = try FaultServer.get(port: server.port, path: "/set-status?key=\(key)&code=\(status)")
  }

  /// Runs the binary over `list` into `out` with `options`; its exit status, its JSON summary and log.
  func crawl(_ list: String, _ out: String, _ options: [String] = []) async throws -> (
    status: Int32, summary: [String: Any], log: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TestPaths.binary)
    process.arguments =
      [
        "crawl", list, "--out", out, "--state", out + ".state", "--allow-private-network", "--ignore-robots",
        "--log-format", "json",
      ] + options
    for suffix in [".summary", ".log"] {
      _ = FileManager.default.createFile(atPath: out + suffix, contents: nil)
    }
    process.standardOutput = FileHandle(forWritingAtPath: out + ".summary")
    process.standardError = FileHandle(forWritingAtPath: out + ".log")
    let status = try await ChildProcess.run(process)
    let summary = (try? Data(contentsOf: URL(fileURLWithPath: out + ".summary"))).flatMap {
      try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
    }
    return (status, summary ?? [:], (try? String(contentsOfFile: out + ".log", encoding: .utf8)) ?? "")
  }

  /// Moves back by `days` the moment since which the state has seen `url` gone, as if the runs that
  /// saw it gone had been that much earlier; returns the moment, nil when the state has none.
  func moveGoneSinceBack(_ out: String, url: String, days: Double) throws -> Double? {
    let state = try StateStore(path: OutputLayout(out, stateDirectory: out + ".state").stateDatabase)
    let normalized = try URLNormalization.normalize(url)
    return state.withDatabaseForTesting { db in
      _ = try? db.query(
        "UPDATE pages SET gone_since = gone_since - ?1 WHERE url = ?2",
        [.real(days * 86_400), .text(normalized)])
      return (try? db.query("SELECT gone_since FROM pages WHERE url = ?1", [.text(normalized)]))?.first?
        .first?
        .real
    }
  }

  /// Whether `url` has a card file in `out`.
  func hasCard(_ url: String, in out: String) throws -> Bool {
    let key = CardKey(normalizedURL: try URLNormalization.normalize(url))
    return FileManager.default.fileExists(atPath: out + "/cards/" + key.fileName)
  }

  /// The `droppedGone` member of a summary: its total and URLs.
  func dropped(_ summary: [String: Any]) -> (total: Int?, urls: [String]?) {
    let member = summary["droppedGone"] as? [String: Any]
    return (member?["total"] as? Int, member?["urls"] as? [String])
  }

  @Test func aPageGoneForLongIsDroppedOnlyWithTheOption() async throws {
    // Given two pages crawled while both answer
    let gone = server.url("/switch?key=gone")
    let here = server.url("/switch?key=here")
    let list = root + "/list.txt"
    try "\(gone)\n\(here)\n".write(toFile: list, atomically: true, encoding: .utf8)
    let out = root + "/out"
    #expect(try await crawl(list, out).status == 0)
    #expect(try readManifest(out).map(\.outcome) == [.ok, .ok])

    // When one answers 404, even with the option: it keeps its last card, stale (gone only now)
    try answer("gone", 404)
    let first = try await crawl(list, out, ["--drop-gone-after", "7d", "--max-failures", "1"])
    #expect(first.status == 0, "\(first.log)")
    var records = try readManifest(out)
    #expect(records.map(\.outcome) == [.stale, .ok])
    #expect(records.first?.error?.code == "httpStatus")
    #expect(records.first?.error?.message.contains("404") == true)
    #expect(records.first?.metadata?.title == "Switch gone", "the last good card")
    #expect(try hasCard(gone, in: out))
    #expect(dropped(first.summary).total == 0)

    // When it is gone for 8 days (the state's series moved back) and a run has no option: still kept
    let since = try #require(try moveGoneSinceBack(out, url: gone, days: 8))
    #expect(since < Date().timeIntervalSince1970 - 7 * 86_400)
    let without = try await crawl(list, out, ["--max-failures", "1"])
    #expect(without.status == 0, "\(without.log)")
    #expect(try readManifest(out).map(\.outcome) == [.stale, .ok])
    #expect(try hasCard(gone, in: out))
    #expect(dropped(without.summary).total == 0)

    // When a run has the option: it is dropped, counted and named, its card removed; not a failure
    let with = try await crawl(list, out, ["--drop-gone-after", "7d"])
    #expect(with.status == 0, "\(with.log)")
    records = try readManifest(out)
    #expect(records.map(\.normalizedURL) == [try URLNormalization.normalize(here)])
    #expect(try !hasCard(gone, in: out))
    #expect(try hasCard(here, in: out))
    let normalizedGone = try URLNormalization.normalize(gone)
    #expect(dropped(with.summary).total == 1)
    #expect(dropped(with.summary).urls == [normalizedGone])
    #expect(with.log.contains(#""event":"droppedGone""#))
    let report =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: out + ".state/last-run.json"))) as? [String: Any] ?? [:]
    #expect(dropped(report).total == 1)
    #expect(dropped(report).urls == [normalizedGone])

    // When it answers 410 the next night: still dropped (the series goes on)
    try answer("gone", 410)
    let again = try await crawl(list, out, ["--drop-gone-after", "7d"])
    #expect(again.status == 0, "\(again.log)")
    #expect(dropped(again.summary).total == 1)
    #expect(try readManifest(out).count == 1)

    // When it answers again: it is back
    try answer("gone", 200)
    let back = try await crawl(list, out, ["--drop-gone-after", "7d"])
    #expect(back.status == 0, "\(back.log)")
    #expect(try readManifest(out).map(\.outcome) == [.ok, .ok])
    #expect(try hasCard(gone, in: out))
    #expect(dropped(back.summary).total == 0)

    // And every run asked the server for both pages
    #expect(try server.stats(bucket: "switch:gone").count == 6)
    #expect(try server.stats(bucket: "switch:here").count == 6)
  }

  @Test func anyOtherAnswerEndsTheSeries() async throws {
    // Given a page gone for 8 days
    let page = server.url("/switch?key=flapping")
    let list = root + "/flapping.txt"
    try "\(page)\n".write(toFile: list, atomically: true, encoding: .utf8)
    let out = root + "/flapping"
    try answer("flapping", 404)
    #expect(try await crawl(list, out).status == 1)
    #expect(try moveGoneSinceBack(out, url: page, days: 8) != nil)

    // When it answers 503 one night, and 404 again the next
    try answer("flapping", 503)
    _ = try await crawl(list, out, ["--drop-gone-after", "7d"])
    #expect(try moveGoneSinceBack(out, url: page, days: 0) == nil, "a 503 says nothing of a gone page")
    try answer("flapping", 404)
    let next = try await crawl(list, out, ["--drop-gone-after", "7d"])

    // Then it is gone since that night only, and kept (its failed card: it never had a good one)
    #expect(dropped(next.summary).total == 0, "\(next.log)")
    #expect(try readManifest(out).map(\.outcome) == [.failed])
    #expect(try hasCard(page, in: out))
  }
}
