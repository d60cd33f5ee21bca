import Foundation

/// Reads a URL list one line at a time: one URL per line, `#` comments and blank lines skipped.
///
/// The list is streamed — only the current line is in memory — so a list of millions of URLs costs
/// no more than a list of ten. Lines that are not valid http(s) URLs come back as `.invalid` with
/// their line number; reading goes on.
///
/// ```swift
/// let reader = try URLListReader(path: "urls.txt")
/// while let entry = reader.next() { … }
/// ```
public final class URLListReader: @unchecked Sendable {
  // Confined to the caller: `next()` is called by one task at a time (the crawler's Mutex-guarded source).
  /// One meaningful line of the list.
  public enum Entry: Sendable, Equatable {
    /// A valid URL: as written, and normalized (see `URLNormalization`).
    case url(line: Int, url: String, normalizedURL: String)
    /// A line that is not a valid http(s) URL.
    case invalid(line: Int, text: String, error: FetchError)
  }

  private enum Source {
    case file(UnsafeMutablePointer<FILE>)
    case bytes([UInt8], offset: Int)
  }

  private var source: Source
  private var lineNumber = 0
  /// Lines longer than this are reported as invalid without being kept whole.
  public static let maxLineLength = 64 * 1024

  /// Opens the list at `path`.
  ///
  /// - Throws: `StoreError.io` when the file cannot be opened, with `strerror`'s message.
  public init(path: String) throws(StoreError) {
    guard let file = fopen(path, "r") else {
      throw .io(path: path, operation: "open", message: String(cString: strerror(errno)))
    }
    source = .file(file)
  }

  /// Reads the list from an open file descriptor (standard input is 0); the descriptor is duplicated.
  public init(fileDescriptor: Int32) throws(StoreError) {
    let copy = dup(fileDescriptor)
    guard copy >= 0, let file = fdopen(copy, "r") else {
      throw .io(path: "fd \(fileDescriptor)", operation: "read", message: String(cString: strerror(errno)))
    }
    source = .file(file)
  }

  /// Reads the list from bytes already in memory.
  public init(bytes: [UInt8]) {
    source = .bytes(bytes, offset: 0)
  }

  deinit {
    if case .file(let file) = source { fclose(file) }
  }

  /// The next URL or invalid line, or `nil` at the end of the list.
  public func next() -> Entry? {
    while let line = readLine() {
      lineNumber += 1
      let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      if text.isEmpty || text.hasPrefix("#") { continue }
      if line.count > Self.maxLineLength {
        return .invalid(
          line: lineNumber, text: String(text.prefix(80)) + "…", error: .invalidURL("(line too long)"))
      }
      do {
        return .url(line: lineNumber, url: text, normalizedURL: try URLNormalization.normalize(text))
      } catch {
        return .invalid(line: lineNumber, text: text, error: error)
      }
    }
    return nil
  }

  /// One line without its terminator; an over-long line is cut at `maxLineLength + 1` bytes.
  private func readLine() -> [UInt8]? {
    switch source {
    case .file(let file):
      var line: [UInt8] = []
      var sawAny = false
      while true {
        let character = getc_unlocked(file)
        if character == EOF { break }
        sawAny = true
        if character == 0x0A { break }
        if line.count <= Self.maxLineLength { line.append(UInt8(truncatingIfNeeded: character)) }
      }
      return sawAny ? line : nil
    case .bytes(let bytes, let offset):
      guard offset < bytes.count else { return nil }
      let end = bytes[offset...].firstIndex(of: 0x0A) ?? bytes.count
      source = .bytes(bytes, offset: end + 1)
      return Array(bytes[offset..<min(end, offset + Self.maxLineLength + 1)])
    }
  }
}
