import Foundation
import Thumbify

/// `thumbify report <dir> [--out <file>]`: a static HTML page of a crawl's link cards.
enum ReportCommand: Subcommand {
  static let name = "report"

  static let spec = CommandSpec(
    commandName: "thumbify report",
    abstract: "Write a static HTML page of the link cards in a crawl's output.",
    discussion: """
      Reads <dir>/manifest.jsonl and writes one self-contained page (inline style \
      and script under a strict Content-Security-Policy, no external resources) \
      showing every card with its thumbnails, placeholder, icon and errors. Image \
      paths are relative, so the page works when <dir> is served or opened from disk. \
      It reads no state: --state is taken so that every command of one output directory \
      takes the same options (a state left in <dir>/.thumbify is moved there). Exits 70 \
      when the manifest cannot be read or the page cannot be written.
      """,
    arguments: [ArgumentSpec("dir", help: "The crawl's output directory.")],
    options: [out.spec, StateOption.state.spec, pageSize.spec]
  )

  static let out = Option.text(
    "out", short: "o", value: "file", help: "Where to write the page (default: <dir>/index.html).")
  static let pageSize = Option.integer(
    "page-size", help: "Cards per page (1–10000).", default: 500, range: 1...10_000)

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    let pageSize = try arguments.required(pageSize)
    let format = try LogFormat.parse(arguments)
    let diagnostics = Diagnostics(console: console, format: format, command: name)
    let directory = arguments.positionals[0]
    // The report reads no state: a state directory that cannot be found matters only when named.
    do {
      _ = try StateOption.layout(
        arguments, outputDirectory: directory, console: console, isQuiet: false, isJSON: format == .json,
        command: name)
    } catch  where arguments.has(StateOption.state) {
      diagnostics.error(error.description, code: error.code)
      return ExitCode.fatal
    } catch {}
    let writer = ReportWriter(
      outputDirectory: directory, reportPath: try arguments.value(out), pageSize: pageSize)
    do {
      let summary = try writer.write()
      diagnostics.summary(
        "Wrote \(writer.reportPath): \(summary.total) cards (\(summary.ok) ok, \(summary.stale) stale, "
          + "\(summary.failed) failed), \(summary.bytes) bytes.",
        fields: [
          "report": writer.reportPath, "cards": summary.total, "ok": summary.ok, "stale": summary.stale,
          "failed": summary.failed, "bytes": summary.bytes,
        ])
      return ExitCode.success
    } catch {
      diagnostics.error(error.description, code: error.code)
      return ExitCode.fatal
    }
  }
}
