import Foundation
import Synchronization
import Thumbify

/// What `thumbify crawl` tells people and cron while it runs: a progress bar on a terminal, one line
/// per problem in text or JSON, and the final summary.
final class CrawlProgress: Sendable {
  private struct State {
    var done = 0
    var errors = 0
    var lastDraw: Double = 0
    var isBarDrawn = false
  }

  private let console: Console
  private let format: LogFormat
  private let isQuiet: Bool
  private let showsBar: Bool
  private let total: Int?
  private let started = Date()
  private let state = Mutex(State())
  /// Redraws the bar while no URL finishes (the first ones of a slow host can take seconds).
  private let timer = Mutex<(any DispatchSourceTimer)?>(nil)

  init(console: Console, format: LogFormat, isQuiet: Bool, total: Int?) {
    self.console = console
    self.format = format
    self.isQuiet = isQuiet
    self.showsBar = console.isErrorTerminal && !isQuiet && format == .text
    self.total = total
  }

  /// Draws the bar at once (`0/N`) and then every half second until `finish()`, events or not: a
  /// terminal showed nothing until the first URL finished, which on one host with a missing favicon
  /// was the end of the crawl (issue 21).
  func start() {
    guard showsBar else { return }
    redraw()
    timer.withLock { timer in
      let source = DispatchSource.makeTimerSource(queue: .global())
      source.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
      source.setEventHandler { [weak self] in self?.redraw() }
      source.resume()
      timer = source
    }
  }

  private func redraw() {
    let bar = state.withLock { state -> String in
      let now = Date().timeIntervalSince(started)
      state.lastDraw = now
      state.isBarDrawn = true
      return render(state, elapsed: now)
    }
    console.writeError(raw: "\r\u{1B}[2K" + bar)
  }

  /// Prints a line about the run itself (a stop asked for by a signal) above the bar.
  func note(_ message: String) {
    guard !isQuiet else { return }
    let line =
      format == .json
      ? Diagnostics.logLine(["event": "stopping", "message": message], level: .warning)
      : Console.escapingControls(message)
    console.writeError(raw: showsBar ? "\r\u{1B}[2K" + line + "\n" : line + "\n")
  }

  /// Counts one event, logs it when it is a problem, and redraws the bar at most ten times a second.
  func record(_ event: Crawler.Event) {
    var line: String?
    switch event {
    case .record(let number, let record, _):
      if let error = record.error {
        line = log(number, record.originalURL, outcome: record.outcome.rawValue, error: error)
      }
    case .invalidLine(let number, let text, let error):
      line = log(
        number, text, outcome: "invalid", error: RecordError(code: error.code, message: error.description))
    case .duplicate:
      break
    }
    let bar = state.withLock { state -> String? in
      state.done += 1
      if line != nil { state.errors += 1 }
      let now = Date().timeIntervalSince(started)
      guard showsBar, now - state.lastDraw >= 0.1 || line != nil else { return nil }
      state.lastDraw = now
      state.isBarDrawn = true
      return render(state, elapsed: now)
    }
    if var line, !isQuiet {
      line = Console.escapingControls(line)
      console.writeError(raw: showsBar ? "\r\u{1B}[2K" + line + "\n" : line + "\n")
    }
    if let bar { console.writeError(raw: "\r\u{1B}[2K" + bar) }
  }

  /// Logs a URL removed by `--prune` (JSON log only: the text summary counts them, last-run.json names them).
  func pruned(_ url: String) { logRemoved(url, event: "pruned") }

  /// Logs a URL dropped by `--drop-gone-after`, as `pruned` does.
  func dropped(_ url: String) { logRemoved(url, event: "droppedGone") }

  private func logRemoved(_ url: String, event: String) {
    guard format == .json, !isQuiet else { return }
    let line = Diagnostics.logLine(["event": event, "normalizedURL": url], level: .info)
    let wasDrawn = state.withLock { $0.isBarDrawn }
    console.writeError(raw: (wasDrawn ? "\r\u{1B}[2K" : "") + Console.escapingControls(line) + "\n")
  }

  /// How many cards without an image or icon the text summary names (the rest are in last-run.json).
  static let namedWithoutImage = 3

