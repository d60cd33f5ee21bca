import Thumbify

/// The `thumbify` command line: dispatches to subcommands and renders help,
/// `--version` and usage errors with swift-argument-parser's conventions.
package enum ThumbifyCommandLine {
  /// Every subcommand, in the order `--help` lists them.
  static let subcommands: [any Subcommand.Type] = [
    ThumbCommand.self,
    ExtractCommand.self,
    CrawlCommand.self,
    ServeCommand.self,
    GCCommand.self,
    MergeCommand.self,
    ReportCommand.self,
    CardsCommand.self,
    CardKeyCommand.self,
  ]

  static let rootSpec = CommandSpec(
    commandName: "thumbify",
    abstract: "Link previews and thumbnails for whole URL corpora.",
    discussion: "Without arguments, prints this help. docs/cli.md lists every command's options.",
    options: [version.spec, completionScript.spec, manual.spec],
    takesLogFormat: false
  )

  static let version = Flag("version", help: "Show the version.")
  static let completionScript = Option<CompletionScript.Shell>.choice(
    "generate-completion-script", value: "shell",
    help: "Print a completion script for bash, zsh or fish, generated from the commands' options.")
  static let manual = Flag(
    "generate-manual", help: "Print the manual page thumbify(1) in roff (man -l - reads it).")

  /// `thumbify help [<subcommand>]`, a command of its own so that `thumbify help help` works.
  static let helpSpec = CommandSpec(
    commandName: "thumbify help",
    abstract: "Show subcommand help information.",
    arguments: [ArgumentSpec("subcommand", help: "The command to show the help of.", isOptional: true)],
    takesLogFormat: false
  )

  /// Every command with its spec, `thumbify` itself first and `help` last: what completion scripts,
  /// the manual page and docs/cli.md are generated from.
  static var commands: [(name: String, spec: CommandSpec)] {
    [(name: "", spec: rootSpec)] + subcommands.map { (name: $0.name, spec: $0.spec) }
      + [(name: "help", spec: helpSpec)]
  }

  static var rootHelp: String {
    let entries = commands.dropFirst().map { (name: $0.name, abstract: $0.spec.abstract) }
    return HelpFormatter.help(rootSpec, subcommands: Array(entries))
  }

  /// Runs one command line and returns the process exit code.
  ///
  /// - Parameter arguments: the arguments after the program name.
  package static func run(_ arguments: [String], console: Console = .standard) async -> Int32 {
    // Bare `thumbify` is a request for help (as with swift-argument-parser), not a mistake: exit 0.
    guard let first = arguments.first else {
      console.print(rootHelp, terminator: "")
      return ExitCode.success
    }
    if first == "help" { return help(Array(arguments.dropFirst()), console: console) }
    if first.hasPrefix("-") { return root(arguments, console: console) }
    guard let command = subcommands.first(where: { $0.name == first }) else {
      return fail(
        UsageError("Unexpected argument '\(first)'"),
        spec: rootSpec, arguments: arguments, console: console)
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
      return fail(error, spec: spec, arguments: arguments, console: console)
    }
  }

  /// `thumbify --help`, `--version`, `--generate-completion-script <shell>`, `--generate-manual`.
  private static func root(_ arguments: [String], console: Console) -> Int32 {
    do throws(UsageError) {
      let parsed = try ArgumentParser.parse(arguments, spec: rootSpec)
      if parsed.isHelpRequested {
        console.print(rootHelp, terminator: "")
      } else if parsed.isSet(version) {
        console.print(ThumbifyVersion.current)
      } else if let shell = try parsed.value(completionScript) {
        console.print(CompletionScript.script(for: shell, commands: commands), terminator: "")
      } else if parsed.isSet(manual) {
        console.print(ManualPage.roff(commands: commands, version: ThumbifyVersion.current), terminator: "")
      } else {
        console.print(rootHelp, terminator: "")
      }
      return ExitCode.success
    } catch {
      return fail(error, spec: rootSpec, arguments: arguments, console: console)
    }
  }

  private static func help(_ arguments: [String], console: Console) -> Int32 {
    let parsed: ParsedArguments
    do {
      parsed = try ArgumentParser.parse(arguments, spec: helpSpec)
    } catch {
      return fail(error, spec: helpSpec, arguments: arguments, console: console)
    }
    if parsed.isHelpRequested {
      console.print(HelpFormatter.help(helpSpec), terminator: "")
      return ExitCode.success
    }
    guard let name = parsed.positionals.first else {
      console.print(rootHelp, terminator: "")
      return ExitCode.success
    }
    guard let command = commands.dropFirst().first(where: { $0.name == name }) else {
      return fail(
        UsageError("Unknown subcommand '\(name)'"),
        spec: helpSpec, arguments: arguments, console: console)
    }
    console.print(HelpFormatter.help(command.spec), terminator: "")
    return ExitCode.success
  }

  private static func fail(_ error: UsageError, spec: CommandSpec, arguments: [String], console: Console)
    -> Int32
  {
    let isRoot = spec.commandName == rootSpec.commandName
    let usage = isRoot ? "thumbify <subcommand>" : HelpFormatter.usage(spec)
    let format = spec.takesLogFormat ? LogFormat.requested(in: arguments) : .text
    let command = isRoot ? "" : String(spec.commandName.dropFirst("thumbify ".count))
    Diagnostics(console: console, format: format, command: command)
      .usageError(error, usage: usage, helpCommand: spec.commandName)
    return ExitCode.usage
  }
}
