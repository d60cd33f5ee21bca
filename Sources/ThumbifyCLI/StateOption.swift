import Foundation
import Thumbify

/// `--state <dir>`, shared by every command that reads or writes a crawl's state, and the one place
/// the default state directory is resolved and an old `<out>/.thumbify` moved (docs/crawl.md,
/// "State directory").
enum StateOption {
  static let state = Option.text(
    "state", value: "dir",
    help:
      "Where the crawl state (database, run lock) is kept, outside the served output; give every "
      + "command of one output directory the same. (default: "
      + "${XDG_STATE_HOME:-~/.local/state}/thumbify/<name>-<hash>, docs/crawl.md)")

  /// The layout of `outputDirectory` with `--state` or the default state directory, after moving an
  /// old `<out>/.thumbify` there (one line on standard error says what was moved where, unless
  /// `isQuiet`; a warning is printed even then). With `isJSON` the line is a JSON object
  /// (`{"event":"stateMoved"|"warning","message":…}`), like the crawl's other log lines.
  ///
  /// - Throws: `StoreError` when no state directory can be found or the old one cannot be moved.
  static func layout(
    _ arguments: ParsedArguments, outputDirectory: String, console: Console, isQuiet: Bool,
    isJSON: Bool = false, command: String = ""
  ) throws(StoreError) -> OutputLayout {
    let layout = try OutputLayout.resolving(
      outputDirectory, stateDirectory: try? arguments.value(state), environment: console.environment)
    let outcome = try StateMigration.run(layout)
    if outcome != .nothing && (!isQuiet || outcome.isWarning) {
      let diagnostics = Diagnostics(console: console, format: isJSON ? .json : .text, command: command)
      diagnostics.note(outcome.description, event: outcome.isWarning ? "warning" : "stateMoved")
    }
    return layout
  }
}
