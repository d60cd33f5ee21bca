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
      the end of a run; this command is for directories made by other tools. Exits \
      70 when the manifest cannot be read or a card cannot be written.
      """,
    arguments: [ArgumentSpec("dir", help: "The crawl's output directory.")]
  )

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    let diagnostics = Diagnostics(console: console, format: try LogFormat.parse(arguments), command: name)
    let writer = CardWriter(outputDirectory: arguments.positionals[0])
    do {
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
