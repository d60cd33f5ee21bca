/// One `thumbify <name>` subcommand.
protocol Subcommand: Sendable {
  /// The word typed after `thumbify`.
  static var name: String { get }
  static var spec: CommandSpec { get }
  /// Runs the command with arguments already checked against `spec`.
  ///
  /// Throw `UsageError` for values the spec could not check (a malformed
  /// `--size`); report runtime failures on the console and return an `ExitCode`.
  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32
}

extension Subcommand {
  static func usageError(_ message: String) -> UsageError { UsageError(message) }
}