  /// Erases the bar before the summary.
  func finish() {
    timer.withLock { $0.take() }?.cancel()
    let wasDrawn = state.withLock { $0.isBarDrawn }
    if wasDrawn { console.writeError(raw: "\r\u{1B}[2K") }
  }

  private func log(_ line: Int, _ url: String, outcome: String, error: RecordError) -> String? {
    // A refusal the command line can lift names its flag (`--allow-private-network`).
    let hint = Diagnostics.hint(forCode: error.code)
    switch format {
    case .text:
      return "line \(line): \(outcome) \(url): \(error.message)" + (hint.map { " \($0)" } ?? "")
    case .json:
      var object: [String: Any] = [
        "event": "problem", "command": CrawlCommand.name, "line": line, "originalURL": url,
        "outcome": outcome,
        "code": error.code, "message": error.message,
      ]
      if let hint { object["hint"] = hint }
      return Diagnostics.logLine(object, level: .warning)
    }
  }

  private func render(_ state: State, elapsed: Double) -> String {
    let rate = elapsed > 0 ? Double(state.done) / elapsed : 0
    var text = ""
    if let total, total > 0 {
      let fraction = min(1, Double(state.done) / Double(total))
      let width = 24
      let filled = Int(fraction * Double(width))
      text +=
        "[" + String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled) + "] "
      text += "\(state.done)/\(total) \(Int(fraction * 100))%"
      if rate > 0 {
        let remaining = Double(max(0, total - state.done)) / rate
        text += String(format: "  ETA %d:%02d", Int(remaining) / 60, Int(remaining) % 60)
      }
    } else {
      text += "\(state.done) done"
    }
    text += String(format: "  %.1f URLs/s  errors %d", rate, state.errors)
    return text
  }

  /// The final summary: one paragraph in text, one object in JSON.
  ///
  /// - Parameter report: the path of last-run.json, where the whole report is.
  func summary(
    _ summary: CrawlJob.Summary, written: (blobs: Int, bytes: Int), manifest: String, report: String
  ) -> String {
    let outcomes = summary.outcomes
    let count = { (outcome: CrawlRecord.Outcome) in outcomes[outcome] ?? 0 }
    // Kept records (URLs missing from the list, or not reached by a stopped run) are earlier runs';
    // dropped ones were crawled, and left out of the manifest.
    let crawled = summary.records - summary.kept - summary.keptFromEarlierRuns + summary.droppedGone
    switch format {
    case .json:
      var object: [String: Any] = [
        "event": "summary", "ok": count(.ok), "notModified": count(.notModified),
        "stale": count(.stale), "failed": count(.failed), "newBlobs": written.blobs,
        "bytesWritten": written.bytes, "seconds": (summary.seconds * 1000).rounded() / 1000,
        "manifest": manifest, "report": report, "reused": summary.reused,
        "interrupted": summary.isInterrupted, "keptFromEarlierRuns": summary.keptFromEarlierRuns,
      ]
      // The JSON log lists what the report lists (cards without image or icon, failures, pruned URLs),
      // up to the same cap.
      object.merge(RunReport.members(summary, listing: CrawlReport.maxListed)) { old, _ in old }
      return Diagnostics.logLine(object, level: .info)
    case .text:
      let rate = summary.seconds > 0 ? Double(crawled) / summary.seconds : 0
      var text = String(
        format: "%@ %d URLs in %.1f s (%.1f URLs/s)", summary.isInterrupted ? "Stopped after" : "Crawled",
        crawled, summary.seconds, rate)
      if summary.isResumed {
        text += ", resuming an interrupted run (\(summary.reused) of them done by it, not fetched again)"
      }
      text += ": \(count(.ok)) ok, \(count(.notModified)) not modified, \(count(.stale)) stale, "
      text += "\(count(.failed)) failed.\n"
      text += "Skipped \(summary.invalidLines) invalid \(summary.invalidLines == 1 ? "line" : "lines") and "
      text += "\(summary.duplicates) \(summary.duplicates == 1 ? "duplicate" : "duplicates"); "
      text +=
        "\(summary.imageFailures) \(summary.imageFailures == 1 ? "card" : "cards") without a wanted image or icon"
      let named = summary.report.withoutImage.prefix(Self.namedWithoutImage)
      if !named.isEmpty {
        text += ": " + named.map { "\($0.url) (\($0.kind) \($0.code))" }.joined(separator: ", ")
        let others = summary.report.withoutImageTotal - Set(named.map(\.url)).count
        if others > 0 { text += " and \(others) more" }
      }
      text += ".\n"
      if summary.needsRendering > 0 {
        let cards = summary.needsRendering == 1 ? "1 card is" : "\(summary.needsRendering) cards are"
        text += "\(cards) empty because the page needs JavaScript (an app shell, needsRendering); "
        text += "--render auto renders such pages.\n"
      }
      if let codes = Self.errorCodes(summary.report.byCode) { text += "Errors by code: \(codes).\n" }
      let hosts = summary.report.topHosts().filter { $0.failures > 0 || $0.withoutImage > 0 }
      if !hosts.isEmpty {
        text += "Hosts with the most problems: "
        text +=
          hosts.map { host in
            "\(host.host) (\(host.failures) of \(host.urls) failed or stale, \(host.withoutImage) without image)"
          }.joined(separator: "; ") + ".\n"
      }
      if summary.kept > 0 {
        text += "Kept \(summary.kept) \(summary.kept == 1 ? "URL" : "URLs") missing from the list "
        text += "(their last cards stay in the manifest; --prune removes them).\n"
      }
      if summary.droppedGone > 0 {
        text +=
          "Dropped \(summary.droppedGone) \(summary.droppedGone == 1 ? "URL" : "URLs") gone (404 or 410 "
        text += "on every run) for longer than --drop-gone-after: "
        text += summary.droppedGoneURLs.prefix(Self.namedWithoutImage).joined(separator: ", ")
        let others = summary.droppedGone - min(summary.droppedGoneURLs.count, Self.namedWithoutImage)
        text += others > 0 ? " and \(others) more" : ""
        text += " (records and cards removed; the state remembers them while they stay gone).\n"
      }
      if summary.pruned > 0 {
        text += "Pruned \(summary.pruned) \(summary.pruned == 1 ? "URL" : "URLs") missing from the list "
        text += "(cards, records and state; 'thumbify gc' removes their blobs).\n"
      }
      text +=
        "Wrote \(written.blobs) new \(written.blobs == 1 ? "blob" : "blobs") (\(Self.bytes(written.bytes))).\n"
      if let warning = Self.crashedDecoderWarning(summary.crashedDecoderSkips) { text += warning + "\n" }
      if summary.incomplete > 0 {
        text += summary.incomplete == 1 ? "1 card was" : "\(summary.incomplete) cards were"
        text += " written incomplete: the stop came before their image, icon or oEmbed was made "
        text += "(incomplete); the next run completes them.\n"
      }
      if summary.isInterrupted {
        text += "Interrupted: the URLs not reached were not crawled"
        text +=
          summary.keptFromEarlierRuns > 0
          ? " (the manifest keeps the last good record of \(summary.keptFromEarlierRuns) of them)" : ""
        text += "; run the same command again to do only the rest.\n"
      }
      text += "Manifest: \(manifest)\n"
      text += "Report: \(report)"
      return text
    }
  }

  /// The line naming the images skipped because an earlier run died decoding them, if any.
  static func crashedDecoderWarning(_ urls: [String]) -> String? {
    guard let first = urls.first else { return nil }
    let others = urls.count > 1 ? " and \(urls.count - 1) more" : ""
    return
      "An earlier run died decoding \(urls.count == 1 ? "an image" : "\(urls.count) images"): skipped "
      + "as crashedDecoder (\(first)\(others)); a newer thumbify or changed bytes try again."
  }

  /// `page httpStatus 2, dns 1; image undecodableImage 1`, or nil when there was no error.
  static func errorCodes(_ byCode: [String: [String: Int]]) -> String? {
    let kinds = ["page", "line", "image", "icon"].compactMap { kind -> String? in
      guard let codes = byCode[kind], !codes.isEmpty else { return nil }
      let sorted = codes.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
      return kind + " " + sorted.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
    return kinds.isEmpty ? nil : kinds.joined(separator: "; ")
  }

  static func bytes(_ count: Int) -> String {
    if count < 1024 { return "\(count) bytes" }
    if count < 1 << 20 { return String(format: "%.1f KB", Double(count) / 1024) }
    return String(format: "%.1f MB", Double(count) / Double(1 << 20))
  }

}
