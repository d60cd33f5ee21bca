import Foundation
import Testing

@testable import ThumbifyCLI

@Suite("thumbify crawl and gc command lines")
struct CrawlCommandTests {
  static let crawlUsage =
    "thumbify crawl <urls-file> --out <dir> [--state <dir>] [--variant <spec> ...] [--max-age <duration>] "
    + "[--timeout <duration>] [--concurrency <n>] [--per-host <n>] [--allow-private-network] [--ignore-robots] "
    + "[--cacert <file>] [--contact <url>] [--max-failures <n|p%>] [--prune] [--prune-max <n|p%>] [--force-prune] "
    + "[--drop-gone-after <duration>] [--metrics <file>] [--shard <k/n>] [--shards <n>] [--baseline <dir>] [--baseline-state <dir>] "
    + "[--render <mode>] [--render-timeout <duration>] [--oembed <mode>] [--quiet] [--log-format <format>]"

  @Test func crawlHelpShowsUsageOptionsAndExitCodes() async {
    let result = await runCLI(["crawl", "--help"])
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    #expect(result.out.hasPrefix("OVERVIEW: Crawl a URL list into link cards, thumbnails and a manifest.\n"))
    #expect(result.out.contains("\nUSAGE: \(Self.crawlUsage)\n"))
    #expect(result.out.contains("\n  <urls-file>             The URL list ('-' reads standard input).\n"))
    #expect(result.out.contains("\n  -o, --out <dir>         The output directory.\n"))
    #expect(
      result.out.contains(
        "\n  --log-format <format>   text or json: json writes every log and error line on\n"))
    // The exit codes, one table (README "Exit codes" has the same rows).
    #expect(
      result.out.contains(
        """
        Exit status:

          0    success: no URL failed, or no more than --max-failures
          1    more failed, stale or invalid URLs than --max-failures allows
               (they are in the manifest, the log and last-run.json)
          64   bad usage
          70   the run could not proceed: directory locked by another run, state
               or output not writable, list unreadable, --prune over --prune-max
          130  stopped by SIGINT (Ctrl-C), after committing what was finished
          143  stopped by SIGTERM, after committing what was finished

        """))
    #expect(
      result.out.contains("\n  --prune-max <n|p%>      With --prune, refuse (exit 70, nothing removed) to\n"))
  }

  @Test func rootHelpListsCrawlAndGC() async {
    let result = await runCLI(["--help"])
    #expect(
      result.out.contains(
        "\n  crawl                   Crawl a URL list into link cards, thumbnails and a\n                          manifest.\n"
      ))
    #expect(
      result.out.contains("\n  gc                      Remove blobs that no manifest record references.\n"))
  }

  @Test(arguments: [
    (["crawl", "urls.txt"], "Missing expected argument '--out <dir>'"),
    (["crawl", "--out", "x"], "Missing expected argument '<urls-file>'"),
    (
      ["crawl", "u", "--out", "x", "--variant", "card=600"],
      "The value 'card=600' is invalid for '--variant <spec>'"
    ),
    (
      ["crawl", "u", "--out", "x", "--variant", "a=1x1", "--variant", "a=2x2"],
      "The variant name 'a' is given twice"
    ),
    (
      ["crawl", "u", "--out", "x", "--max-age", "soon"],
      "The value 'soon' is invalid for '--max-age <duration>'"
    ),
    (["crawl", "u", "--out", "x", "--timeout", "0"], "The value '0' is invalid for '--timeout <duration>'"),
    (
      ["crawl", "u", "--out", "x", "--concurrency", "-3"], "The value '-3' is invalid for '--concurrency <n>'"
    ),
    (["crawl", "u", "--out", "x", "--per-host", "zero"], "The value 'zero' is invalid for '--per-host <n>'"),
    (
      ["crawl", "u", "--out", "x", "--log-format", "xml"],
      "The value 'xml' is invalid for '--log-format <format>'"
    ),
    (["crawl", "u", "--out", "x", "--bogus"], "Unknown option '--bogus'"),
    (
      ["crawl", "u", "--out", "x", "--max-failures", "ten"],
      "The value 'ten' is invalid for '--max-failures <n|p%>'"
    ),
    (
      ["crawl", "u", "--out", "x", "--prune", "--prune-max", "120%"],
      "The value '120%' is invalid for '--prune-max <n|p%>'"
    ),
    (["crawl", "u", "--out", "x", "--prune-max", "5"], "'--prune-max' needs '--prune'"),
    (["crawl", "u", "--out", "x", "--force-prune"], "'--force-prune' needs '--prune'"),
    (
      ["crawl", "u", "--out", "x", "--drop-gone-after", "0"],
      "The value '0' is invalid for '--drop-gone-after <duration>'"
    ),
    (
      ["crawl", "u", "--out", "x", "--drop-gone-after", "soon"],
      "The value 'soon' is invalid for '--drop-gone-after <duration>'"
    ),
    (
      ["crawl", "u", "--out", "x", "--shard", "4/4"],
      "The value '4/4' is invalid for '--shard <k/n>': give K/N with 0 <= K < N"
    ),
    (["crawl", "u", "--out", "x", "--shards", "0"], "The value '0' is invalid for '--shards <n>'"),
    (
      ["crawl", "u", "--out", "x", "--render", "sometimes"],
      "The value 'sometimes' is invalid for '--render <mode>'"
    ),
    (
      ["crawl", "u", "--out", "x", "--render-timeout", "10m"],
      "The value '10m' is invalid for '--render-timeout <duration>'"
    ),
    (
      ["crawl", "u", "--out", "x", "--oembed", "always"],
      "The value 'always' is invalid for '--oembed <mode>'"
    ),
    (
      ["crawl", "u", "--out", "x", "--shard", "1/4", "--shards", "3"],
      "'--shards 3' disagrees with '--shard 1/4'"
    ),
    (
      ["crawl", "u", "--out", "x", "--shards", "4"],
      "'--shards' needs an array index: --shard K/N, or SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or "
        + "AWS_BATCH_JOB_ARRAY_INDEX in the environment"
    ),
    (["crawl", "u", "--out", "x", "--baseline-state", "s"], "'--baseline-state' needs '--baseline'"),
    (
      ["crawl", "u", "--out", "x", "--shard", "0/2", "--prune"],
      "'--prune' cannot be used by a shard: a shard's list is a part of the corpus; prune the merged "
        + "directory's URLs with an unsharded crawl"
    ),
  ])
  func badCrawlUsageIsTheThreeLineErrorBlock(arguments: [String], message: String) async {
    let result = await runCLI(arguments)
    #expect(result.status == 64)
    #expect(result.out.isEmpty)
    // The message, a hint where there is one (a duration's accepted forms), usage and the pointer.
    #expect(result.err.hasPrefix("Error: \(message)\n"))
    #expect(
      result.err.hasSuffix(
        "\nUsage: \(Self.crawlUsage)\n  See 'thumbify crawl --help' for more information.\n"))
    #expect(result.err.split(separator: "\n").count <= 4)
  }

  /// The array index of a scheduler's task names the shard; `--shard` wins over the environment.
  @Test(arguments: [
    ([String: String](), ["--shard", "1/3"], "1/3", "--shard 1/3"),
    (
      ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"], [], "2/4",
      "SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_COUNT=4, SLURM_ARRAY_TASK_MIN=0"
    ),
    (
      ["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"], [], "3/4",
      "SLURM_ARRAY_TASK_ID=4, SLURM_ARRAY_TASK_COUNT=4, SLURM_ARRAY_TASK_MIN=1"
    ),
    (["JOB_COMPLETION_INDEX": "5"], ["--shards", "8"], "5/8", "JOB_COMPLETION_INDEX=5"),
    (["AWS_BATCH_JOB_ARRAY_INDEX": "0"], ["--shards", "2"], "0/2", "AWS_BATCH_JOB_ARRAY_INDEX=0"),
    (["JOB_COMPLETION_INDEX": "5"], ["--shard", "0/2"], "0/2", "--shard 0/2"),
  ])
  func shardFromTheEnvironment(
    environment: [String: String], arguments: [String], shard: String, source: String
  ) throws {
    let parsed = try ArgumentParser.parse(["u", "--out", "x"] + arguments, spec: CrawlCommand.spec)
    let options = try CrawlCommand.parse(parsed, environment: environment)
    #expect(options.shard?.shard.description == shard)
    #expect(options.shard?.source == source)
  }

  @Test func noShardWithoutAnIndex() throws {
    let parsed = try ArgumentParser.parse(["u", "--out", "x"], spec: CrawlCommand.spec)
    #expect(try CrawlCommand.parse(parsed, environment: ["SLURM_ARRAY_TASK_ID": "1"]).shard == nil)
    #expect(throws: UsageError.self) {
      try CrawlCommand.parse(parsed, environment: ["JOB_COMPLETION_INDEX": "1"])
    }
    #expect(throws: UsageError.self) {
      let shards = try ArgumentParser.parse(["u", "--out", "x", "--shards", "2"], spec: CrawlCommand.spec)
      return try CrawlCommand.parse(shards, environment: ["JOB_COMPLETION_INDEX": "2"])
    }
  }

  @Test func anUnreadableListIsFatal() async {
    let result = await runCLI([
      "crawl", "/nonexistent/urls.txt", "--out", NSTemporaryDirectory() + "thumbify-x",
    ])
    #expect(result.status == 70)
    #expect(
      result.err == "Error: Cannot read the URL list '/nonexistent/urls.txt': No such file or directory.\n"
        + "  Give a readable file, or '-' for standard input.\n")
  }

  @Test func gcUsageAndErrors() async {
    let help = await runCLI(["gc", "--help"])
    #expect(help.status == 0)
    #expect(
      help.out.contains(
        "\nUSAGE: thumbify gc <dir> [--state <dir>] [--grace <duration>] [--quiet] [--log-format <format>]\n")
    )
    let bad = await runCLI(["gc", "out", "--grace", "later"])
    #expect(bad.status == 64)
    #expect(bad.err.hasPrefix("Error: The value 'later' is invalid for '--grace <duration>'\n"))
    let missing = await runCLI(["gc", "/nonexistent/dir"])
    #expect(missing.status == 70)
    #expect(
      missing.err
        == "Error: '/nonexistent/dir' is not a crawl output directory (no manifest.jsonl or state).\n"
        + "  Give the --out directory of a crawl.\n")
  }

  @Test(arguments: [
    ("90", 90.0), ("90s", 90), ("30m", 1_800), ("12h", 43_200), ("7d", 604_800), ("2w", 1_209_600),
  ])
  func durationsParse(text: String, seconds: Double) {
    #expect(DurationParser.seconds(text) == seconds)
  }

  @Test(arguments: ["", "d", "-1d", "1y", "nan"])
  func badDurationsAreRejected(text: String) {
    #expect(DurationParser.seconds(text) == nil)
  }
}

extension CrawlCommandTests {
  /// A `--metrics` file that cannot be written is refused before the crawl (it used to fail after a
  /// whole night's crawl, exit 70 with the work done but the alerting file missing).
  @Test(arguments: ["/nonexistent-thumbify-dir/crawl.prom", "/proc/crawl.prom"])
  func anUnwritableMetricsFileIsRefusedBeforeTheCrawl(metrics: String) async throws {
    let root = NSTemporaryDirectory() + "thumbify-metrics-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    let list = root + "/urls.txt"
    try "http://127.0.0.1:1/\n".write(toFile: list, atomically: true, encoding: .utf8)
    let result = await runCLI([
      "crawl", list, "--out", root + "/out", "--state", root + "/state", "--metrics", metrics,
      "--allow-private-network",
    ])
    #expect(result.status == 70)
    let directory = (metrics as NSString).deletingLastPathComponent
    #expect(
      result.err.hasPrefix("Error: Cannot write the metrics file '\(metrics)': the directory '\(directory)'"))
    #expect(!FileManager.default.fileExists(atPath: root + "/out/manifest.jsonl"), "the crawl ran")
  }
}
