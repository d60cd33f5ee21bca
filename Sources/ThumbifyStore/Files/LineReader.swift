import Foundation
import ThumbifySystem

/// Reads a file (or bytes) one line at a time, holding only the current line.
///
/// A line longer than `maxLength` comes back at once, cut at `maxLength + 1` bytes (so that the
/// caller can tell it was too long), and the rest of it is skipped by the next call: a file without
/// newlines never makes it allocate more than that, and an endless one (`/dev/zero`) gives its first
/// line instead of reading forever.
///
/// Reading stops early, as at the end, once `isStopped` says so: it is asked between chunks, and a
/// pipe, FIFO or terminal with nothing to read is waited on in steps of 200 ms (`poll(2)`), so a
/// stop is seen within that even when the writer never writes nor closes.
package final class LineReader {
  private enum Source {
    case descriptor(Int32)
    case bytes([UInt8], offset: Int)
  }

  private var source: Source
  package let maxLength: Int
  /// The path or descriptor read, for error messages.
  private let sourceName: String
  /// Whether the descriptor may have nothing to read for a while (not a regular file).
  private var mayWait = false
  private var buffer = [UInt8](repeating: 0, count: 1 << 16)
  private var start = 0
  private var end = 0
  private var isAtEnd = false
  /// The rest of an over-long line is still to be skipped.
  private var isSkippingLine = false
  /// Asked between reads: `true` ends the reading as the end of the file would.
  package var isStopped: (@Sendable () -> Bool)?

  /// Opens `path`.
  ///
  /// A FIFO is opened without waiting for its writer (`O_NONBLOCK`, then cleared).
  ///
  /// - Throws: `StoreError.io` with `strerror`'s message.
  package init(path: String, maxLength: Int = 16 << 20) throws(StoreError) {
    let descriptor = SystemCall.retrying { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
    guard descriptor >= 0 else {
      throw .io(path: path, operation: "open", message: SystemCall.message())
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let code = errno
      close(descriptor)
      throw .io(path: path, operation: "read", message: SystemCall.message(code))
    }
    // open(2) opens a directory for reading; only read(2) fails on it, which would look like an
    // empty file (and an empty URL list empties the manifest).
    if status.st_mode & S_IFMT == S_IFDIR {
      close(descriptor)
      throw .io(path: path, operation: "read", message: SystemCall.message(EISDIR))
    }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    source = .descriptor(descriptor)
    sourceName = path
    mayWait = status.st_mode & S_IFMT != S_IFREG
    self.maxLength = maxLength
  }

  /// Reads from an open descriptor, which is duplicated (the caller keeps its own).
  package init(fileDescriptor: Int32, maxLength: Int = 16 << 20) throws(StoreError) {
    let copy = fcntl(fileDescriptor, F_DUPFD_CLOEXEC, 0)
    guard copy >= 0 else {
      throw .io(path: "fd \(fileDescriptor)", operation: "read", message: SystemCall.message())
    }
    var status = stat()
    mayWait = fstat(copy, &status) != 0 || status.st_mode & S_IFMT != S_IFREG
    source = .descriptor(copy)
    sourceName = "fd \(fileDescriptor)"
    self.maxLength = maxLength
  }

  /// Reads lines from bytes in memory.
  package init(bytes: [UInt8], maxLength: Int = 16 << 20) {
    source = .bytes(bytes, offset: 0)
    self.maxLength = maxLength
    sourceName = "bytes"
  }

  deinit {
    if case .descriptor(let descriptor) = source { close(descriptor) }
  }

  /// The next line without its `\n`, or `nil` at the end (or once stopped).
  ///
  /// - Throws: `StoreError.io` when reading fails (a read error is never taken for the end).
  package func nextLine() throws(StoreError) -> [UInt8]? {
    switch source {
    case .descriptor:
      if isSkippingLine {
        // The rest of the last, over-long line: up to its newline.
        while true {
          if let newline = bufferedNewline() {
            start = newline + 1
            isSkippingLine = false
            break
          }
          start = end
          guard try fill() else { return nil }
        }
      }
      var line: [UInt8] = []
      var sawAny = false
      while true {
        if let newline = bufferedNewline() {
          sawAny = true
          append(upTo: newline, to: &line)
          start = newline + 1
          return line
        }
        if start < end {
          sawAny = true
          append(upTo: end, to: &line)
          start = end
          if line.count > maxLength {
            isSkippingLine = true
            return line
          }
        }
        guard try fill() else { return sawAny ? line : nil }
      }
    case .bytes(let bytes, let offset):
      guard offset < bytes.count else { return nil }
      let end = bytes[offset...].firstIndex(of: 0x0A) ?? bytes.count
      source = .bytes(bytes, offset: end + 1)
      return Array(bytes[offset..<min(end, offset + maxLength + 1)])
    }
  }

  /// The index of the next newline in the buffered bytes.
  private func bufferedNewline() -> Int? {
    guard start < end else { return nil }
    return buffer.withUnsafeBytes { bytes -> Int? in
      guard let found = memchr(bytes.baseAddress! + start, 0x0A, end - start) else { return nil }
      return UnsafeRawPointer(found) - bytes.baseAddress!
    }
  }

  /// Appends `buffer[start..<limit]` to `line`, keeping at most `maxLength + 1` bytes.
  private func append(upTo limit: Int, to line: inout [UInt8]) {
    let room = maxLength + 1 - line.count
    guard room > 0 else { return }
    line.append(contentsOf: buffer[start..<min(limit, start + room)])
  }

  /// Reads the next chunk into the buffer; `false` at the end of the file or once stopped.
  private func fill() throws(StoreError) -> Bool {
    guard case .descriptor(let descriptor) = source, !isAtEnd else { return false }
    while true {
      if isStopped?() == true { return false }
      if mayWait {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = SystemCall.retrying { Int(poll(&request, 1, 200)) }
        if ready == 0 { continue }  // nothing yet: ask isStopped again
      }
      let count = buffer.withUnsafeMutableBytes {
        SystemCall.read(descriptor, into: $0.baseAddress!, count: $0.count)
      }
      guard count >= 0 else {
        throw .io(path: sourceName, operation: "read", message: SystemCall.message())
      }
      start = 0
      end = count
      if count == 0 { isAtEnd = true }
      return count > 0
    }
  }
}
