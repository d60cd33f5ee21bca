import Foundation

/// Renders help text the way swift-argument-parser does: section titles in
/// capitals, labels at column 2, help text at column 26, wrapped at 80 columns.
enum HelpFormatter {
  static let width = 80
  static let labelIndent = 2
  static let helpColumn = 26

  /// `thumbify thumb <images> ... --out <dir> [--size <size>]`
  static func usage(_ spec: CommandSpec) -> String {
    var parts = [spec.commandName]
    for argument in spec.arguments { parts.append(argument.usage) }
    for option in spec.usageOptions {
      var piece = option.synopsis
      if option.isRepeating { piece += " ..." }
      parts.append(option.isRequired ? piece : "[\(piece)]")
    }
    return parts.joined(separator: " ")
  }

  static func help(_ spec: CommandSpec, subcommands: [(name: String, abstract: String)] = []) -> String {
    var text = "OVERVIEW: \(spec.abstract)\n"
    if let discussion = spec.discussion {
      // A paragraph indented by two spaces (a table, such as the exit codes) is kept as written.
      let paragraphs = discussion.components(separatedBy: "\n\n").map {
        $0.hasPrefix("  ") ? $0 : wrap($0, width: width).joined(separator: "\n")
      }
      text += "\n" + paragraphs.joined(separator: "\n\n") + "\n"
    }
    let usageLine = subcommands.isEmpty ? usage(spec) : "\(spec.commandName) <subcommand>"
    text += "\nUSAGE: \(usageLine)\n"
    if !spec.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      for argument in spec.arguments { text += row(label: "<\(argument.name)>", help: argument.help) }
    }
    text += "\nOPTIONS:\n"
    for option in spec.allOptions {
      var help = option.help
      if let defaultValue = option.defaultValue { help += " (default: \(defaultValue))" }
      text += row(label: option.label, help: help)
    }
    if !subcommands.isEmpty {
      text += "\nSUBCOMMANDS:\n"
      for subcommand in subcommands { text += row(label: subcommand.name, help: subcommand.abstract) }
      text += "\n  See '\(spec.commandName) help <subcommand>' for detailed help.\n"
    }
    return text
  }

  /// One labelled row; the help starts on the next line when the label is too wide.
  static func row(label: String, help: String) -> String {
    let indent = String(repeating: " ", count: labelIndent)
    let lines = wrap(help, width: width - helpColumn)
    let pad = String(repeating: " ", count: helpColumn)
    var text = indent + label
    if label.count + labelIndent + 2 <= helpColumn {
      text += String(repeating: " ", count: helpColumn - labelIndent - label.count)
      text += (lines.first ?? "") + "\n"
      for line in lines.dropFirst() { text += pad + line + "\n" }
    } else {
      text += "\n"
      for line in lines { text += pad + line + "\n" }
    }
    return text
  }

  /// Greedy word wrap.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      if current.isEmpty {
        current = String(word)
      } else if current.count + 1 + word.count <= width {
        current += " " + word
      } else {
        lines.append(current)
        current = String(word)
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }
}
