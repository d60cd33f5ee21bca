import Foundation
import Testing
import ThumbifyStore

@testable import ThumbifyCLI

/// Issue 21, "one vocabulary across commands": the same words for times, standard input, help and
/// errors in every command.
@Suite("One vocabulary across commands")
struct VocabularyTests {
  /// Every subcommand, as the root help lists them.
  static let commandNames = ThumbifyCommandLine.commands.dropFirst().map(\.name)

  // MARK: help

  @Test func helpHelpPrintsTheHelpCommandsHelp() async {
    let result = await runCLI(["help", "help"])
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    #expect(result.out.hasPrefix("OVERVIEW: Show subcommand help information.\n"))
    #expect(result.out.contains("\nUSAGE: thumbify help [<subcommand>]\n"))
    #expect(await runCLI(["help", "--help"]).out == result.out)
  }

  @Test(arguments: commandNames.filter { $0 != "help" })
  func helpOfEveryCommandIsItsHelpFlag(_ name: String) async {
    let viaHelp = await runCLI(["help", name])
    let viaFlag = await runCLI([name, "--help"])
    #expect(viaHelp.status == 0)
    #expect(viaHelp.out == viaFlag.out)
    #expect(viaHelp.out.contains("\nUSAGE: thumbify \(name) "))
  }

