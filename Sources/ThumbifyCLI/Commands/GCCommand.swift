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
    let grace = try DurationParser.value("grace", in: arguments, allowsZero: true) ?? 86_400
    let diagnostics = Diagnostics(console: console, format: try LogFormat.parse(arguments), command: name)
    let directory = arguments.positionals[0]
    guard
      FileManager.default.fileExists(atPath: OutputLayout(directory).manifest)
        || FileManager.default.fileExists(atPath: OutputLayout(directory).stateDatabase)
    else {
      diagnostics.error(
        "'\(directory)' is not a crawl output directory (no manifest.jsonl or state).",
        hint: "Give the --out directory of a crawl.")
      return ExitCode.fatal
    }
    let report: GarbageCollector.Report
    do {
      report = try GarbageCollector(outputDirectory: directory, grace: grace).collect()
    } catch {
      diagnostics.error(error.description, code: error.code)
      return ExitCode.fatal
    }
    if !arguments.flag("quiet") {
      diagnostics.summary(
        "Removed \(report.removed) unreferenced \(report.removed == 1 ? "blob" : "blobs") "
          + "(\(CrawlProgress.bytes(report.removedBytes))); kept \(report.kept) referenced "
          + "(\(CrawlProgress.bytes(report.keptBytes))) and \(report.keptYoung) younger than the grace period.",
        fields: [
          "removed": report.removed, "removedBytes": report.removedBytes, "kept": report.kept,
          "keptBytes": report.keptBytes, "keptYoung": report.keptYoung,
        ])
    }
    return ExitCode.success
  }
}
