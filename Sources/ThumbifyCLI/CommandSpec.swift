/// A positional argument of a command.
package struct ArgumentSpec: Sendable {
  package var name: String
  package var help: String
  package var isRepeating: Bool
  package var isOptional: Bool

  package init(_ name: String, help: String, isRepeating: Bool = false, isOptional: Bool = false) {
    self.name = name
    self.help = help
    self.isRepeating = isRepeating
    self.isOptional = isOptional
  }

  var usage: String {
    let core = isRepeating ? "<\(name)> ..." : "<\(name)>"
    return isOptional ? "[\(core)]" : core
  }
}

/// A named option (`--out <dir>`) or flag (`--quiet`) of a command.
package struct OptionSpec: Sendable {
  package var long: String
  package var short: Character?
  /// The value's placeholder; `nil` makes this a flag that takes no value.
  package var valueName: String?
  package var help: String
  package var defaultValue: String?
  package var isRequired: Bool
  /// Whether the option may be given more than once (each value is kept).
  package var isRepeating: Bool
  /// The only values the option takes, for completion scripts (the command still checks the value).
  package var choices: [String] = []

  package static func option(
    _ long: String, short: Character? = nil, value: String, help: String,
    default defaultValue: String? = nil, isRequired: Bool = false, isRepeating: Bool = false,
    choices: [String] = []
  ) -> OptionSpec {
    OptionSpec(
      long: long, short: short, valueName: value, help: help, defaultValue: defaultValue,
      isRequired: isRequired, isRepeating: isRepeating, choices: choices)
  }

  package static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(
      long: long, short: short, valueName: nil, help: help, defaultValue: nil, isRequired: false,
      isRepeating: false)
  }

  var isFlag: Bool { valueName == nil }

  /// `--out <dir>`, as usage lines and error messages name it.
  var synopsis: String {
    guard let valueName else { return "--\(long)" }
    return "--\(long) <\(valueName)>"
  }

  /// `-o, --out <dir>`, as the help's OPTIONS section labels it.
  var label: String {
    let shortPart = short.map { "-\($0), " } ?? ""
    return shortPart + synopsis
  }
}

/// A command's interface: what it accepts and how its help reads.
package struct CommandSpec: Sendable {
  /// The full command name as typed, e.g. `thumbify thumb`.
  package var commandName: String
  package var abstract: String
  package var discussion: String?
  package var arguments: [ArgumentSpec]
  package var options: [OptionSpec]
  /// Whether the command takes `--log-format` (every subcommand; not `thumbify` itself nor `help`,
  /// which only print help).
  package var takesLogFormat: Bool

  package init(
    commandName: String, abstract: String, discussion: String? = nil,
    arguments: [ArgumentSpec] = [], options: [OptionSpec] = [], takesLogFormat: Bool = true
  ) {
    self.commandName = commandName
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.options = options
    self.takesLogFormat = takesLogFormat
  }

  static let helpOption = OptionSpec.flag("help", short: "h", help: "Show help information.")

  /// How a command's log and error lines on standard error are written. Every command takes it, so it is
  /// not listed in each spec: one declaration, one meaning (docs/cli.md, "Options every command takes").
  static var logFormatOption: OptionSpec { LogFormat.option.spec }

  /// The options the command line shows in usage lines: the command's own and `--log-format`.
  var usageOptions: [OptionSpec] { takesLogFormat ? options + [Self.logFormatOption] : options }
  /// The options as parsed, including the implicit `--log-format` and `-h, --help`.
  var allOptions: [OptionSpec] { usageOptions + [Self.helpOption] }
}
