/// A command line that did not match the command's interface.
///
/// Rendered as swift-argument-parser does: `Error: <message>`, the usage line,
/// and a pointer to `--help`, on standard error with exit code 64.
package struct UsageError: Error, Sendable, Equatable {
  package var message: String
  /// What to do instead, printed on the line after the message.
  package var hint: String?
  package init(_ message: String, hint: String? = nil) {
    self.message = message
    self.hint = hint
  }
}

/// The arguments of one command after parsing.
package struct ParsedArguments: Sendable {
  package var positionals: [String] = []
  var values: [String: [String]] = [:]
  var flags: Set<String> = []
  package var isHelpRequested: Bool { flags.contains("help") }

  // Read through the options' declarations (`Option`, `Flag`: Option.swift), never by a name typed again.
  /// The last value given for the option, or its default.
  func text(_ option: OptionSpec) -> String? { values[option.long]?.last }
  /// Every value given for a repeating option, in order.
  func texts(_ option: OptionSpec) -> [String] { values[option.long] ?? [] }
  /// Whether the flag was given, or the option has a value (given, or its default).
  func has(_ option: OptionSpec) -> Bool {
    option.isFlag ? flags.contains(option.long) : values[option.long] != nil
  }
}

/// Parses arguments against a `CommandSpec`: `--opt value`, `--opt=value`,
/// `-o value`, flags, `--` ending options, and `-` as an ordinary positional
/// (it means standard input).
enum ArgumentParser {
  static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      let (name, inlineValue) = split(argument)
      guard let option = find(name, in: spec) else {
        throw UsageError("Unknown option '\(name)'")
      }
      if option.isFlag {
        if inlineValue != nil { throw UsageError("The option '\(name)' does not take a value") }
        parsed.flags.insert(option.long)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else if index < arguments.count, !isOptionLike(arguments[index]) {
        value = arguments[index]
        index += 1
      } else {
        throw UsageError("Missing value for '\(option.synopsis)'")
      }
      parsed.values[option.long, default: []].append(value)
    }
    if parsed.isHelpRequested { return parsed }
    try validate(&parsed, spec: spec)
    return parsed
  }

  private static func split(_ argument: String) -> (name: String, value: String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  private static func find(_ name: String, in spec: CommandSpec) -> OptionSpec? {
    if name.hasPrefix("--") {
      let long = name.dropFirst(2)
      return spec.allOptions.first { $0.long == long }
    }
    guard name.count == 2, let short = name.last else { return nil }
    return spec.allOptions.first { $0.short == short }
  }

  /// A value may itself start with `-` only when it is exactly `-` (stdin) or a digit follows the minus
  /// (`-1`, `-1s`, `-.5`): `--timeout -1` is then refused as an invalid value, which says what is
  /// accepted, not as a missing one. No option's short name is a digit.
  private static func isOptionLike(_ argument: String) -> Bool {
    guard argument.hasPrefix("-"), argument != "-" else { return false }
    let next = argument.dropFirst().first
    return !(next?.isNumber == true || next == ".")
  }

  private static func validate(_ parsed: inout ParsedArguments, spec: CommandSpec) throws(UsageError) {
    // No value of any command may be empty: an empty path would mean the current or root directory
    // (`--out ""` once wrote into `/`), and no other value is meaningful empty.
    for option in spec.allOptions where parsed.values[option.long]?.contains("") == true {
      throw UsageError("The value '' is invalid for '\(option.synopsis)'")
    }
    if let index = parsed.positionals.firstIndex(of: ""), let last = spec.arguments.indices.last {
      throw UsageError("The value '' is invalid for '\(spec.arguments[min(index, last)].usage)'")
    }
    for option in spec.allOptions where !option.isFlag {
      if parsed.values[option.long] == nil {
        if let defaultValue = option.defaultValue {
          parsed.values[option.long] = [defaultValue]
        } else if option.isRequired {
          throw UsageError("Missing expected argument '\(option.synopsis)'")
        }
      } else if !option.isRepeating, let given = parsed.values[option.long], given.count > 1 {
        parsed.values[option.long] = Array(given.suffix(1))
      }
    }
    let required = spec.arguments.filter { !$0.isOptional }
    if parsed.positionals.count < required.count {
      throw UsageError("Missing expected argument '\(required[parsed.positionals.count].usage)'")
    }
    let acceptsMore = spec.arguments.last?.isRepeating ?? false
    if !acceptsMore, parsed.positionals.count > spec.arguments.count {
      throw UsageError("Unexpected argument '\(parsed.positionals[spec.arguments.count])'")
    }
  }
}
