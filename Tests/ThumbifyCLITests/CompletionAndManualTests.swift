import Foundation
import Testing

@testable import ThumbifyCLI

/// `thumbify --generate-completion-script bash|zsh|fish` and `--generate-manual`, run through the
/// real shells and groff (scripts/install-deps installs them: a missing one fails, it is not skipped).
@Suite("Completion scripts and the manual page")
struct CompletionAndManualTests {
  /// Runs `executable` (looked up on PATH) with `arguments`; what it printed and its status.
  static func run(_ executable: String, _ arguments: [String]) throws -> (
    status: Int32, out: String, err: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [executable] + arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    // HOME in a temporary directory: fish writes its history and config under it.
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = NSTemporaryDirectory()
    environment["XDG_CONFIG_HOME"] = NSTemporaryDirectory() + "thumbify-completion-config"
    environment["XDG_DATA_HOME"] = NSTemporaryDirectory() + "thumbify-completion-data"
    process.environment = environment
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outData, as: UTF8.self),
      String(decoding: errData, as: UTF8.self)
    )
  }

  /// The script for `shell`, written to a temporary file.
  static func scriptFile(_ shell: String) async throws -> String {
    let result = await runCLI(["--generate-completion-script", shell])
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    let path = NSTemporaryDirectory() + "thumbify-completion-\(UUID().uuidString).\(shell)"
    try Data(result.out.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func requireShell(_ name: String) throws {
    let found = try run("sh", ["-c", "command -v \(name)"])
    try #require(found.status == 0, "\(name) is not installed: run scripts/install-deps")
  }

  // MARK: bash

  /// COMPREPLY after completing `words` (the last one is the word under the cursor).
  static func bashCompletions(_ script: String, _ words: [String]) throws -> [String] {
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let command =
      "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _thumbify; "
      + #"printf '%s\n' "${COMPREPLY[@]}""#
    let result = try run("bash", ["-c", command])
    #expect(result.status == 0, "\(result.err)")
    #expect(result.err.isEmpty)
    return result.out.split(separator: "\n").map(String.init)
  }

  @Test func bashScriptParsesAndCompletesCommandsOptionsAndValues() async throws {
    let script = try await Self.scriptFile("bash")
    defer { try? FileManager.default.removeItem(atPath: script) }
    let check = try Self.run("bash", ["-n", script])
    #expect(check.status == 0, "\(check.err)")

    #expect(try Self.bashCompletions(script, ["thumbify", "cr"]) == ["crawl"])
    #expect(try Self.bashCompletions(script, ["thumbify", "card"]) == ["cards", "card-key"])
    #expect(try Self.bashCompletions(script, ["thumbify", "crawl", "--ti"]) == ["--timeout"])
    #expect(try Self.bashCompletions(script, ["thumbify", "thumb", "a.jpg", "--log"]) == ["--log-format"])
    #expect(try Self.bashCompletions(script, ["thumbify", "crawl", "--log-format", ""]) == ["text", "json"])
    #expect(try Self.bashCompletions(script, ["thumbify", "help", "ex"]) == ["extract"])
    #expect(
      try Self.bashCompletions(script, ["thumbify", "--generate-completion-script", ""]) == [
        "bash", "zsh", "fish",
      ])
    #expect(
      try Self.bashCompletions(script, ["thumbify", "--gen"]) == [
        "--generate-completion-script", "--generate-manual",
      ])
  }

  /// Every option of every command completes: the script is generated from the specs, not a copy.
  @Test func bashCompletesEveryOptionOfEveryCommand() async throws {
    let script = try await Self.scriptFile("bash")
    defer { try? FileManager.default.removeItem(atPath: script) }
    for (name, spec) in ThumbifyCommandLine.commands.dropFirst() {
      let offered = Set(try Self.bashCompletions(script, ["thumbify", name, "-"]))
      for option in spec.allOptions {
        #expect(offered.contains("--\(option.long)"), "thumbify \(name): --\(option.long) does not complete")
      }
    }
  }

  // MARK: zsh and fish

  @Test func zshScriptParses() async throws {
    try Self.requireShell("zsh")
    let script = try await Self.scriptFile("zsh")
    defer { try? FileManager.default.removeItem(atPath: script) }
    let check = try Self.run("zsh", ["-n", script])
    #expect(check.status == 0)
    #expect(check.err.isEmpty, "\(check.err)")
    let text = try String(contentsOfFile: script, encoding: .utf8)
    #expect(text.hasPrefix("#compdef thumbify\n"))
    // A colon in a description is escaped (it would end the description), the value is named.
    #expect(text.contains("'--timeout[The deadline of one URL (e.g. 30s, 2m; at most 1h)\\: its page"))
    #expect(text.contains("]:format:(text json)'"))
  }

  /// zsh completes in an interactive shell on a pseudo-terminal (zsh/zpty): what `-n` cannot see,
  /// such as an `_arguments` spec zsh refuses at completion time.
  @Test(arguments: [
    ("thumbify cr", "thumbify crawl"), ("thumbify gc out --log-format t", "--log-format text"),
    ("thumbify crawl --ti", "thumbify crawl --timeout"),
  ])
  func zshCompletesInAnInteractiveShell(_ typed: String, expected: String) async throws {
    try Self.requireShell("zsh")
    let script = try await Self.scriptFile("zsh")
    defer { try? FileManager.default.removeItem(atPath: script) }
    let dump = NSTemporaryDirectory() + "thumbify-zcompdump-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: dump) }
    let driver = """
      zmodload zsh/zpty
      zpty z zsh -f -i
      zpty -w z "PS1=''; autoload -U compinit; compinit -u -d '\(dump)'; source '\(script)'"
      zpty -w -n z '\(typed)'$'\\t'
      all=''
      for i in {1..50}; do
        sleep 0.1
        zpty -r -t z chunk && all+=$chunk
        [[ $all == *'\(expected)'* ]] && break
      done
      zpty -d z
      print -r -- $all
      """
    let result = try Self.run("zsh", ["-f", "-c", driver])
    #expect(result.out.contains(expected), "zsh did not complete '\(typed)':\n\(result.out)\(result.err)")
  }

  @Test func fishScriptParsesAndCompletes() async throws {
    try Self.requireShell("fish")
    let script = try await Self.scriptFile("fish")
    defer { try? FileManager.default.removeItem(atPath: script) }
    let check = try Self.run("fish", ["--no-config", "-n", script])
    #expect(check.status == 0)
    #expect(check.err.isEmpty, "\(check.err)")
    func complete(_ line: String) throws -> [String] {
      let result = try Self.run("fish", ["--no-config", "-c", "source '\(script)'; complete -C '\(line)'"])
      #expect(result.status == 0, "\(result.err)")
      return result.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }
    #expect(try complete("thumbify cr") == ["crawl"])
    #expect(try complete("thumbify crawl --ti") == ["--timeout"])
    #expect(Set(try complete("thumbify gc out --log-format ")) == ["text", "json"])
  }

  // MARK: manual

  @Test func manualPageRendersWithoutWarningsAndHasEveryCommand() async throws {
    let result = await runCLI(["--generate-manual"])
    #expect(result.status == 0)
    let page = NSTemporaryDirectory() + "thumbify-\(UUID().uuidString).1"
    defer { try? FileManager.default.removeItem(atPath: page) }
    try Data(result.out.utf8).write(to: URL(fileURLWithPath: page))
    let check = try Self.run("groff", ["-man", "-Tutf8", "-ww", "-z", page])
    #expect(check.status == 0)
    #expect(check.err.isEmpty, "groff warns:\n\(check.err)")

    let rendered = try Self.run("groff", ["-man", "-Tutf8", "-P-c", "-P-b", "-P-u", page])
    #expect(rendered.out.contains("thumbify - link previews and thumbnails for whole URL corpora"))
    for (name, spec) in ThumbifyCommandLine.commands.dropFirst() {
      #expect(rendered.out.contains("thumbify \(name)"), "no section for \(name)")
      for option in spec.allOptions {
        #expect(rendered.out.contains(option.label), "thumbify \(name): \(option.label) is not in the manual")
      }
    }
    // Non-ASCII help text (the report's "1–10000") is a glyph, not mojibake.
    #expect(rendered.out.contains("1–10000"))
  }

  @Test func anUnknownShellIsAUsageError() async {
    let result = await runCLI(["--generate-completion-script", "tcsh"])
    #expect(result.status == 64)
    #expect(
      result.err.hasPrefix(
        "Error: The value 'tcsh' is invalid for '--generate-completion-script <shell>'\n  Give bash, zsh or fish.\n"
      ))
  }
}
