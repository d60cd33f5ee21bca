import Foundation
import Thumbify

/// `thumbify cards <dir>`: regenerates `<dir>/cards/` from the manifest.
enum CardsCommand: Subcommand {
  static let name = "cards"

  static let spec = CommandSpec(
    commandName: "thumbify cards",
    abstract: "Rewrite the per-URL card files of a crawl's output from its manifest.",
    discussion: """
      Writes <dir>/cards/<key>.json for every record of <dir>/manifest.jsonl \
      (docs/cards.md): cards whose content is unchanged are not rewritten, cards \
      of URLs no longer in the manifest are removed. The crawl does this itself at \
      the end of a run; this command is for directories made by other tools. When the \
      directory has a state (--state), its run lock is held meanwhile, so cards are \
      never written under a crawl or a server working on it. Exits 70 when the \
      directory is locked, the manifest cannot be read or a card cannot be written.
      """,
    arguments: [ArgumentSpec("dir", help: "The crawl's output directory.")],
    options: [StateOption.state.spec]
  )

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    let format = try LogFormat.parse(arguments)
    let diagnostics = Diagnostics(console: console, format: format, command: name)
    let directory = arguments.positionals[0]
    let writer = CardWriter(outputDirectory: directory)
    do {
      // No state directory to be found (neither XDG_STATE_HOME nor HOME) matters only when named.
      var layout: OutputLayout?
      do {
        layout = try StateOption.layout(
          arguments, outputDirectory: directory, console: console, isQuiet: false, isJSON: format == .json,
          command: name)
      } catch  where !arguments.has(StateOption.state) {}
      // A directory with a state is a crawl's (or a server's): its run lock keeps this off their
      // writes. One made by other tools has none, and gets none.
      let lock = try layout.flatMap { (layout) throws(StoreError) -> RunLock? in
        FileManager.default.fileExists(atPath: layout.stateDirectory) ? try RunLock(layout) : nil
      }
      defer { withExtendedLifetime(lock) {} }
      let summary = try writer.writeFromManifest()
      diagnostics.summary(
        "\(writer.cardsDirectory): \(summary.written) written, \(summary.unchanged) unchanged, "
          + "\(summary.removed) removed.",
        fields: [
          "cards": writer.cardsDirectory, "written": summary.written, "unchanged": summary.unchanged,
          "removed": summary.removed,
        ])
      return ExitCode.success
    } catch {
      diagnostics.error(error.description, code: error.code)
      return ExitCode.fatal
    }
  }
}
