import Foundation

/// Reads a file (or bytes) one line at a time, holding only the current line.
///
/// Lines longer than `maxLength` are cut at `maxLength + 1` bytes (the rest is skipped), so a file
/// without newlines never makes it allocate more than that.
public final class LineReader {
  private enum Source {
    case file(UnsafeMutablePointer<FILE>)
    case bytes([UInt8], offset: Int)
  }

  private var source: Source
  public let maxLength: Int
  /// The path or descriptor read, for error messages.
  private let sourceName: String

  /// Opens `path`.
  ///
  /// - Throws: `StoreError.io` with `strerror`'s message.
  public init(path: String, maxLength: Int = 16 << 20) throws(StoreError) {
    guard let file = fopen(path, "r") else {
      throw .io(path: path, operation: "open", message: SystemCall.message(errno))
    }
    // fopen(3) opens a directory for reading; only read(2) fails on it, which would look like an
    // empty file (and an empty URL list empties the manifest).
    var status = stat()
    if fstat(fileno(file), &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      fclose(file)
      throw .io(path: path, operation: "read", message: SystemCall.message(EISDIR))
    }
    source = .file(file)
    sourceName = path
    self.maxLength = maxLength
  }

  /// Reads from an open descriptor, which is duplicated (the caller keeps its own).
  public init(fileDescriptor: Int32, maxLength: Int = 16 << 20) throws(StoreError) {
    let copy = dup(fileDescriptor)
    guard copy >= 0 else {
      throw .io(path: "fd \(fileDescriptor)", operation: "read", message: SystemCall.message(errno))
    }
    guard let file = fdopen(copy, "r") else {
      let code = errno
      close(copy)
      throw .io(path: "fd \(fileDescriptor)", operation: "read", message: SystemCall.message(code))
    }
    source = .file(file)
    sourceName = "fd \(fileDescriptor)"
    self.maxLength = maxLength
  }

  /// Reads lines from bytes in memory.
  public init(bytes: [UInt8], maxLength: Int = 16 << 20) {
    source = .bytes(bytes, offset: 0)
    self.maxLength = maxLength
    sourceName = "bytes"
  }

  deinit {
    if case .file(let file) = source { fclose(file) }
  }

  /// The next line without its `\n`, or `nil` at the end.
  ///
  /// - Throws: `StoreError.io` when reading fails (a read error is never taken for the end).
  public func nextLine() throws(StoreError) -> [UInt8]? {
    switch source {
    case .file(let file):
      var line: [UInt8] = []
      var sawAny = false
      while true {
        let character = getc_unlocked(file)
        if character == EOF {
          if ferror(file) != 0 {
            throw .io(path: sourceName, operation: "read", message: SystemCall.message(errno))
          }
          break
        }
        sawAny = true
        if character == 0x0A { break }
        if line.count <= maxLength { line.append(UInt8(truncatingIfNeeded: character)) }
      }
      return sawAny ? line : nil
    case .bytes(let bytes, let offset):
      guard offset < bytes.count else { return nil }
      let end = bytes[offset...].firstIndex(of: 0x0A) ?? bytes.count
      source = .bytes(bytes, offset: end + 1)
      return Array(bytes[offset..<min(end, offset + maxLength + 1)])
    }
  }
}
