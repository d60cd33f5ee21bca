import Foundation
import ThumbifySystem

// The system funnel's failures as the store's error: ThumbifySystem's calls throw `Errno`; the files of
// an output or state directory are this layer's, and so is the error they fail with (docs/errors.md).

extension SystemCall {
  /// A `StoreError.io` for the failed call `operation` on `path`, with `strerror(code)`.
  package static func error(_ operation: String, _ path: String, code: Int32 = errno) -> StoreError {
    .io(path: path, operation: operation, message: message(code))
  }

  /// A `StoreError.io` for `operation` on `path` that failed with `error`.
  package static func error(_ operation: String, _ path: String, _ error: Errno) -> StoreError {
    .io(path: path, operation: operation, message: error.description)
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

extension DirectoryEntries {
  /// Calls `body` with each entry name of the directory at `path`, read one at a time; a failed
  /// `opendir` or `readdir` is the `StoreError.io` "Could not list '<path>': <strerror>".
  ///
  /// ```swift
  /// try DirectoryEntries.forEach(in: directory) { (name) throws(StoreError) in … }
  /// ```
  package static func forEach(in path: String, _ body: (String) throws(StoreError) -> Void) throws(StoreError)
  {
    let entries: DirectoryEntries
    do {
      entries = try DirectoryEntries(path)
    } catch {
      throw SystemCall.error("list", path, error)
    }
    while true {
      let next: String?
      do {
        next = try entries.next()
      } catch {
        throw SystemCall.error("list", path, error)
      }
      guard let name = next else { return }
      try body(name)
    }
  }
}
