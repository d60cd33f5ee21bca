import Foundation
import Testing
import Thumbify
import ThumbifyFetchingTestSupport
import ThumbifyStoreTestSupport

/// The real binary's run report, exit status and pruning, on the sample site (the suite's nginx).
extension CrawlEndToEndTests {
  var lastRunPath: String { testLayout(out).lastRun }

  func lastRun() throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: lastRunPath))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  /// The URLs of the sample list whose cards a partial list names: two pages of the site.
  func writePartialList() throws -> String {
    let path = site + "/partial.txt"
    try "http://127.0.0.1:\(nginx.port)/en/storms.html\nhttp://127.0.0.1:\(nginx.port)/\n"
      .write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func cardFiles() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: out + "/cards").filter { $0.hasSuffix(".json") }
  }

  @Test func lastRunJSONHoldsTheWholeReport() async throws {
    let run = try await crawl()
    #expect(run.status == 1)
    let report = try lastRun()
    #expect(report["schema"] as? Int == 1)
    #expect(report["exitStatus"] as? Int == 1)
    #expect(report["records"] as? Int == 16)
    #expect(report["invalidLines"] as? Int == 1)
    #expect(report["lastSuccessAt"] == nil)
    let outcomes = try #require(report["outcomes"] as? [String: Int])
    #expect(outcomes.values.reduce(0, +) == 16)
    let byCode = try #require(report["byCode"] as? [String: [String: Int]])
    #expect(byCode["page"]?["httpStatus"] == outcomes["failed"])
    #expect(byCode["image"]?["undecodableImage"] == 1)
    #expect(byCode["line"]?.values.reduce(0, +) == 1)
    let failures = try #require(report["failures"] as? [String: Any])
    #expect(failures["total"] as? Int == outcomes["failed"]! + 1)
    let listed = try #require(failures["listed"] as? [[String: Any]])
    #expect(
      listed.contains { ($0["normalizedURL"] as? String)?.hasSuffix("/broken/no-such-page.html") == true })
    #expect(listed.contains { $0["kind"] as? String == "line" && $0["line"] as? Int != nil })
    let withoutImage = try #require(report["withoutImage"] as? [String: Any])
    let cards = try #require(withoutImage["listed"] as? [[String: Any]])
    #expect(
      cards.contains { ($0["normalizedURL"] as? String)?.hasSuffix("/broken/corrupt-image.html") == true })
    #expect(
      cards.contains { ($0["normalizedURL"] as? String)?.hasSuffix("/broken/missing-image.html") == true })
    #expect(withoutImage["total"] as? Int == (report["imageFailures"] as? Int))
    let hosts = try #require(report["byHost"] as? [[String: Any]])
    #expect(hosts.map { $0["host"] as? String } == ["127.0.0.1:\(nginx.port)"])
    #expect(hosts.first?["urls"] as? Int == 16)
    #expect((report["bytesFetched"] as? Int ?? 0) > 100_000)
    #expect((report["newBlobs"] as? Int ?? 0) > 0)
    // The text summary names the first cards without an image and says where the rest are.
    #expect(run.out.contains("cards without a wanted image or icon: http://127.0.0.1:\(nginx.port)/broken/"))
    #expect(run.out.contains("Errors by code: page httpStatus "))
    #expect(run.out.hasSuffix("Report: \(lastRunPath)\n"))
  }

  @Test func maxFailuresDecidesTheExitStatus() async throws {
    _ = try await crawl()
    let failures = try #require((try lastRun()["failures"] as? [String: Any])?["total"] as? Int)
    #expect(failures >= 2)
    #expect(try await crawl(["--ignore-robots", "--max-failures", "\(failures)"]).status == 0)
    #expect(try lastRun()["exitStatus"] as? Int == 0)
    #expect(try await crawl(["--ignore-robots", "--max-failures", "\(failures - 1)"]).status == 1)
    // Of 17 lines (16 URLs and the invalid one), 50 % allows 8 failures.
    #expect(try await crawl(["--ignore-robots", "--max-failures", "50%"]).status == (failures <= 8 ? 0 : 1))
    #expect(try await crawl(["--ignore-robots", "--max-failures", "1%"]).status == 1)
  }

  @Test func theMetricsFileParsesAndKeepsTheLastSuccessWhenARunFails() async throws {
    let metrics = site + "/textfile/thumbify.prom"
    try FileManager.default.createDirectory(atPath: site + "/textfile", withIntermediateDirectories: true)
    // A failing first run: no success to report yet.
    #expect(try await crawl(["--ignore-robots", "--metrics", metrics]).status == 1)
    var text = try String(contentsOfFile: metrics, encoding: .utf8)
    #expect(PrometheusTextfile.problems(text) == [])
    try PrometheusTextfile.promtoolAccepts(metrics)
    #expect(text.contains("thumbify_crawl_urls{outcome=\"failed\"} "))
    #expect(text.contains("\nthumbify_crawl_errors{kind=\"image\",code=\"undecodableImage\"} 1\n"))
    #expect(text.contains("\nthumbify_crawl_exit_status 1\n"))
    #expect(!text.contains(RunReport.lastSuccessMetric))
    // A passing run sets it,
    #expect(try await crawl(["--ignore-robots", "--metrics", metrics, "--max-failures", "100%"]).status == 0)
    text = try String(contentsOfFile: metrics, encoding: .utf8)
    let success = try #require(PrometheusTextfile.value(of: RunReport.lastSuccessMetric, in: text))
    #expect(abs(success - Date().timeIntervalSince1970) < 120)
    #expect(PrometheusTextfile.problems(text) == [])
    // and a failing one keeps it (from the old file, and from last-run.json when the file is gone).
    #expect(try await crawl(["--ignore-robots", "--metrics", metrics]).status == 1)
    text = try String(contentsOfFile: metrics, encoding: .utf8)
    #expect(PrometheusTextfile.value(of: RunReport.lastSuccessMetric, in: text) == success)
    #expect(PrometheusTextfile.value(of: "thumbify_crawl_exit_status", in: text) == 1)
    try FileManager.default.removeItem(atPath: metrics)
    #expect(try await crawl(["--ignore-robots", "--metrics", metrics]).status == 1)
    let kept = try #require(
      PrometheusTextfile.value(
        of: RunReport.lastSuccessMetric, in: try String(contentsOfFile: metrics, encoding: .utf8)))
    #expect(abs(kept - success) < 0.01)
    // Written by rename: no temporary file is left beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: site + "/textfile") == ["thumbify.prom"])
  }

  @Test func aPartialListKeepsTheOtherCardsAndPruneIsGuarded() async throws {
    _ = try await crawl()
    let cardsBefore = try cardFiles()
    #expect(cardsBefore.count == 16)
    let partial = try writePartialList()
    // A partial list keeps every card and record.
    let kept = try await thumbify([
      "crawl", partial, "--out", out, "--allow-private-network", "--ignore-robots",
    ])
    #expect(kept.status == 0, "\(kept.err)")
    #expect(Set(try cardFiles()) == Set(cardsBefore))
    let records = try readManifest(out)
    #expect(records.count == 16)
    #expect(records.prefix(2).map { $0.normalizedURL.hasSuffix("/en/storms.html") } == [true, false])
    #expect(kept.out.contains("Kept 14 URLs missing from the list"))
    #expect(try lastRun()["kept"] as? Int == 14)
    // --prune of 14 of 16 is refused: one line naming the way out, exit 70, nothing removed.
    let manifest = try String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8)
    let refused = try await thumbify([
      "crawl", partial, "--out", out, "--allow-private-network", "--ignore-robots", "--prune",
    ])
    #expect(refused.status == 70)
    #expect(
      refused.err
        == "Error: Pruning would remove 14 of the 16 known URLs, more than the limit of 20%; nothing was "
        + "removed. Check the URL list, or rerun with a larger --prune-max or with --force-prune.\n")
    #expect(try String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8) == manifest)
    #expect(Set(try cardFiles()) == Set(cardsBefore))
    #expect(try lastRun()["exitStatus"] as? Int == 70)
    // Forced, they go, and the JSON log names each.
    let pruned = try await thumbify([
      "crawl", partial, "--out", out, "--allow-private-network", "--ignore-robots", "--prune",
      "--force-prune",
      "--log-format", "json",
    ])
    #expect(pruned.status == 0, "\(pruned.err)")
    let events = pruned.err.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(events.filter { $0["event"] as? String == "pruned" }.count == 14)
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(pruned.out.utf8)) as? [String: Any])
    #expect((summary["pruned"] as? [String: Any])?["total"] as? Int == 14)
    #expect(try readManifest(out).count == 2)
    #expect(try cardFiles().count == 2)
    let report = try lastRun()
    #expect(((report["pruned"] as? [String: Any])?["urls"] as? [String])?.count == 14)
    // And gc then removes the blobs only they used.
    let blobs = blobFiles(out)
    let gc = try await thumbify(["gc", out, "--grace", "0"])
    #expect(gc.status == 0)
    let left = blobFiles(out)
    #expect(left.count < blobs.count)
    #expect(left == Set(try readManifest(out).flatMap(\.blobPaths)))
  }
}

