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

  /// Opens `path`.
  ///
  /// - Throws: `StoreError.io` with `strerror`'s message.
  public init(path: String, maxLength: Int = 16 << 20) throws(StoreError) {
    guard let file = fopen(path, "r") else {
      throw .io(path: path, operation: "open", message: String(cString: strerror(errno)))
    }
    source = .file(file)
    self.maxLength = maxLength
  }

  /// Reads from an open descriptor, which is duplicated (the caller keeps its own).
  public init(fileDescriptor: Int32, maxLength: Int = 16 << 20) throws(StoreError) {
    let copy = dup(fileDescriptor)
    guard copy >= 0, let file = fdopen(copy, "r") else {
      throw .io(path: "fd \(fileDescriptor)", operation: "read", message: String(cString: strerror(errno)))
    }
    source = .file(file)
    self.maxLength = maxLength
  }

  /// Reads lines from bytes in memory.
  public init(bytes: [UInt8], maxLength: Int = 16 << 20) {
    source = .bytes(bytes, offset: 0)
    self.maxLength = maxLength
  }

  deinit {
    if case .file(let file) = source { fclose(file) }
  }

  /// The next line without its `\n`, or `nil` at the end.
  public func nextLine() -> [UInt8]? {
    switch source {
    case .file(let file):
      var line: [UInt8] = []
      var sawAny = false
      while true {
        let character = getc_unlocked(file)
        if character == EOF { break }
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
