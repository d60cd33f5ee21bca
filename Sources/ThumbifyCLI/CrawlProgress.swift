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

  init(console: Console, format: LogFormat, isQuiet: Bool, total: Int?) {
    self.console = console
    self.format = format
    self.isQuiet = isQuiet
    self.showsBar = console.isErrorTerminal && !isQuiet && format == .text
    self.total = total
  }

  /// Counts one event, logs it when it is a problem, and redraws the bar at most ten times a second.
  func record(_ event: Crawler.Event) {
    var line: String?
    switch event {
    case .record(let number, let record, _):
      if let error = record.error {
        line = log(number, record.url, outcome: record.outcome.rawValue, error: error)
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

  /// Erases the bar before the summary.
  func finish() {
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
        "event": "problem", "command": CrawlCommand.name, "line": line, "url": url, "outcome": outcome,
        "code": error.code, "message": error.message,
      ]
      if let hint { object["hint"] = hint }
      return Self.json(object)
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
  func summary(_ summary: CrawlJob.Summary, written: (blobs: Int, bytes: Int), manifest: String) -> String {
    let outcomes = summary.outcomes
    let count = { (outcome: CrawlRecord.Outcome) in outcomes[outcome] ?? 0 }
    switch format {
    case .json:
      return Self.json([
        "event": "summary", "records": summary.records, "ok": count(.ok), "notModified": count(.notModified),
        "stale": count(.stale), "failed": count(.failed), "invalidLines": summary.invalidLines,
        "duplicates": summary.duplicates, "imageFailures": summary.imageFailures, "newBlobs": written.blobs,
        "bytesWritten": written.bytes, "seconds": (summary.seconds * 1000).rounded() / 1000,
        "resumed": summary.isResumed, "manifest": manifest, "crashedDecoder": summary.crashedDecoderSkips,
      ]) ?? "{}"
    case .text:
      let rate = summary.seconds > 0 ? Double(summary.records) / summary.seconds : 0
      var text = String(
        format: "Crawled %d URLs in %.1f s (%.1f URLs/s)", summary.records, summary.seconds, rate)
      text += summary.isResumed ? ", resuming an interrupted run" : ""
      text += ": \(count(.ok)) ok, \(count(.notModified)) not modified, \(count(.stale)) stale, "
      text += "\(count(.failed)) failed.\n"
      text += "Skipped \(summary.invalidLines) invalid \(summary.invalidLines == 1 ? "line" : "lines") and "
      text += "\(summary.duplicates) \(summary.duplicates == 1 ? "duplicate" : "duplicates"); "
      text +=
        "\(summary.imageFailures) \(summary.imageFailures == 1 ? "card" : "cards") without a wanted image or icon.\n"
      text +=
        "Wrote \(written.blobs) new \(written.blobs == 1 ? "blob" : "blobs") (\(Self.bytes(written.bytes))).\n"
      if let warning = Self.crashedDecoderWarning(summary.crashedDecoderSkips) { text += warning + "\n" }
      text += "Manifest: \(manifest)"
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

  static func bytes(_ count: Int) -> String {
    if count < 1024 { return "\(count) bytes" }
    if count < 1 << 20 { return String(format: "%.1f KB", Double(count) / 1024) }
    return String(format: "%.1f MB", Double(count) / Double(1 << 20))
  }

  static func json(_ object: [String: Any]) -> String? { Diagnostics.json(object) }
}