  @Test func helpOfAnUnknownCommandIsAUsageError() async {
    let result = await runCLI(["help", "frobnicate"])
    #expect(result.status == 64)
    #expect(
      result.err.hasPrefix("Error: Unknown subcommand 'frobnicate'\nUsage: thumbify help [<subcommand>]\n"))
  }

  // MARK: durations

  @Test(arguments: [("30", 30_000), ("30s", 30_000), ("2m", 120_000), ("1h", 3_600_000), ("0.5", 500)])
  func timeoutTakesDurations(_ text: String, milliseconds: Int) throws {
    let spec = CrawlCommand.spec
    let parsed = try ArgumentParser.parse(["u", "--out", "o", "--timeout", text], spec: spec)
    #expect(try CrawlCommand.parse(parsed).fetcher.timeout == .milliseconds(milliseconds))
    let extract = try ArgumentParser.parse(["--timeout", text], spec: ExtractCommand.spec)
    #expect(try FetcherOptions.configuration(extract).timeout == .milliseconds(milliseconds))
  }

  /// `--timeout -1` once read as "Missing value": a negative duration is a value, refused with what is
  /// accepted.
  @Test(arguments: ["-1", "-1s", "0", "0s", "2h", "soon", "30x"])
  func aBadTimeoutSaysWhatADurationIs(_ text: String) async {
    let result = await runCLI(["crawl", "u", "--out", "o", "--timeout", text])
    #expect(result.status == 64)
    #expect(
      result.err.hasPrefix(
        "Error: The value '\(text)' is invalid for '--timeout <duration>'\n"
          + "  A duration is seconds or a number with s, m, h, d or w (30s, 2m, 1h, 7d); this one must be "
          + "above 0 and at most 1h.\nUsage: thumbify crawl "))
  }

  @Test func graceAndMaxAgeTakeTheSameDurations() async throws {
    let crawl = try ArgumentParser.parse(["u", "--out", "o", "--max-age", "90m"], spec: CrawlCommand.spec)
    #expect(try CrawlCommand.parse(crawl).configuration.maxAge == 5_400)
    let zero = try ArgumentParser.parse(["u", "--out", "o", "--max-age", "0"], spec: CrawlCommand.spec)
    #expect(try CrawlCommand.parse(zero).configuration.maxAge == 0)
    let grace = await runCLI(["gc", "/nonexistent", "--grace", "-2d"])
    #expect(grace.status == 64)
    #expect(
      grace.err.hasPrefix(
        "Error: The value '-2d' is invalid for '--grace <duration>'\n  A duration is seconds or a number"))
    #expect(grace.err.contains("; this one must be 0 or more.\n"))
  }

  // MARK: standard input

  @Test func cardKeyDashReadsURLsFromStandardInput() async {
    let input = "https://example.com/a\n\n# a comment\n  http://EXAMPLE.com:80/b \r\n"
    let result = await runCLI(["card-key", "https://example.com/first", "-"], input: Array(input.utf8))
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    let expected = ["https://example.com/first", "https://example.com/a", "http://example.com/b"].map {
      CardKey(normalizedURL: $0).hex
    }
    #expect(result.out == expected.map { $0 + "\n" }.joined())
  }

  @Test func extractDashReadsOneURLFromStandardInput() async {
    // The guard refuses the loopback URL before any byte is sent, so no network is needed.
    let one = await runCLI(["extract", "-"], input: Array("\n http://127.0.0.1:1/ \n".utf8))
    #expect(one.status == 1)
    #expect(one.err.hasPrefix("Error: Refused to connect to the private or reserved address 127.0.0.1"))
    let two = await runCLI(["extract", "-"], input: Array("https://a.test/\nhttps://b.test/\n".utf8))
    #expect(two.status == 64)
    #expect(two.err.hasPrefix("Error: Standard input holds 2 URLs; 'extract -' reads exactly one\n"))
  }

  // MARK: errors

  /// The SSRF guard's refusal names the flag that lifts it, in `extract` and in crawl log lines.
  @Test func aPrivateNetworkRefusalNamesTheFlag() async {
    let extract = await runCLI(["extract", "http://127.0.0.1:1/"])
    #expect(extract.status == 1)
    #expect(
      extract.err.hasSuffix("\n  Pass --allow-private-network to allow loopback and private addresses.\n"))

    for format in LogFormat.allCases {
      let captured = CapturedConsole()
      let progress = CrawlProgress(console: captured.console, format: format, isQuiet: false, total: nil)
      let error = RecordError(code: "blockedPrivateAddress", message: "Refused 10.0.0.1.")
      progress.record(
        .record(
          line: 3,
          record: CrawlRecord(
            originalURL: "http://10.0.0.1/", normalizedURL: "http://10.0.0.1/", outcome: .failed, error: error
          ),
          isReused: false))
      #expect(captured.standardError.contains("--allow-private-network"), "\(format)")
    }
  }

  /// Every error a command writes goes through `Diagnostics`: no other prefix (`thumbify report:`,
  /// bare `Error:` strings) can come back.
  @Test func noCommandWritesErrorsAroundDiagnostics() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/ThumbifyCLI")
    let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
    var offenders: [String] = []
    for case let file as String in enumerator where file.hasSuffix(".swift") {
      guard file != "Diagnostics.swift", file != "Console.swift" else { continue }
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      where line.contains("printError(") || line.contains("\"Error: ")
        || line.contains(#/"thumbify [^"]*: /#)
      {
        offenders.append(
          "Sources/ThumbifyCLI/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
    #expect(offenders.isEmpty, "write errors with Diagnostics.error:\n\(offenders.joined(separator: "\n"))")
  }

  // MARK: --log-format json

  /// A usage error of every command is one JSON object on stderr with `--log-format json`.
  @Test(arguments: commandNames.filter { $0 != "help" })
  func usageErrorsAreJSONLines(_ name: String) async throws {
    let result = await runCLI([name, "--bogus", "--log-format", "json"])
    #expect(result.status == 64)
    #expect(result.out.isEmpty)
    let object = try Self.onlyJSONLine(result.err)
    #expect(object["event"] as? String == "error")
    #expect(object["command"] as? String == name)
    #expect(object["message"] as? String == "Unknown option '--bogus'")
    #expect(object["code"] as? String == "usage")
    #expect((object["usage"] as? String)?.hasPrefix("thumbify \(name)") == true)
  }

  @Test func runtimeErrorsAreJSONLines() async throws {
    let missing = NSTemporaryDirectory() + "thumbify-vocabulary-\(UUID().uuidString)"
    let cases: [(arguments: [String], status: Int32, code: String?)] = [
      (["gc", missing], 70, nil),
      (["report", missing], 70, "storageFailed"),
      (["cards", missing], 70, "storageFailed"),
      (["card-key", "javascript:alert(1)"], 1, "unsupportedScheme"),
      (["extract", "--html", missing, "--url", "https://example.com/"], 1, "storageFailed"),
      (["extract", "http://127.0.0.1:1/"], 1, "blockedPrivateAddress"),
      (["crawl", missing, "--out", missing], 70, "storageFailed"),
    ]
    for (arguments, status, code) in cases {
      let result = await runCLI(arguments + ["--log-format=json"])
      #expect(result.status == status, "\(arguments)")
      let object = try Self.onlyJSONLine(result.err)
      #expect(object["event"] as? String == "error", "\(arguments)")
      #expect(object["level"] as? String == "error", "\(arguments)")
      #expect(object["time"] is String, "\(arguments)")
      #expect(object["command"] as? String == arguments[0], "\(arguments)")
      #expect(object["code"] as? String == code, "\(arguments)")
      #expect(object["message"] is String, "\(arguments)")
    }
  }

  @Test func thumbFailuresAreJSONProblemLines() async throws {
    let out = NSTemporaryDirectory() + "thumbify-vocabulary-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: out) }
    let result = await runCLI(["thumb", "/nonexistent.jpg", "--out", out, "--log-format", "json"])
    #expect(result.status == 1)
    let object = try Self.onlyJSONLine(result.err)
    #expect(object["event"] as? String == "problem")
    #expect(object["level"] as? String == "warning")
    #expect(object["command"] as? String == "thumb")
    #expect(object["source"] as? String == "/nonexistent.jpg")
    #expect(object["code"] as? String == "unreadableInput")
    let summary = try Self.onlyJSONLine(result.out)
    #expect(summary["event"] as? String == "summary")
    #expect(summary["failed"] as? Int == 1)
  }

  /// In JSON, the closing summary of every command is one object on stdout, like the crawl's.
  @Test func summariesAreJSONObjects() async throws {
    let directory = NSTemporaryDirectory() + "thumbify-vocabulary-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Data().write(to: URL(fileURLWithPath: directory + "/manifest.jsonl"))
    for (command, key) in [("gc", "removed"), ("cards", "written"), ("report", "cards")] {
      let result = await runCLI([command, directory, "--log-format", "json"])
      #expect(result.status == 0, "\(command): \(result.err)")
      #expect(result.err.isEmpty, "\(command)")
      let summary = try Self.onlyJSONLine(result.out)
      #expect(summary["event"] as? String == "summary", "\(command)")
      #expect(summary["command"] as? String == command)
      #expect(summary[key] as? Int == 0, "\(command): \(result.out)")
    }
  }

  @Test func anInvalidLogFormatIsAUsageErrorInText() async {
    let result = await runCLI(["gc", "out", "--log-format", "xml"])
    #expect(result.status == 64)
    #expect(
      result.err.hasPrefix(
        "Error: The value 'xml' is invalid for '--log-format <format>'\n  Give text or json.\nUsage: thumbify gc"
      ))
  }

  /// The one line of `text`, parsed as a JSON object.
  static func onlyJSONLine(_ text: String) throws -> [String: Any] {
    let lines = text.split(separator: "\n")
    #expect(lines.count == 1, "expected one line: \(text)")
    let object = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8))
    return try #require(object as? [String: Any], "not an object: \(text)")
  }
}
