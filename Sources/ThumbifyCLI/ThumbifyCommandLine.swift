import Thumbify

/// The `thumbify` command line: dispatches to subcommands and renders help,
/// `--version` and usage errors with swift-argument-parser's conventions.
public enum ThumbifyCommandLine {
  /// Every subcommand, in the order `--help` lists them.
  static let subcommands: [any Subcommand.Type] = [
    ThumbCommand.self,
    ExtractCommand.self,
  ]

  static let rootSpec = CommandSpec(
    commandName: "thumbify",
    abstract: "Link previews and thumbnails for whole URL corpora.",
    options: [.flag("version", help: "Show the version.")]
  )

  static var rootHelp: String {
    var entries = subcommands.map { (name: $0.name, abstract: $0.spec.abstract) }
    entries.append((name: "help", abstract: "Show subcommand help information."))
    return HelpFormatter.help(rootSpec, subcommands: entries)
  }

  /// Runs one command line and returns the process exit code.
  ///
  /// - Parameter arguments: the arguments after the program name.
  public static func run(_ arguments: [String], console: Console = .standard) async -> Int32 {
    guard let first = arguments.first else {
      return fail(UsageError("Missing expected argument '<subcommand>'"), spec: rootSpec, console: console)
    }
    switch first {
    case "-h", "--help":
      console.print(rootHelp, terminator: "")
      return ExitCode.success
    case "--version":
      console.print(ThumbifyVersion.current)
      return ExitCode.success
    case "help":
      return help(Array(arguments.dropFirst()), console: console)
    default:
      break
    }
    guard let command = subcommands.first(where: { $0.name == first }) else {
      let message = first.hasPrefix("-") ? "Unknown option '\(first)'" : "Unexpected argument '\(first)'"
      return fail(UsageError(message), spec: rootSpec, console: console)
    }
    let spec = command.spec
    do {
      let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), spec: spec)
      if parsed.isHelpRequested {
        console.print(HelpFormatter.help(spec), terminator: "")
        return ExitCode.success
      }
      return try await command.run(parsed, console: console)
    } catch {
      return fail(error, spec: spec, console: console)
    }
  }

  private static func help(_ arguments: [String], console: Console) -> Int32 {
    guard let name = arguments.first else {
      console.print(rootHelp, terminator: "")
      return ExitCode.success
    }
    guard let command = subcommands.first(where: { $0.name == name }) else {
      return fail(UsageError("Unknown subcommand '\(name)'"), spec: rootSpec, console: console)
    }
    console.print(HelpFormatter.help(command.spec), terminator: "")
    return ExitCode.success
  }

  private static func fail(_ error: UsageError, spec: CommandSpec, console: Console) -> Int32 {
    let usage = spec.commandName == rootSpec.commandName ? "thumbify <subcommand>" : HelpFormatter.usage(spec)
    console.printError("Error: \(error.message)")
    console.printError("Usage: \(usage)")
    console.printError("  See '\(spec.commandName) --help' for more information.")
    return ExitCode.usage
  }
}
