import Foundation
import Testing
import Thumbify

@testable import ThumbifyCLI

@Suite("Crawl progress and summary")
struct CrawlProgressTests {
  /// Issue 21: a terminal showed nothing until the first URL finished (on one host, the end of the
  /// crawl). The bar is drawn at the start and redrawn while no URL finishes.
  @Test func theBarShowsFromTheStartAndWithoutEvents() async throws {
    let captured = CapturedConsole(isErrorTerminal: true)
    let progress = CrawlProgress(console: captured.console, format: .text, isQuiet: false, total: 41)
    progress.start()
    defer { progress.finish() }
    #expect(captured.standardError.contains("0/41 0%"))
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(10)
    while captured.standardError.components(separatedBy: "0/41 0%").count < 3, clock.now < deadline {
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(captured.standardError.components(separatedBy: "0/41 0%").count >= 3, "not redrawn")
  }

  @Test func quietAndJSONDrawNoBar() {
    for (format, isQuiet) in [(LogFormat.json, false), (.text, true)] {
      let captured = CapturedConsole(isErrorTerminal: true)
      let progress = CrawlProgress(console: captured.console, format: format, isQuiet: isQuiet, total: 3)
      progress.start()
      progress.finish()
      #expect(captured.standardError.isEmpty)
    }
  }

  @Test func aStoppedRunsSummarySaysSoAndCountsOnlyItsOwnURLs() {
    let progress = CrawlProgress(
      console: CapturedConsole().console, format: .text, isQuiet: false, total: nil)
    var summary = CrawlJob.Summary()
    summary.outcomes = [.ok: 12]
    summary.records = 41
    summary.keptFromEarlierRuns = 29
    summary.isInterrupted = true
    summary.seconds = 2
    let text = progress.summary(
      summary, written: (0, 0), manifest: "out/manifest.jsonl", report: "state/last-run.json")
    #expect(text.hasPrefix("Stopped after 12 URLs in 2.0 s (6.0 URLs/s): 12 ok,"))
    #expect(
      text.contains(
        "Interrupted: the URLs not reached were not crawled (the manifest keeps the last good record of 29 "
          + "of them); run the same command again to do only the rest.\n"))
    summary.isInterrupted = false
    summary.keptFromEarlierRuns = 0
    summary.isResumed = true
    summary.reused = 12
    summary.outcomes = [.ok: 41]
    let resumed = progress.summary(
      summary, written: (0, 0), manifest: "out/manifest.jsonl", report: "state/last-run.json")
    #expect(
      resumed.hasPrefix(
        "Crawled 41 URLs in 2.0 s (20.5 URLs/s), resuming an interrupted run (12 of them done by it, not "
          + "fetched again): 41 ok,"))
  }
}