/// Checks a Prometheus textfile against the text exposition format's grammar, so that the test
/// means something where promtool is not installed; promtool checks it too where it is.
enum PrometheusTextfile {
  /// What is wrong with `text`, one entry per problem (empty when it parses).
  static func problems(_ text: String) -> [String] {
    var problems: [String] = []
    guard text.hasSuffix("\n") else { return ["the file does not end with a newline"] }
    var typed: [String: String] = [:]
    var helped: Set<String> = []
    var seenSamples: Set<String> = []
    var current: String?
    func isName(_ name: Substring, first: (Character) -> Bool, rest: (Character) -> Bool) -> Bool {
      guard let head = name.first, first(head) else { return false }
      return name.dropFirst().allSatisfy(rest)
    }
    func isMetricName(_ name: Substring) -> Bool {
      isName(
        name, first: { $0.isASCII && ($0.isLetter || $0 == "_" || $0 == ":") },
        rest: { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") })
    }
    func isLabelName(_ name: Substring) -> Bool {
      isName(
        name, first: { $0.isASCII && ($0.isLetter || $0 == "_") },
        rest: { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
    }
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .enumerated()
    {
      let at = "line \(number + 1)"
      if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") {
        let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, isMetricName(parts[2]) else {
          problems.append("\(at): malformed \(parts.count > 1 ? parts[1] : "")")
          continue
        }
        let name = String(parts[2])
        if seenSamples.contains(name) { problems.append("\(at): \(parts[1]) after the samples of \(name)") }
        if parts[1] == "TYPE" {
          guard ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]) else {
            problems.append("\(at): unknown type \(parts[3])")
            continue
          }
          if typed.updateValue(String(parts[3]), forKey: name) != nil {
            problems.append("\(at): second TYPE")
          }
        } else if !helped.insert(name).inserted {
          problems.append("\(at): second HELP")
        }
        continue
      }
      if line.hasPrefix("#") || line.isEmpty { continue }
      // name[{label="value",...}] value [timestamp]
      let nameEnd = line.firstIndex { $0 == "{" || $0 == " " } ?? line.endIndex
      let name = line[..<nameEnd]
      guard isMetricName(name) else {
        problems.append("\(at): bad metric name '\(name)'")
        continue
      }
      var rest = line[nameEnd...]
      if rest.first == "{" {
        rest = rest.dropFirst()
        while rest.first != "}" {
          guard let equals = rest.firstIndex(of: "="), isLabelName(rest[..<equals]) else {
            problems.append("\(at): bad label")
            break
          }
          rest = rest[rest.index(after: equals)...]
          guard rest.first == "\"" else {
            problems.append("\(at): unquoted label value")
            break
          }
          rest = rest.dropFirst()
          var isEscaped = false
          var closed = false
          while let character = rest.first {
            rest = rest.dropFirst()
            if isEscaped {
              if !["\\", "\"", "n"].contains(character) { problems.append("\(at): bad escape") }
              isEscaped = false
            } else if character == "\\" {
              isEscaped = true
            } else if character == "\"" {
              closed = true
              break
            } else if character == "\n" {
              problems.append("\(at): newline in a label value")
            }
          }
          guard closed else {
            problems.append("\(at): unterminated label value")
            break
          }
          if rest.first == "," { rest = rest.dropFirst() }
        }
        rest = rest.dropFirst()
      }
      let fields = rest.split(separator: " ", omittingEmptySubsequences: false)
      guard fields.first == "", fields.count == 2 || fields.count == 3,
        Double(fields[1]) != nil || ["NaN", "+Inf", "-Inf"].contains(fields[1])
      else {
        problems.append("\(at): bad value '\(rest)'")
        continue
      }
      if fields.count == 3, Int64(fields[2]) == nil { problems.append("\(at): bad timestamp") }
      let family = String(name)
      if typed[family] == nil { problems.append("\(at): \(family) has no TYPE line before its samples") }
      if current != family, seenSamples.contains(family) { problems.append("\(at): \(family) is split") }
      seenSamples.insert(family)
      current = family
    }
    return problems
  }

  /// The value of the unlabelled sample `name`.
  static func value(of name: String, in text: String) -> Double? {
    text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap {
      Double($0.dropFirst(name.count + 1))
    }
  }

  /// `promtool check metrics` on the file, when promtool is installed (Debian: prometheus).
  static func promtoolAccepts(_ path: String) throws {
    let promtool = "/usr/bin/promtool"
    guard FileManager.default.isExecutableFile(atPath: promtool) else { return }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: promtool)
    process.arguments = ["check", "metrics"]
    process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "promtool: \(String(decoding: data, as: UTF8.self))")
  }
}

@Suite("The Prometheus grammar check itself")
struct PrometheusTextfileTests {
  @Test func itAcceptsTheFormat() {
    #expect(
      PrometheusTextfile.problems(
        "# HELP a_b Help text.\n# TYPE a_b gauge\na_b{x=\"1\",y=\"q\\\"\\\\\\n\"} 3\na_b{x=\"2\"} 1.5e+09\nc 1\n"
      ) == ["line 5: c has no TYPE line before its samples"])
  }

  @Test(arguments: [
    "# TYPE a gauge\na 1", "# TYPE a gauge\na one\n", "# TYPE 1a gauge\n", "# TYPE a gauge\na{x=1} 1\n",
    "# TYPE a gauge\na{x=\"1} 1\n", "# TYPE a gauge\n# TYPE a gauge\n", "# TYPE a gauge\na 1\nb 2\na 3\n",
    "# TYPE a meter\n", "# TYPE a gauge\na 1\n# HELP a late\n",
  ])
  func itRejectsWhatIsNot(_ text: String) {
    #expect(!PrometheusTextfile.problems(text).isEmpty)
  }
}
