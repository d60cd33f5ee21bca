import Foundation
import Testing
import ThumbifyExtracting
import ThumbifyStore

@Suite("report, cards and card-key commands")
struct FrontendCommandTests {
  /// An output directory whose manifest has one ok and one failed record.
  func outputDirectory() throws -> String {
    let directory = NSTemporaryDirectory() + "thumbify-cli-frontend-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var metadata = PageMetadata()
    metadata.title = "Hello"
    let records = [
      CrawlRecord(
        originalURL: "https://example.com/", normalizedURL: "https://example.com/", outcome: .ok,
        metadata: metadata),
      CrawlRecord(
        originalURL: "https://down.example/", normalizedURL: "https://down.example/", outcome: .failed,
        error: RecordError(code: "dns", message: "Could not resolve host: down.example", stage: "fetch")),
    ]
    let lines = try records.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: directory + "/manifest.jsonl", atomically: true, encoding: .utf8)
    return directory
  }

  @Test func cardKeyPrintsOneKeyPerURLInOrder() async {
    let result = await runCLI(["card-key", "HTTPS://Example.COM:443/a#frag", "https://example.com/b"])
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    #expect(
      result.out
        == CardKey(normalizedURL: "https://example.com/a").hex + "\n"
        + CardKey(normalizedURL: "https://example.com/b").hex
        + "\n")
  }

  @Test func cardKeyShowsTheNormalizedURLOnRequest() async {
    let result = await runCLI(["card-key", "--show-url", "http://EXAMPLE.com:80"])
    #expect(result.out == CardKey(normalizedURL: "http://example.com/").hex + "\thttp://example.com/\n")
  }

  @Test func cardKeyOfANonHTTPURLFailsButPrintsTheOthers() async {
    let result = await runCLI(["card-key", "javascript:alert(1)", "https://example.com/"])
    #expect(result.status == 1)
    #expect(result.out == CardKey(normalizedURL: "https://example.com/").hex + "\n")
    #expect(
      result.err == "Error: The scheme 'javascript' is not supported; only http and https are.\n")
  }

  @Test func reportHelpShowsItsUsage() async {
    let result = await runCLI(["help", "report"])
    #expect(result.status == 0)
    #expect(
      result.out.contains(
        "\nUSAGE: thumbify report <dir> [--out <file>] [--state <dir>] [--page-size <n>] [--log-format <format>]\n"
      ))
    #expect(
      result.out.contains(
        "\n  -o, --out <file>        Where to write the page (default: <dir>/index.html).\n"))
  }

  @Test func reportWritesThePageAndSaysWhatItHolds() async throws {
    let directory = try outputDirectory()
    let result = await runCLI(["report", directory])
    #expect(result.status == 0)
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: directory + "/index.html")[.size] as? Int)
    #expect(
      result.out == "Wrote \(directory)/index.html: 2 cards (1 ok, 0 stale, 1 failed), \(size) bytes.\n")
  }

  @Test func reportOutElsewhereWritesThere() async throws {
    let directory = try outputDirectory()
    let page = directory + "/site/report.html"
    let result = await runCLI(["report", directory, "--out", page])
    #expect(result.status == 0)
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains(#""base":"../""#))
  }

  @Test func reportOfADirectoryWithoutManifestIsFatal() async throws {
    let directory = NSTemporaryDirectory() + "thumbify-missing-\(UUID().uuidString)"
    let result = await runCLI(["report", directory])
    #expect(result.status == 70)
    #expect(
      result.err
        == "Error: Could not read the manifest '\(directory)/manifest.jsonl': No such file or directory\n"
    )
  }

  @Test(arguments: ["0", "abc", "10001", "-3"])
  func reportRejectsABadPageSize(_ value: String) async {
    let result = await runCLI(["report", "dir", "--page-size=\(value)"])
    #expect(result.status == 64)
    #expect(result.err.hasPrefix("Error: The value '\(value)' is invalid for '--page-size <n>'\n"))
  }

  @Test func cardsWritesThenLeavesUnchangedCards() async throws {
    let directory = try outputDirectory()
    let first = await runCLI(["cards", directory])
    #expect(first.status == 0)
    #expect(first.out == "\(directory)/cards: 2 written, 0 unchanged, 0 removed.\n")
    let second = await runCLI(["cards", directory])
    #expect(second.out == "\(directory)/cards: 0 written, 2 unchanged, 0 removed.\n")
  }
}
