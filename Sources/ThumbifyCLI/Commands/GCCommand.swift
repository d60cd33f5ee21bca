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
      deleted. Refuses to run while a crawl holds the directory (exit 70), and when <dir> \
      is a crawl's (it has cards/) but its state is not found: give the crawl's --state.
      """,
    arguments: [ArgumentSpec("dir", help: "A crawl's output directory.")],
    options: [StateOption.state.spec, grace.spec, Flag.quiet.spec]
  )

  static let grace = Option.duration(
    "grace", help: "Keep unreferenced blobs younger than this (e.g. 1d, 12h, 0).", default: "1d",
    allowsZero: true)

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    let grace = try arguments.required(grace)
    let diagnostics = Diagnostics(console: console, format: try LogFormat.parse(arguments), command: name)
    let directory = arguments.positionals[0]
    let isQuiet = arguments.isSet(.quiet)
    let layout: OutputLayout
    do {
      layout = try StateOption.layout(
        arguments, outputDirectory: directory, console: console, isQuiet: isQuiet,
        isJSON: diagnostics.format == .json, command: name)
    } catch {
      diagnostics.error(error.description)
      return ExitCode.fatal
    }
    guard
      FileManager.default.fileExists(atPath: layout.manifest)
        || FileManager.default.fileExists(atPath: layout.stateDatabase)
    else {
      diagnostics.error(
        "'\(directory)' is not a crawl output directory (no manifest.jsonl or state).",
        hint: "Give the --out directory of a crawl.")
      return ExitCode.fatal
    }
    // A crawl's state references blobs the manifest does not (stale fallbacks, cached thumbnails):
    // collecting without it, because --state was given to the crawl and not here, would delete them.
    if FileManager.default.fileExists(atPath: layout.cards)
      && !FileManager.default.fileExists(atPath: layout.stateDatabase)
    {
      diagnostics.error(
        "'\(directory)' is a crawl's output directory, but its state is not in '\(layout.stateDirectory)'.",
        hint: "Give the crawl's --state <dir>.")
      return ExitCode.fatal
    }
    let report: GarbageCollector.Report
    do {
      report = try GarbageCollector(layout: layout, grace: grace).collect()
    } catch {
      diagnostics.error(error.description, code: error.code)
      return ExitCode.fatal
    }
    if !isQuiet {
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
