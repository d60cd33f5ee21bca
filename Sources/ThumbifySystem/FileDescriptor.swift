import Foundation

/// An open file descriptor owned by one value: it cannot be copied, and it is closed when the value
/// goes away (swift-system's `FileDescriptor`, with the closing made automatic). Opened with
/// `O_CLOEXEC` always, so a browser or a child process never inherits it.
///
/// ```swift
/// let file = try FileDescriptor(opening: path, O_RDONLY)
/// let status = try file.status()
/// ```
package struct FileDescriptor: ~Copyable {
  /// The descriptor, for calls this type does not wrap; valid while the value lives.
  package let rawValue: Int32

  /// Opens `path` with `flags` (`O_CLOEXEC` added) and, when it creates the file, `mode`.
  package init(opening path: String, _ flags: Int32, mode: mode_t = 0o644) throws(Errno) {
    let descriptor = SystemCall.retrying { open(path, flags | O_CLOEXEC, mode) }
    guard descriptor >= 0 else { throw .current }
    rawValue = descriptor
  }

  /// Takes ownership of `descriptor` (a socket, a pipe's end); it is closed with the value.
  package init(owning descriptor: Int32) {
    rawValue = descriptor
  }

  deinit { close(rawValue) }

  /// `fstat(2)`.
  package func status() throws(Errno) -> stat {
    var status = stat()
    guard fstat(rawValue, &status) == 0 else { throw .current }
    return status
  }

  /// `fsync(2)`: the file's bytes (or a directory's entries) are on disk.
  package func sync() throws(Errno) {
    try SystemCall.check { fsync(rawValue) }
  }

  /// Writes all of `bytes`.
  package func writeAll(_ bytes: [UInt8]) throws(Errno) {
    guard bytes.withUnsafeBytes({ SystemCall.writeAll(rawValue, $0) }) else { throw .current }
  }
}
