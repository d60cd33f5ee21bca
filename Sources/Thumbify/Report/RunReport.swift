import Foundation
import ThumbifySystem

/// What a crawl leaves for people and monitoring after it ends: `<state>/last-run.json` (the whole
/// report) and, with `--metrics <file>`, a Prometheus textfile for node_exporter's textfile
/// collector. Both are written atomically (`FileSystem.writeAtomically`: a temporary file in the same
/// directory, renamed), so a reader never sees half of one.
package struct RunReport {
  /// The counts of a run that got to its end; `nil` when it could not proceed (`error` says why).
  package var summary: CrawlJob.Summary?
  /// The fatal error's message, when the run could not proceed.
  package var error: String?
  package var exitStatus: Int32
  package var started: Date
  package var finished: Date
  package var written: (blobs: Int, bytes: Int)
  package var fetchedBytes: Int
  package var maxFailures: Threshold
  /// When the last run that exited 0 finished: this one's end when it did, else the previous value.
  package var lastSuccess: Date?

  package init(
    summary: CrawlJob.Summary?, error: String?, exitStatus: Int32, started: Date, finished: Date,
    written: (blobs: Int, bytes: Int), fetchedBytes: Int, maxFailures: Threshold, lastSuccess: Date?
  ) {
    self.summary = summary
    self.error = error
    self.exitStatus = exitStatus
    self.started = started
    self.finished = finished
    self.written = written
    self.fetchedBytes = fetchedBytes
    self.maxFailures = maxFailures
    self.lastSuccess = lastSuccess
  }

  /// URLs that count against `--max-failures`: failed or stale pages and invalid lines.
  package static func failures(_ summary: CrawlJob.Summary) -> (count: Int, total: Int) {
    let count = (summary.outcomes[.failed] ?? 0) + (summary.outcomes[.stale] ?? 0) + summary.invalidLines
    let total = summary.outcomes.values.reduce(0, +) + summary.invalidLines
    return (count, total)
  }

  /// The exit status of a run that got to its end: 1 when its failures exceed `maxFailures`.
  package static func exitStatus(_ summary: CrawlJob.Summary, maxFailures: Threshold) -> Int32 {
    let (count, total) = failures(summary)
    return maxFailures.allows(count, of: total) ? ExitCode.success : ExitCode.someFailed
  }

  // MARK: Writing

  /// Writes `<state>/last-run.json` and, with `metrics`, the Prometheus textfile, each atomically;
  /// `lastSuccess` is set first: this run's end when it exited 0, else what the previous files say.
  package mutating func write(to layout: OutputLayout, metrics: String?) throws(StoreError) {
    lastSuccess =
      exitStatus == ExitCode.success
      ? finished : Self.previousLastSuccess(metrics: metrics, lastRun: layout.lastRun)
    try FileSystem.makeDirectories(layout.stateDirectory)
    try FileSystem.writeAtomically(Array((json + "\n").utf8), to: layout.lastRun)
    if let metrics { try FileSystem.writeAtomically(Array(prometheus.utf8), to: metrics) }
  }

  /// The directory of the metrics textfile `path` when a file cannot be made there, checked before a
  /// run so that a night's crawl does not end without its alerting file; `nil` when it can. A file is
  /// made and removed, the way the atomic write will (access(2) says yes to root on a file system that
  /// refuses files, /proc).
  package static func unwritableMetricsDirectory(_ path: String) -> (path: String, exists: Bool)? {
    let directory = FilePath(path).removingLastComponent().string
    let existing = directory.isEmpty ? "." : directory
    let probe = path + ".tmp-probe-\(getpid())"
    guard (try? FileDescriptor(opening: probe, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)) == nil else {
      unlink(probe)
      return nil
    }
    return (existing, FileSystem.isDirectory(existing))
  }

  // MARK: last-run.json

  package static let schemaVersion = 1

  /// The report as one JSON object (keys sorted, as the JSON log's).
  package var json: String {
    var object: [String: Any] = [
      "schema": Self.schemaVersion, "startedAt": Self.timestamp(started),
      "finishedAt": Self.timestamp(finished),
      "seconds": Self.rounded(finished.timeIntervalSince(started)), "exitStatus": Int(exitStatus),
      "maxFailures": maxFailures.description, "bytesFetched": fetchedBytes, "newBlobs": written.blobs,
      "bytesWritten": written.bytes,
    ]
    if let lastSuccess { object["lastSuccessAt"] = Self.timestamp(lastSuccess) }
    if let error { object["error"] = error }
    if let summary {
      object.merge(Self.members(summary, listing: CrawlReport.maxListed)) { $1 }
    }
    return JSONWriter.line(object)
  }

  /// The summary's members shared by last-run.json and the JSON log's summary event.
  package static func members(_ summary: CrawlJob.Summary, listing limit: Int) -> [String: Any] {
    let outcomes = summary.outcomes
    let count = { (outcome: CrawlRecord.Outcome) in outcomes[outcome] ?? 0 }
    let report = summary.report
    func problems(_ list: [CrawlReport.Problem]) -> [[String: Any]] {
      list.prefix(limit).map { problem in
        // A record's problem is named by its normalized URL (its state key), a line's by its text.
        var entry: [String: Any] = [
          problem.line == nil ? "normalizedURL" : "text": problem.url, "outcome": problem.outcome,
          "kind": problem.kind, "code": problem.code, "message": problem.message,
        ]
        if let line = problem.line { entry["line"] = line }
        return entry
      }
    }
    return [
      "records": summary.records,
      "outcomes": [
        "ok": count(.ok), "notModified": count(.notModified), "stale": count(.stale),
        "failed": count(.failed),
      ],
      "invalidLines": summary.invalidLines, "duplicates": summary.duplicates,
      "imageFailures": summary.imageFailures, "needsRendering": summary.needsRendering,
      "incomplete": summary.incomplete,
      "resumed": summary.isResumed, "kept": summary.kept,
      "pruned": ["total": summary.pruned, "urls": Array(summary.prunedURLs.prefix(limit))],
      "droppedGone": ["total": summary.droppedGone, "urls": Array(summary.droppedGoneURLs.prefix(limit))],
      "byCode": report.byCode,
      "byHost": report.topHosts().map { host in
        [
          "host": host.host, "urls": host.urls, "ok": host.ok, "notModified": host.notModified,
          "stale": host.stale, "failed": host.failed, "withoutImage": host.withoutImage,
        ] as [String: Any]
      },
      "failures": ["total": report.failureTotal, "listed": problems(report.failures)],
      "withoutImage": ["total": report.withoutImageTotal, "listed": problems(report.withoutImage)],
      "crashedDecoder": summary.crashedDecoderSkips,
    ]
  }

  // MARK: Prometheus textfile

  /// The metric the last success is read back from (`previousLastSuccess`).
  package static let lastSuccessMetric = "thumbify_crawl_last_success_timestamp_seconds"

  /// The textfile: one family per metric, each with its `# HELP` and `# TYPE` lines; all gauges (they
  /// describe the last run, and the textfile collector exports them as they are).
  package var prometheus: String {
    var text = ""
    func family(_ name: String, _ help: String, _ samples: [(labels: [(String, String)], value: Double)]) {
      guard !samples.isEmpty else { return }
      text += "# HELP \(name) \(help)\n# TYPE \(name) gauge\n"
      for sample in samples {
        let labels =
          sample.labels.isEmpty
          ? ""
          : "{" + sample.labels.map { "\($0.0)=\"\(Self.escapedLabel($0.1))\"" }.joined(separator: ",") + "}"
        text += "\(name)\(labels) \(Self.number(sample.value))\n"
      }
    }
    if let summary {
      let outcomes: [(String, Int)] =
        [CrawlRecord.Outcome.ok, .notModified, .stale, .failed].map {
          ($0.rawValue, summary.outcomes[$0] ?? 0)
        }
        + [
          ("invalid", summary.invalidLines), ("kept", summary.kept), ("pruned", summary.pruned),
          ("droppedGone", summary.droppedGone),
        ]
      family(
        "thumbify_crawl_urls",
        "URLs of the last crawl by outcome (invalid: lines that are not URLs; kept: missing from the list, "
          + "kept from earlier runs; pruned: removed; droppedGone: gone for longer than --drop-gone-after, "
          + "removed).",
        outcomes.map { ([("outcome", $0.0)], Double($0.1)) })
      let codes = summary.report.byCode.sorted { $0.key < $1.key }.flatMap { kind, codes in
        codes.sorted { $0.key < $1.key }.map { ([("kind", kind), ("code", $0.key)], Double($0.value)) }
      }
      family(
        "thumbify_crawl_errors",
        "Errors of the last crawl by kind (page, image, icon, line) and code (docs/errors.md).", codes)
      family(
        "thumbify_crawl_cards_without_image", "Cards of the last crawl whose image or icon failed.",
        [([], Double(summary.imageFailures))])
      family(
        "thumbify_crawl_cards_needing_rendering",
        "Cards of the last crawl that are empty because the page is an app shell (--render auto renders it).",
        [([], Double(summary.needsRendering))])
    }
    family(
      "thumbify_crawl_fetched_bytes", "Body bytes of the pages and images the last crawl received.",
      [([], Double(fetchedBytes))])
    family("thumbify_crawl_blobs_written", "New blobs the last crawl wrote.", [([], Double(written.blobs))])
    family(
      "thumbify_crawl_blobs_written_bytes", "Bytes of the new blobs the last crawl wrote.",
      [([], Double(written.bytes))])
    family(
      "thumbify_crawl_duration_seconds", "Wall time of the last crawl.",
      [([], Self.rounded(finished.timeIntervalSince(started)))])
    family(
      "thumbify_crawl_exit_status",
      "Exit status of the last crawl (0 success, 1 too many failures, 70 fatal).",
      [([], Double(exitStatus))])
    family(
      "thumbify_crawl_last_run_timestamp_seconds", "When the last crawl finished (seconds since 1970).",
      [([], Self.rounded(finished.timeIntervalSince1970))])
    family(
      Self.lastSuccessMetric, "When the last crawl that exited 0 finished (seconds since 1970).",
      lastSuccess.map { [([], Self.rounded($0.timeIntervalSince1970))] } ?? [])
    return text
  }

  /// The last success recorded by an earlier run: from the old metrics file, else from the old
  /// last-run.json (a run that failed keeps it, so an alert on its age keeps meaning something).
  package static func previousLastSuccess(metrics: String?, lastRun: String) -> Date? {
    if let metrics, let text = try? String(contentsOfFile: metrics, encoding: .utf8) {
      for line in text.split(separator: "\n") where line.hasPrefix(lastSuccessMetric + " ") {
        if let value = Double(line.dropFirst(lastSuccessMetric.count + 1)) {
          return Date(timeIntervalSince1970: value)
        }
      }
    }
    guard let data = FileManager.default.contents(atPath: lastRun),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let text = object["lastSuccessAt"] as? String
    else { return nil }
    return timestampFormatter.date(from: text)
  }

  /// A label value with `\`, `"` and newlines escaped (the exposition format's only escapes).
  package static func escapedLabel(_ value: String) -> String {
    value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
  }

  /// Whole numbers without a fraction (`3`, not `3.0`), others in Swift's shortest form.
  package static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
  }

  package static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

  /// ISO 8601 with milliseconds, UTC (a few per run: made when needed).
  package static var timestampFormatter: ISO8601DateFormatter {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter
  }

  package static func timestamp(_ date: Date) -> String { timestampFormatter.string(from: date) }
}
