import Foundation

/// The one funnel for system calls of the package: `EINTR` retried in one place, `errno` turned into
/// `strerror`'s sentence in one place, and whole-buffer reads and writes that every caller needs.
package enum SystemCall {
  /// `strerror(code)`: the C library's sentence for an `errno` value.
  package static func message(_ code: Int32 = errno) -> String {
    Errno(rawValue: code).description
  }

  /// A `StoreError.io` for the failed call `operation` on `path`, with `strerror(code)`.
  package static func error(_ operation: String, _ path: String, code: Int32 = errno) -> StoreError {
    .io(path: path, operation: operation, message: message(code))
  }

  /// `body()`, called again while it returns -1 with `errno == EINTR` (a signal arrived).
  package static func retrying<Result: BinaryInteger>(_ body: () -> Result) -> Result {
    while true {
      let result = body()
      if result < 0, Errno.current == .interrupted { continue }
      return result
    }
  }

  /// Writes all of `bytes` to `descriptor`; `false` with `errno` set when a write fails.
  package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = retrying { write(descriptor, bytes.baseAddress! + offset, bytes.count - offset) }
      guard written > 0 else {
        if written == 0 { Errno.current = .ioError }
        return false
      }
      offset += written
    }
    return true
  }

  /// Reads up to `count` bytes into `buffer`, retrying `EINTR`: the byte count, 0 at end of file, -1 on error.
  package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
    retrying { Foundation.read(descriptor, buffer, count) }
  }

  /// Copies everything readable from `input` to a new file at `path` (created or truncated), in
  /// 64 KB chunks, without holding it in memory: a list on standard input spooled for a second pass.
  package static func copy(from input: Int32, inputName: String, to path: String) throws(StoreError) {
    let output = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard output >= 0 else { throw error("create", path) }
    defer { close(output) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(input, into: $0.baseAddress!, count: $0.count) }
      guard count >= 0 else { throw error("read", inputName) }
      if count == 0 { return }
      guard buffer.withUnsafeBytes({ writeAll(output, UnsafeRawBufferPointer(rebasing: $0.prefix(count))) })
      else {
        throw error("write", path)
      }
    }
  }
}
