import Foundation
import ThumbifySystem

/// Reads a `manifest.jsonl` one line at a time with a look at the next record's normalized URL,
/// without decoding records: what a merge of shard manifests needs to take each shard's records in
/// the order of the list they were crawled from (`thumbify merge`).
///
/// Memory: one line.
package final class ManifestCursor {
  /// The manifest's path.
  package let path: String
  private let lines: LineReader?
  private var lineNumber = 0
  private var peeked: (line: [UInt8], normalizedURL: String)?

  /// A cursor over `<directory>/manifest.jsonl`; a directory without a manifest reads as empty
  /// (`isMissing`).
  ///
  /// - Throws: `StoreError.io` when the manifest exists but cannot be opened.
  package init(directory: String) throws(StoreError) {
    path = OutputLayout.manifest(in: directory)
    if access(path, F_OK) != 0 && Errno.current == .noSuchFileOrDirectory {
      lines = nil
    } else {
      lines = try LineReader(path: path, maxLength: ManifestReader.maximumLineLength)
    }
  }

  /// True when the directory has no manifest.
  package var isMissing: Bool { lines == nil }

  /// The normalized URL of the next record, or nil at the end.
  ///
  /// - Throws: `StoreError` when the manifest cannot be read, or a line is not a record.
  package func peek() throws(StoreError) -> String? {
    if let peeked { return peeked.normalizedURL }
    guard let lines else { return nil }
    while let line = try lines.nextLine() {
      lineNumber += 1
      guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
      guard let url = Self.stringMember("normalizedURL", of: line) else {
        throw .malformedLine(path: path, line: lineNumber, message: "the field 'normalizedURL' is missing")
      }
      peeked = (line, url)
      return url
    }
    return nil
  }

  /// The next record's line (without its newline) and normalized URL, or nil at the end.
  package func next() throws(StoreError) -> (line: [UInt8], normalizedURL: String)? {
    guard try peek() != nil, let record = peeked else { return nil }
    peeked = nil
    return record
  }

  /// The value of the top-level string member `name` of one record's JSON, read from its bytes.
  ///
  /// A record is written with sorted keys by `JSONWriter`; the members before `normalizedURL` and
  /// `outcome` (`fetch`, `metadata`, `image`, …) are objects whose own keys could repeat the name, so
  /// the *last* occurrence at nesting depth 1 is searched for by walking the JSON's structure (strings
  /// skipped with their escapes). A value with escapes is decoded by `JSONDecoder`.
  package static func stringMember(_ name: String, of line: [UInt8]) -> String? {
    let key = Array(("\"" + name + "\"").utf8)
    var depth = 0
    var index = 0
    var found: String?
    let count = line.count
    while index < count {
      let byte = line[index]
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        index += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        index += 1
      case UInt8(ascii: "\""):
        let start = index
        index = endOfString(line, from: index)
        guard depth == 1, index - start == key.count, line[start..<index].elementsEqual(key) else { continue }
        // A key: skip white space and the colon, then read a string value.
        var cursor = index
        while cursor < count, line[cursor] == 0x20 { cursor += 1 }
        guard cursor < count, line[cursor] == UInt8(ascii: ":") else { continue }
        cursor += 1
        while cursor < count, line[cursor] == 0x20 { cursor += 1 }
        guard cursor < count, line[cursor] == UInt8(ascii: "\"") else { continue }
        let end = endOfString(line, from: cursor)
        let body = line[(cursor + 1)..<max(cursor + 1, end - 1)]
        if body.contains(UInt8(ascii: "\\")) {
          found = try? JSONDecoder().decode(String.self, from: Data(line[cursor..<end]))
        } else {
          found = String(decoding: body, as: UTF8.self)
        }
        index = end
      default:
        index += 1
      }
    }
    return found
  }

  /// The index after the string starting with the quote at `start`.
  private static func endOfString(_ line: [UInt8], from start: Int) -> Int {
    var index = start + 1
    while index < line.count {
      switch line[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""): return index + 1
      default: index += 1
      }
    }
    return line.count
  }
}
