import Foundation

/// Shell completion scripts (`thumbify --generate-completion-script bash|zsh|fish`), generated from
/// the same `CommandSpec`s that make `--help`, so that a new option completes without a second list.
enum CompletionScript {
  enum Shell: String, CaseIterable { case bash, zsh, fish }

  typealias Command = (name: String, spec: CommandSpec)

  /// What a value or positional argument completes to.
  enum ValueKind: Equatable {
    case files, directories, nothing
    case choices([String])
  }

  static func kind(of option: OptionSpec) -> ValueKind {
    option.choices.isEmpty ? kind(ofValueNamed: option.valueName ?? "") : .choices(option.choices)
  }

  /// Inferred from the placeholder the help shows (`<dir>`, `<file>`, `<urls-file>`, `<images>`).
  static func kind(ofValueNamed name: String) -> ValueKind {
    switch name {
    case "dir": .directories
    case "file", "urls-file", "images": .files
    default: .nothing
    }
  }

  static func script(for shell: Shell, commands: [Command]) -> String {
    switch shell {
    case .bash: bash(commands)
    case .zsh: zsh(commands)
    case .fish: fish(commands)
    }
  }

  /// The first sentence of a help text, for the one-line descriptions zsh and fish show.
  static func summary(_ help: String) -> String {
    var sentence = help
    var searchStart = help.startIndex
    while let end = help.range(of: ". ", range: searchStart..<help.endIndex) {
      let before = help[..<end.lowerBound]
      if !(before.hasSuffix("e.g") || before.hasSuffix("i.e")) {
        sentence = String(before)
        break
      }
      searchStart = end.upperBound
    }
    return sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
  }

  // MARK: bash

  private static func bash(_ commands: [Command]) -> String {
    let root = commands[0].spec
    let subcommands = commands.dropFirst()
    var text = """
      # bash completion for thumbify (thumbify --generate-completion-script bash).
      # Install: thumbify --generate-completion-script bash > ~/.local/share/bash-completion/completions/thumbify
      _thumbify() {
        local cur="${COMP_WORDS[COMP_CWORD]}" prev="" command="" i
        (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
        for (( i = 1; i < COMP_CWORD; i++ )); do
          case "${COMP_WORDS[i]}" in
            \(subcommands.map(\.name).joined(separator: "|"))) command="${COMP_WORDS[i]}"; break ;;
          esac
        done
        COMPREPLY=()
        case "$command" in

      """
    for (name, spec) in subcommands {
      text += "    \(name))\n"
      text += bashCommand(spec, positional: name == "help" ? .choices(subcommands.map(\.name)) : nil)
      text += "      ;;\n"
    }
    text += "    *)\n"
    text += bashCommand(root, positional: .choices(subcommands.map(\.name)))
    text += """
          ;;
        esac
      }
      complete -F _thumbify thumbify

      """
    return text
  }

  private static func bashCommand(_ spec: CommandSpec, positional: ValueKind?) -> String {
    let options = spec.allOptions
    var words: [String] = []
    for option in options {
      if let short = option.short { words.append("-\(short)") }
      words.append("--\(option.long)")
    }
    var text = ""
    let valued = options.filter { !$0.isFlag }
    if !valued.isEmpty {
      text += "      case \"$prev\" in\n"
      for option in valued {
        let spellings = (option.short.map { ["-\($0)"] } ?? []) + ["--\(option.long)"]
        text += "        \(spellings.joined(separator: "|"))) \(bashReply(kind(of: option))); return ;;\n"
      }
      text += "      esac\n"
    }
    let argumentKind =
      positional ?? spec.arguments.first.map { kind(ofValueNamed: $0.name) } ?? .nothing
    text += "      if [[ \"$cur\" == -* ]]; then\n"
    text += "        COMPREPLY=( $(compgen -W '\(words.joined(separator: " "))' -- \"$cur\") )\n"
    text += "      else\n"
    text += "        \(bashReply(argumentKind))\n"
    text += "      fi\n"
    return text
  }

  private static func bashReply(_ kind: ValueKind) -> String {
    switch kind {
    case .files: "COMPREPLY=( $(compgen -f -- \"$cur\") )"
    case .directories: "COMPREPLY=( $(compgen -d -- \"$cur\") )"
    case .choices(let values): "COMPREPLY=( $(compgen -W '\(values.joined(separator: " "))' -- \"$cur\") )"
    case .nothing: "COMPREPLY=()"
    }
  }

  // MARK: zsh

