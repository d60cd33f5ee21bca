import Foundation
import Thumbify

/// `thumbify gc <dir>`: removes blobs that no manifest record or saved state references.
enum GCCommand: Subcommand {
  static let name = "gc"

  static let spec = CommandSpec(
    commandName: "thumbify gc",
    abstract: "Remove blobs that no manifest record references.",
    discussion: """
      Deletes files under <dir>/blobs that neither manifest.jsonl nor the crawl state \
      references and that are older than the grace period; a referenced blob is never \
      deleted. Refuses to run while a crawl holds the directory (exit 70).
      """,
    arguments: [ArgumentSpec("dir", help: "A crawl's output directory.")],
    options: [
      .option(
        "grace", value: "duration", help: "Keep unreferenced blobs younger than this (e.g. 1d, 12h, 0).",
        default: "1d"),
      .flag("quiet", short: "q", help: "Print nothing but fatal errors."),
    ]
  )

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    let graceText = arguments.value("grace") ?? "1d"
    guard let grace = DurationParser.seconds(graceText) else {
      throw UsageError("The value '\(graceText)' is invalid for '--grace <duration>'")
    }
    let directory = arguments.positionals[0]
    guard
      FileManager.default.fileExists(atPath: OutputLayout(directory).manifest)
        || FileManager.default.fileExists(atPath: OutputLayout(directory).stateDatabase)
    else {
      console.printError(
        "Error: '\(directory)' is not a crawl output directory (no manifest.jsonl or state).")
      return ExitCode.fatal
    }
    let report: GarbageCollector.Report
    do {
      report = try GarbageCollector(outputDirectory: directory, grace: grace).collect()
    } catch {
      console.printError("Error: \(error.description)")
      return ExitCode.fatal
    }
    if !arguments.flag("quiet") {
      console.print(
        "Removed \(report.removed) unreferenced \(report.removed == 1 ? "blob" : "blobs") "
          + "(\(CrawlProgress.bytes(report.removedBytes))); kept \(report.kept) referenced "
          + "(\(CrawlProgress.bytes(report.keptBytes))) and \(report.keptYoung) younger than the grace period."
      )
    }
    return ExitCode.success
  }
}
