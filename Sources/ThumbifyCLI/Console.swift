import Foundation
import Synchronization
import ThumbifySystem

/// Where a command's text goes, and where its standard input comes from.
///
/// The CLI writes through a `Console` rather than to the file handles directly so
/// that tests run commands in-process and compare their exact output.
package final class Console: Sendable {
  private let writeOut: @Sendable (String) -> Void
  private let writeError: @Sendable (String) -> Void
  private let readInput: @Sendable () -> [UInt8]
  /// Whether standard error is a terminal (progress bars are drawn only then).
  package let isErrorTerminal: Bool
  /// The descriptor standard input can be streamed from (`nil` for in-memory input in tests).
  package let inputDescriptor: Int32?
  /// The environment commands read (`XDG_STATE_HOME`, `HOME`: the default state directory). Empty
  /// unless given, so an in-process test never finds the real `$HOME`.
  package let environment: [String: String]

  package init(
    isErrorTerminal: Bool = false,
    inputDescriptor: Int32? = nil,
    environment: [String: String] = [:],
    readInput: @escaping @Sendable () -> [UInt8] = { [] },
    out: @escaping @Sendable (String) -> Void,
    error: @escaping @Sendable (String) -> Void
  ) {
    self.isErrorTerminal = isErrorTerminal
    self.inputDescriptor = inputDescriptor
    self.environment = environment
    self.readInput = readInput
    self.writeOut = out
    self.writeError = error
  }

  /// The process's own standard streams.
  package static let standard = Console(
    isErrorTerminal: isatty(STDERR_FILENO) == 1,
    inputDescriptor: STDIN_FILENO,
    environment: ProcessInfo.processInfo.environment,
    readInput: { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) },
    out: { FileHandle.standardOutput.write(Data($0.utf8)) },
    error: { writeAll($0, to: STDERR_FILENO) }
  )

  /// Writes `text` to `descriptor` with write(2) until all of it is written (or it fails; a log line
  /// has nowhere else to go): no copy into a `Data` first, as `serve`'s access log writes a line a
  /// request here. EINTR is retried in `SystemCall`, as everywhere.
  private static func writeAll(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { _ = SystemCall.writeAll(descriptor, UnsafeRawBufferPointer($0)) }
  }

  package func print(_ text: String, terminator: String = "\n") {
    writeOut(Self.escapingControls(text) + terminator)
  }
  package func printError(_ text: String) { writeError(Self.escapingControls(text) + "\n") }

  /// `text` with every control character but newline and tab written as `\u00XX`: URLs, headers and
  /// messages from the network reach the terminal, and a raw `ESC ]0;…` or `ESC [2J` in a hostile
  /// `Location:` would retitle or clear it. The escape is also a valid JSON escape, so JSON lines stay
  /// JSON (JSONEncoder leaves DEL and the C1 controls raw).
  package static func escapingControls(_ text: String) -> String {
    func isControl(_ scalar: Unicode.Scalar) -> Bool {
      (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }
    // Most text has no byte that can start a control: C0 and DEL are single bytes, C1 in UTF-8
    // starts with 0xC2. Only then are the scalars looked at.
    guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }),
      text.unicodeScalars.contains(where: isControl)
    else { return text }
    var escaped = ""
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        let hex = String(scalar.value, radix: 16)
        escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
  /// Writes without a newline (progress bars redraw a line with `\r`).
  package func writeError(raw text: String) { writeError(text) }
  package func readStandardInput() -> [UInt8] { readInput() }
}

/// A console that records everything written to it, for tests.
package final class CapturedConsole: Sendable {
  private final class Buffer: Sendable {
    let text = Mutex<(out: String, error: String)>(("", ""))
  }
  private let buffer = Buffer()
  package let console: Console

  package init(input: [UInt8] = [], isErrorTerminal: Bool = false, environment: [String: String] = [:]) {
    let buffer = self.buffer
    console = Console(
      isErrorTerminal: isErrorTerminal, environment: environment,
      readInput: { input },
      out: { text in buffer.text.withLock { $0.out += text } },
      error: { text in buffer.text.withLock { $0.error += text } }
    )
  }

  package var standardOutput: String { buffer.text.withLock { $0.out } }
  package var standardError: String { buffer.text.withLock { $0.error } }
}
