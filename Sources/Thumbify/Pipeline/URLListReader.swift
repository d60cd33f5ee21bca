import Foundation

/// Reads a URL list one line at a time: one URL per line, `#` comments and blank lines skipped.
///
/// The list is streamed — only the current line is in memory — so a list of millions of URLs costs
/// no more than a list of ten. Lines that are not valid http(s) URLs come back as `.invalid` with
/// their line number; reading goes on.
///
/// ```swift
/// let reader = try URLListReader(path: "urls.txt")
/// while let entry = try reader.next() { … }
/// ```
package final class URLListReader: @unchecked Sendable {
  // Confined to the caller: `next()` is called by one task at a time (the crawler's Mutex-guarded source).
  /// One meaningful line of the list.
  package enum Entry: Sendable, Equatable {
    /// A valid URL: as written, and normalized (see `URLNormalization`).
    case url(line: Int, url: String, normalizedURL: String)
    /// A line that is not a valid http(s) URL.
    case invalid(line: Int, text: String, error: FetchError)
  }

  private let lines: LineReader
  private var lineNumber = 0
  /// Reads only this shard's URLs (`Shard`): the other shards' lines are skipped, and invalid lines
  /// are reported by shard 0 alone, so that the shards of one list report each line once.
  package var shard: Shard?
  /// Lines longer than this are reported as invalid without being kept whole.
  package static let maxLineLength = 64 * 1024

  /// Asked between reads of the list: `true` ends it as its end would (a stopped crawl stops
  /// reading an endless list, a pipe that never closes, a line that never ends).
  package var isStopped: (@Sendable () -> Bool)? {
    get { lines.isStopped }
    set { lines.isStopped = newValue }
  }

  /// Whether the list at `path` can be read twice (a regular file), rather than once (a FIFO, a
  /// device such as `/dev/stdin` or `/dev/zero`), which the crawl must spool.
  package static func isRereadable(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) != 0 || status.st_mode & S_IFMT == S_IFREG
  }

  /// Copies the lines of `reader` to a new file at `path`, each over-long line cut as it is read (it
  /// stays too long to be a URL), until the end or until `isStopped`; a list read once (standard
  /// input, a FIFO) is spooled so that the manifest pass reads it again.
  package static func spool(_ reader: LineReader, to path: String) throws(StoreError) {
    let file: FileDescriptor
    do {
      file = try FileDescriptor(opening: path, O_WRONLY | O_CREAT | O_TRUNC)
    } catch {
      throw SystemCall.error("create", path, error)
    }
    var output: [UInt8] = []
    output.reserveCapacity(1 << 17)
    var isAtEnd = false
    while !isAtEnd {
      if let line = try reader.nextLine() {
        output += line
        output.append(0x0A)
        if output.count < 1 << 16 { continue }
      } else {
        isAtEnd = true
      }
      do {
        try file.writeAll(output)
      } catch {
        throw SystemCall.error("write", path, error)
      }
      output.removeAll(keepingCapacity: true)
    }
  }

  /// Opens the list at `path`.
  ///
  /// - Throws: `StoreError.io` when the file cannot be opened, with `strerror`'s message.
  package init(path: String) throws(StoreError) {
    lines = try LineReader(path: path, maxLength: Self.maxLineLength)
  }

  /// Reads the list from an open file descriptor (standard input is 0); the descriptor is duplicated.
  package init(fileDescriptor: Int32) throws(StoreError) {
    lines = try LineReader(fileDescriptor: fileDescriptor, maxLength: Self.maxLineLength)
  }

  /// Reads the list from bytes already in memory.
  package init(bytes: [UInt8]) {
    lines = LineReader(bytes: bytes, maxLength: Self.maxLineLength)
  }

  /// The next URL or invalid line, or `nil` at the end of the list.
  ///
  /// - Throws: `StoreError.io` when the list cannot be read on.
  package func next() throws(StoreError) -> Entry? {
    while var line = try lines.nextLine() {
      lineNumber += 1
      // A UTF-8 byte order mark (Windows editors write one) is not part of the first URL.
      if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
      let text = Self.trimmed(line)
      if text.isEmpty || text.hasPrefix("#") { continue }
      if line.count > Self.maxLineLength {
        if let shard, shard.index != 0 { continue }
        return .invalid(
          line: lineNumber, text: String(text.prefix(80)) + "…", error: .invalidURL("(line too long)"))
      }
      let normalized: String
      do {
        normalized = try URLNormalization.normalize(text)
      } catch {
        if let shard, shard.index != 0 { continue }
        return .invalid(line: lineNumber, text: text, error: FetchError(error))
      }
      if let shard, !shard.contains(normalizedURL: normalized) { continue }
      return .url(line: lineNumber, url: text, normalizedURL: normalized)
    }
    return nil
  }

  /// The line without surrounding white space. A line that starts and ends with a visible ASCII
  /// character (nearly every line of a URL list) has none and skips Foundation's trimming, which was
  /// 2 % of a crawl's CPU.
  static func trimmed(_ line: [UInt8]) -> String {
    func isVisibleASCII(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
    if let first = line.first, let last = line.last, isVisibleASCII(first), isVisibleASCII(last) {
      return String(decoding: line, as: UTF8.self)
    }
    return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
