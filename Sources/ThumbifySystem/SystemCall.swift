import Foundation

/// The one funnel for system calls of the package: `EINTR` retried in one place, `errno` turned into
/// `strerror`'s sentence in one place, and whole-buffer reads and writes that every caller needs.
package enum SystemCall {
  /// `strerror(code)`: the C library's sentence for an `errno` value.
  package static func message(_ code: Int32 = errno) -> String {
    Errno(rawValue: code).description
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
}
