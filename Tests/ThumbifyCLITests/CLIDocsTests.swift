import Foundation
import Testing

@testable import ThumbifyCLI

/// docs/cli.md against what the program says: every command's `--help` and the docs' option tables
/// must list the same options, so that neither can drift (issue 21). The failure names the command,
/// the option and the row to add or remove.
@Suite("docs/cli.md matches every command's --help")
struct CLIDocsTests {
  static let path =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("docs/cli.md").path

  /// One `## ` section of docs/cli.md: its usage block and the labels of its table rows.
  struct Section {
    var usage: String?
    var labels: [String] = []
  }

  /// The heading of the section listing the options every command takes.
  static let commonHeading = "Options every command takes"

  /// Sections by heading: `thumbify crawl` for "## `thumbify crawl`", and the common one.
  static func sections(_ markdown: String) -> [String: Section] {
    var sections: [String: Section] = [:]
    var current: String?
    var inCode = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        inCode.toggle()
        continue
      }
      if inCode {
        if let current, sections[current]?.usage == nil, line.hasPrefix("thumbify") {
          sections[current]?.usage = String(line)
        }
        continue
      }
      if line.hasPrefix("## ") {
        let heading = line.dropFirst(3).trimmingCharacters(in: CharacterSet(charactersIn: "` "))
        current = heading
        sections[heading] = Section()
      } else if let current, line.hasPrefix("| `-") {
        let cell = line.dropFirst(3).prefix { $0 != "`" }
        sections[current]?.labels.append(String(cell))
      }
    }
    return sections
  }

  /// The option labels of a `--help` text's OPTIONS section (`-o, --out <dir>`), and its usage line.
  static func help(_ text: String) -> (usage: String, labels: [String]) {
    var labels: [String] = []
    var usage = ""
    var inOptions = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("USAGE: ") { usage = String(line.dropFirst("USAGE: ".count)) }
      if !line.hasPrefix(" ") { inOptions = line == "OPTIONS:" }
      guard inOptions, line.hasPrefix("  -") else { continue }
      let label = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
      labels.append(label)
    }
    return (usage, labels)
  }

  @Test func everyOptionIsDocumentedAndEveryDocumentedOptionExists() async throws {
    let markdown = try String(contentsOfFile: Self.path, encoding: .utf8)
    let sections = Self.sections(markdown)
    let common = Set(sections[Self.commonHeading]?.labels ?? [])
    #expect(!common.isEmpty, "docs/cli.md has no '## \(Self.commonHeading)' table")
    var problems: [String] = []
    for (name, spec) in ThumbifyCommandLine.commands {
      let command = name.isEmpty ? "thumbify" : "thumbify \(name)"
      let help = Self.help(await runCLI(name.isEmpty ? ["--help"] : [name, "--help"]).out)
      guard let section = sections[command] else {
        problems.append("docs/cli.md has no section '## `\(command)`' (\(command) --help exists)")
        continue
      }
      let documented = Set(section.labels)
      for label in help.labels where !documented.contains(label) && !common.contains(label) {
        let option = spec.allOptions.first { $0.label == label }
        problems.append(
          "docs/cli.md, `\(command)`: `\(label)` is in --help but not documented; add the row "
            + (option.map(Self.row) ?? "| `\(label)` | … |"))
      }
      for label in section.labels where !help.labels.contains(label) {
        problems.append(
          "docs/cli.md, `\(command)`: `\(label)` is documented but `\(command) --help` has no such option; "
            + "remove or rename the row")
      }
      // The common options are in every subcommand's help but `help`'s (it only prints help).
      if !name.isEmpty, name != "help" {
        for label in common where !help.labels.contains(label) {
          problems.append(
            "docs/cli.md, '\(Self.commonHeading)': `\(label)` is not in `\(command) --help`")
        }
      }
      if section.usage != help.usage {
        problems.append(
          "docs/cli.md, `\(command)`: the usage block reads\n    \(section.usage ?? "(none)")\n  "
            + "but --help says\n    \(help.usage)")
      }
    }
    let known = Set(ThumbifyCommandLine.commands.map { $0.name.isEmpty ? "thumbify" : "thumbify \($0.name)" })
    for heading in sections.keys where heading.hasPrefix("thumbify") && !known.contains(heading) {
      problems.append("docs/cli.md documents `\(heading)`, which is not a command")
    }
    #expect(problems.isEmpty, Comment(rawValue: "\n" + problems.joined(separator: "\n")))
  }

  /// The help parser finds what the specs declare, so the comparison above compares something.
  @Test func theHelpParserReadsEveryLabel() async {
    for (name, spec) in ThumbifyCommandLine.commands.dropFirst() {
      let help = Self.help(await runCLI([name, "--help"]).out)
      #expect(help.labels == spec.allOptions.map(\.label), "\(name)")
      #expect(help.usage == HelpFormatter.usage(spec), "\(name)")
    }
  }

  /// A docs/cli.md table row for `option`, as the failure message proposes it.
  static func row(_ option: OptionSpec) -> String {
    let defaultValue = option.defaultValue.map { "`\($0)`" } ?? (option.isRequired ? "required" : "")
    let help = option.help.replacingOccurrences(of: "|", with: "\\|")
    return "| `\(option.label)` | \(defaultValue) | \(help) |"
  }

  /// The whole reference in docs/cli.md's format, from the specs (how its first version was made:
  /// `THUMBIFY_PRINT_CLI_DOCS=1 swift test --skip-build --filter CLIDocsTests` prints it).
  static func reference() -> String {
    var text = ""
    for (name, spec) in ThumbifyCommandLine.commands {
      let command = name.isEmpty ? "thumbify" : "thumbify \(name)"
      text += "## `\(command)`\n\n\(spec.abstract)\n\n```\n"
      text += (name.isEmpty ? "thumbify <subcommand>" : HelpFormatter.usage(spec)) + "\n```\n\n"
      let own = spec.options
      if own.isEmpty {
        text += "No options of its own.\n\n"
        continue
      }
      text += "| option | default | meaning |\n| --- | --- | --- |\n"
      for option in own { text += row(option) + "\n" }
      text += "\n"
    }
    return text
  }

  @Test func printsTheReferenceOnRequest() {
    guard ProcessInfo.processInfo.environment["THUMBIFY_PRINT_CLI_DOCS"] == "1" else { return }
    print(Self.reference())
  }
}