  private static func zsh(_ commands: [Command]) -> String {
    let subcommands = commands.dropFirst()
    var text = """
      #compdef thumbify
      # zsh completion for thumbify (thumbify --generate-completion-script zsh).
      # Install: thumbify --generate-completion-script zsh > "${fpath[1]}/_thumbify"

      _thumbify() {
        local curcontext="$curcontext" state line
        local -a commands
        commands=(

      """
    for (name, spec) in subcommands {
      text += "    \(zshQuote("\(name):\(summary(spec.abstract))"))\n"
    }
    text += "  )\n"
    text += "  _arguments -C \\\n"
    for option in commands[0].spec.allOptions { text += "    \(zshOption(option)) \\\n" }
    text += "    '1: :->command' \\\n"
    text += "    '*:: :->arguments'\n"
    text += """
        case $state in
          command)
            _describe -t commands 'thumbify command' commands
            ;;
          arguments)
            case $line[1] in

      """
    for (name, spec) in subcommands {
      text += "        \(name))\n"
      text += "          _arguments -s \\\n"
      for option in spec.allOptions { text += "            \(zshOption(option)) \\\n" }
      if name == "help" {
        text += "            '1::command:(\(subcommands.map(\.name).joined(separator: " ")))'\n"
      } else {
        for (index, argument) in spec.arguments.enumerated() {
          let position = argument.isRepeating ? "*" : "\(index + 1)"
          let optional = argument.isOptional && !argument.isRepeating ? ":" : ""
          let action = zshAction(kind(ofValueNamed: argument.name))
          text += "            \(zshQuote("\(position):\(optional)\(argument.name):\(action)")) \\\n"
        }
        text += "            && return 0\n"
      }
      text += "          ;;\n"
    }
    text += """
            esac
            ;;
        esac
      }

      if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
        _thumbify "$@"
      else
        compdef _thumbify thumbify
      fi

      """
    return text
  }

  private static func zshOption(_ option: OptionSpec) -> String {
    let description = "[\(zshEscapeDescription(summary(option.help)))]"
    let value = option.isFlag ? "" : ":\(option.valueName ?? "value"):\(zshAction(kind(of: option)))"
    let repeating = option.isRepeating ? "*" : ""
    guard let short = option.short else {
      return zshQuote("\(repeating)--\(option.long)\(description)\(value)")
    }
    return zshQuote("(-\(short) --\(option.long))") + "{-\(short),--\(option.long)}"
      + zshQuote("\(description)\(value)")
  }

  private static func zshAction(_ kind: ValueKind) -> String {
    switch kind {
    case .files: "_files"
    case .directories: "_files -/"
    case .choices(let values): "(\(values.joined(separator: " ")))"
    case .nothing: " "
    }
  }

  /// Brackets and colons end an `_arguments` description; they are escaped.
  private static func zshEscapeDescription(_ text: String) -> String {
    var escaped = ""
    for character in text {
      if character == "[" || character == "]" || character == ":" || character == "\\" { escaped += "\\" }
      escaped.append(character)
    }
    return escaped
  }

  private static func zshQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  // MARK: fish

  private static func fish(_ commands: [Command]) -> String {
    let subcommands = commands.dropFirst()
    var text = """
      # fish completion for thumbify (thumbify --generate-completion-script fish).
      # Install: thumbify --generate-completion-script fish > ~/.config/fish/completions/thumbify.fish
      complete -c thumbify -f

      """
    let atRoot = "__fish_use_subcommand"
    for option in commands[0].spec.allOptions { text += fishOption(option, condition: atRoot) }
    for (name, spec) in subcommands {
      text += "complete -c thumbify -n \(atRoot) -a \(name) -d \(fishQuote(summary(spec.abstract)))\n"
    }
    for (name, spec) in subcommands {
      let condition = "__fish_seen_subcommand_from \(name)"
      for option in spec.allOptions { text += fishOption(option, condition: condition) }
      if name == "help" {
        text +=
          "complete -c thumbify -n \(fishQuote(condition)) -a \(fishQuote(subcommands.map(\.name).joined(separator: " ")))\n"
      } else if let argument = spec.arguments.first {
        switch kind(ofValueNamed: argument.name) {
        case .files: text += "complete -c thumbify -n \(fishQuote(condition)) -F\n"
        case .directories:
          text += "complete -c thumbify -n \(fishQuote(condition)) -a '(__fish_complete_directories)'\n"
        case .choices, .nothing: break
        }
      }
    }
    return text
  }

  private static func fishOption(_ option: OptionSpec, condition: String) -> String {
    var line = "complete -c thumbify -n \(fishQuote(condition))"
    if let short = option.short { line += " -s \(short)" }
    line += " -l \(option.long) -d \(fishQuote(summary(option.help)))"
    if !option.isFlag {
      switch kind(of: option) {
      case .files: line += " -r -F"
      case .directories: line += " -x -a '(__fish_complete_directories)'"
      case .choices(let values): line += " -x -a \(fishQuote(values.joined(separator: " ")))"
      case .nothing: line += " -x"
      }
    }
    return line + "\n"
  }

  private static func fishQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
  }
}
