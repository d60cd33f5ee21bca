import Foundation
import Thumbify
import ThumbifySystem

/// How a command writes its log and error lines on standard error (`--log-format`).
package enum LogFormat: String, Sendable, CaseIterable {
  case text, json

  /// The format a command line asks for, read before (or without) parsing it, so that a usage error
  /// of `thumbify crawl --bogus --log-format json` is a JSON line too. An invalid value is text: its
  /// own usage error must still be readable.
  static func requested(in arguments: [String]) -> LogFormat {
    var format = LogFormat.text
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" { break }
      if argument.hasPrefix("--log-format=") {
        format = LogFormat(rawValue: String(argument.dropFirst("--log-format=".count))) ?? .text
      } else if argument == "--log-format", index < arguments.count {
        format = LogFormat(rawValue: arguments[index]) ?? .text
        index += 1
      }
    }
    return format
  }

  /// `--log-format`, which every command takes (`CommandSpec.logFormatOption`).
  static let option = Option<LogFormat>.choice(
    "log-format", value: "format",
    help: "text or json: json writes every log and error line on standard error as one JSON object.",
    default: .text)

  /// `--log-format`, checked.
  static func parse(_ arguments: ParsedArguments) throws(UsageError) -> LogFormat {
    try arguments.required(option)
  }
}

/// The one way every command reports errors and problems on standard error.
///
/// Text: `Error: <message>` (swift-argument-parser's style, which usage errors already had), then,
/// where there is something to do about it, the hint on its own line indented by two spaces.
/// JSON (`--log-format json`): one object per line, `{"event": "error", "command": …, "message": …,
/// "hint": …, "code": …}`, so that a log collector never has to parse prose. docs/cli.md, "Errors".
struct Diagnostics: Sendable {
  let console: Console
  let format: LogFormat
  /// `crawl`, `thumb`, …, or empty for the root command.
  let command: String

  /// A failure that ends a command with exit status 70, as `error` prints it.
  struct Fatal: Error {
    var message: String
    var hint: String?
    var code: String?

    init(_ message: String, hint: String? = nil, code: String? = nil) {
      self.message = message
      self.hint = hint
      self.code = code
    }
  }

  /// Prints `failure` and returns the exit status it ends the command with.
  func fatal(_ failure: Fatal) -> Int32 {
    error(failure.message, hint: failure.hint, code: failure.code)
    return ExitCode.fatal
  }

  /// A failure: the command (or one of its inputs) could not be done.
  func error(_ message: String, hint: String? = nil, code: String? = nil, fields: [String: Any] = [:]) {
    switch format {
    case .text:
      console.printError("Error: \(message)")
      if let hint { console.printError("  \(hint)") }
    case .json:
      var object = fields
      object["event"] = "error"
      object["command"] = command
      object["message"] = message
      if let hint { object["hint"] = hint }
      if let code { object["code"] = code }
      console.printError(Self.logLine(object, level: .error))
    }
  }

  /// A line about the run that is neither an error nor a problem (the state was moved): the text as
  /// is, or `{"event": <event>, "command": …, "message": …}` in JSON.
  func note(_ message: String, event: String) {
    switch format {
    case .text: console.printError(message)
    case .json:
      console.printError(
        Self.logLine(["event": event, "command": command, "message": message], level: .info))
    }
  }

  /// One event of a long-running command (`serve`'s access log): `text` as is, or in JSON `fields`
  /// with `event` and `command`. Only the form written is built: the access log writes one a request.
  func event(_ event: String, text: @autoclosure () -> String, fields: @autoclosure () -> [String: Any]) {
    switch format {
    case .text:
      console.printError(text())
    case .json:
      var object = fields()
      object["event"] = event
      object["command"] = command
      console.printError(JSONWriter.line(object))
    }
  }

  /// A problem with one input of a run that goes on (a thumbnail that failed): `<subject>: <message>`
  /// in text, `{"event": "problem", …}` in JSON, like the crawl's problem lines.
  func problem(_ subject: String, code: String, message: String, fields: [String: Any] = [:]) {
    switch format {
    case .text:
      console.printError("\(subject): \(message)")
    case .json:
      var object = fields
      object["event"] = "problem"
      object["command"] = command
      object["code"] = code
      object["message"] = message
      console.printError(Self.logLine(object, level: .warning))
    }
  }

  /// A command's closing summary, on standard output: `text` as it is, or in JSON one
  /// `{"event": "summary", "command": …}` object with `fields`, like the crawl's summary.
  func summary(_ text: String, fields: [String: Any]) {
    switch format {
    case .text:
      console.print(text)
    case .json:
      var object = fields
      object["event"] = "summary"
      object["command"] = command
      console.print(Self.logLine(object, level: .info))
    }
  }

  /// A usage error: the three-line block of swift-argument-parser in text (message, usage, pointer to
  /// `--help`), one `error` object with `usage` in JSON.
  func usageError(_ error: UsageError, usage: String, helpCommand: String) {
    let pointer = "See '\(helpCommand) --help' for more information."
    switch format {
    case .text:
      console.printError("Error: \(error.message)")
      if let hint = error.hint { console.printError("  \(hint)") }
      console.printError("Usage: \(usage)")
      console.printError("  \(pointer)")
    case .json:
      self.error(
        error.message, hint: error.hint ?? pointer, code: "usage", fields: ["usage": usage])
    }
  }

  /// What to do about an error code, where the command line can do something: the flag that lifts
  /// a refusal.
  static func hint(forCode code: String) -> String? {
    switch code {
    case "blockedPrivateAddress": "Pass --allow-private-network to allow loopback and private addresses."
    default: nil
    }
  }

  /// How much a log line matters, its `level` in JSON: what a log collector filters and alerts on.
  enum Level: String {
    case error, warning, info
  }

  /// One log line in JSON: `object` with the `time` it was written (RFC 3339, UTC, milliseconds)
  /// and its `level`, as log collectors (Loki, journald's JSON, Elastic) expect of every line.
  static func logLine(_ object: [String: Any], level: Level) -> String {
    var object = object
    object["time"] = Timestamp.iso8601Milliseconds(Date().timeIntervalSince1970)
    object["level"] = level.rawValue
    return JSONWriter.line(object)
  }
}
