import Foundation
import Testing
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

@Suite("thumbify merge command line")
struct MergeCommandTests {
  static let usage =
    "thumbify merge <shard-dir> ... --out <dir> [--state <dir>] [--shard-state <dir> ...] "
    + "[--list <urls-file>] [--quiet] [--log-format <format>]"

  @Test func mergeHelpShowsUsageAndExitCodes() async {
    let result = await runCLI(["merge", "--help"])
    #expect(result.status == 0)
    #expect(result.out.hasPrefix("OVERVIEW: Merge the output directories of a sharded crawl into one.\n"))
    #expect(result.out.contains("\nUSAGE: \(Self.usage)\n"))
    #expect(result.out.contains("  64   bad usage\n"))
  }

  @Test(arguments: [
    (["merge", "--out", "m"], "Missing expected argument '<shard-dir> ...'"),
    (["merge", "a"], "Missing expected argument '--out <dir>'"),
    (
      ["merge", "a", "b", "--shard-state", "s", "--out", "m"],
      "Give '--shard-state <dir>' once per shard directory: 1 for 2"
    ),
    (["merge", "a", "--out", "m", "--bogus"], "Unknown option '--bogus'"),
  ])
  func badMergeUsageIsTheThreeLineErrorBlock(arguments: [String], message: String) async {
    let result = await runCLI(arguments)
    #expect(result.status == 64)
    #expect(result.out.isEmpty)
    #expect(result.err.hasPrefix("Error: \(message)\n"))
    #expect(
      result.err.hasSuffix("\nUsage: \(Self.usage)\n  See 'thumbify merge --help' for more information.\n"))
  }

  /// Two shard directories made by hand: their records, cards and states.
  func makeShards(in root: String) throws -> [String] {
    var shards: [String] = []
    for index in 0..<2 {
      let out = root + "/s\(index)"
      let state = try StateStore(path: out + ".state/state.sqlite")
      try FileManager.default.createDirectory(atPath: out + "/cards", withIntermediateDirectories: true)
      let manifest = try ManifestWriter(path: out + "/manifest.jsonl")
      for page in 0..<3 {
        let url = "http://site\(page).test/\(index)"
        let record = CrawlRecord(
          originalURL: url, normalizedURL: url, outcome: page == 2 ? .failed : .ok,
          error: page == 2 ? RecordError(code: "dns", message: "No such host.") : nil)
        try manifest.append(record)
        try state.savePage(
          url, record: record, run: 1, isGood: page != 2, etag: "\"\(page)\"", lastModified: nil, fetchedAt: 1
        )
        _ = try CardWriter(outputDirectory: out).write(
          encoded: try CardWriter.encodedCard(for: record), key: CardKey(normalizedURL: url))
      }
      try manifest.commit()
      shards.append(out)
    }
    return shards
  }

  @Test func aMergeWithoutListConcatenatesAndSummarizesInJSON() async throws {
    // Given two shard directories of three records each (one failed in each)
    let root = makeTemporaryDirectory("merge-cli")
    defer { removeDirectory(root) }
    let shards = try makeShards(in: root)

    // When they are merged without a list, with a JSON log
    let result = await runCLI(
      ["merge"] + shards + shards.flatMap { ["--shard-state", $0 + ".state"] }
        + ["--out", root + "/m", "--state", root + "/m.state", "--log-format", "json"])

    // Then the manifest holds the six records in shard order, and the summary counts them
    #expect(result.status == 0, "\(result.err)")
    #expect(
      try readManifest(root + "/m").map(\.normalizedURL)
        == (0..<2).flatMap { index in
          (0..<3).map { "http://site\($0).test/\(index)" }
        })
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    #expect(summary["event"] as? String == "summary" && summary["command"] as? String == "merge")
    #expect(summary["records"] as? Int == 6 && summary["listed"] as? Int == 6)
    #expect((summary["outcomes"] as? [String: Int])?["failed"] == 2)
    #expect((summary["cards"] as? [String: Int])?["written"] == 6)
    #expect(FileManager.default.fileExists(atPath: root + "/m.state/last-merge.json"))
  }

  @Test func aShardWithoutItsStateIsFatalAndNamesTheOption() async throws {
    // Given a shard whose state is not where it is looked for
    let root = makeTemporaryDirectory("merge-cli")
    defer { removeDirectory(root) }
    let shards = try makeShards(in: root)

    // When it is merged without --shard-state
    let result = await runCLI(["merge", shards[0], "--out", root + "/m", "--state", root + "/m.state"])

    // Then the merge stops with exit 70 before writing anything
    #expect(result.status == 70)
    #expect(result.err.contains("give its --state with --shard-state"))
    #expect(!FileManager.default.fileExists(atPath: root + "/m/manifest.jsonl"))
  }
}
