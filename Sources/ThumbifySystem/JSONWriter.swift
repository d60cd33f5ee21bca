import Foundation

/// A value that writes itself as JSON in the crawl's format (`JSONWriter`).
package protocol JSONWritable {
  func write(to json: inout JSONWriter)
}

/// Writes the crawl's JSON — the exact bytes of Foundation's `JSONEncoder` with
/// `[.sortedKeys, .withoutEscapingSlashes]` — straight into one byte buffer.
///
/// The state database, the manifest and the cards hold every record in this format, and readers
/// compare bytes. A generic `Encoder` that sorted keys at run time cost ~45 µs per record (the
/// `Codable` containers, a sink per nested value, a sort per object): ~11 % of a 100,000-URL crawl's
/// CPU in `perf`. Here each type lists its members itself, keys already in sorted order
/// (`JSONWriter+Records.swift`), and nothing is built but the bytes.
///
/// Format (as `JSONEncoder`): keys in Unicode scalar order, members whose value is `nil` omitted,
/// strings escaping `"`, `\` and control characters (`\b \f \n \r \t`, else `\u00XX`) and nothing
/// else, doubles in Swift's shortest form without a trailing `.0` (`3`, `0.012`, `5e-05`, `1e+21`).
/// `JSONWriterTests` checks it against `JSONEncoder` on records and cards with every field set and
/// on hostile text and numbers.
///
/// ```swift
/// let bytes = try JSONWriter.encode(record)
/// ```
///
/// The generic members are `@inlinable`: the record types live in other targets, and an unspecialized
/// generic call per member looked up generic metadata at run time (2 % of a crawl's CPU).
package struct JSONWriter {
  @usableFromInline var bytes: [UInt8] = []
  /// The first non-finite number met: JSON has none, so `encode` throws.
  @usableFromInline var nonFinite: Double?

  @usableFromInline init() {}

  /// The JSON of `value`.
  ///
  /// - Throws: `EncodingError.invalidValue` for a non-finite number (as `JSONEncoder` does).
  @inlinable package static func encode(_ value: some JSONWritable) throws -> [UInt8] {
    var writer = JSONWriter()
    writer.bytes.reserveCapacity(2048)  // a crawl record is ~2 KB
    value.write(to: &writer)
    if let number = writer.nonFinite {
      throw EncodingError.invalidValue(
        number, EncodingError.Context(codingPath: [], debugDescription: "JSON has no \(number)."))
    }
    return writer.bytes
  }

  // MARK: Containers

  /// An object; `body` writes its members with `member(_:_:)` in sorted key order.
  package mutating func object(_ body: (inout JSONWriter) -> Void) {
    bytes.append(UInt8(ascii: "{"))
    body(&self)
    bytes.append(UInt8(ascii: "}"))
  }

  @usableFromInline mutating func array<Element>(
    _ elements: [Element], _ writeElement: (Element, inout JSONWriter) -> Void
  ) {
    bytes.append(UInt8(ascii: "["))
    for element in elements {
      separate()
      writeElement(element, &self)
    }
    bytes.append(UInt8(ascii: "]"))
  }

  /// A comma unless this is the first member or element (no value ends with `{` or `[`).
  @usableFromInline mutating func separate() {
    if let last = bytes.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "[") {
      bytes.append(UInt8(ascii: ","))
    }
  }

  /// `"key":` (keys are the crawl's ASCII identifiers: nothing to escape).
  @usableFromInline mutating func key(_ key: StaticString) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    key.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
  }

  // MARK: Members (a nil value writes nothing, as synthesized `Codable` does)

  package mutating func member(_ name: StaticString, _ value: String?) {
    guard let value else { return }
    key(name)
    string(value)
  }

  package mutating func member(_ name: StaticString, _ value: Int?) {
    guard let value else { return }
    key(name)
    bytes.append(contentsOf: String(value).utf8)
  }

  package mutating func member(_ name: StaticString, _ value: Double?) {
    guard let value else { return }
    key(name)
    number(value)
  }

  package mutating func member(_ name: StaticString, _ value: Bool) {
    key(name)
    bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
  }

  @inlinable package mutating func member(_ name: StaticString, _ value: (some JSONWritable)?) {
    guard let value else { return }
    key(name)
    value.write(to: &self)
  }

  @inlinable package mutating func member<Element: JSONWritable>(_ name: StaticString, _ value: [Element]?) {
    guard let value else { return }
    key(name)
    array(value) { element, json in element.write(to: &json) }
  }

  package mutating func member(_ name: StaticString, _ value: [String]?) {
    guard let value else { return }
    key(name)
    array(value) { element, json in json.string(element) }
  }

  // MARK: Scalars

  /// `text` as a JSON string literal.
  package mutating func string(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    var text = text
    // Runs without a byte to escape (nearly all of a record) are copied whole.
    text.withUTF8 { utf8 in
      var start = 0
      for index in utf8.indices where utf8[index] < 0x20 || utf8[index] == 0x22 || utf8[index] == 0x5C {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
        escape(utf8[index])
        start = index + 1
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// `JSONEncoder`'s escape of a quote, a backslash or a control character.
  private mutating func escape(_ byte: UInt8) {
    bytes.append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
    case 0x08: bytes.append(UInt8(ascii: "b"))
    case 0x0C: bytes.append(UInt8(ascii: "f"))
    case 0x0A: bytes.append(UInt8(ascii: "n"))
    case 0x0D: bytes.append(UInt8(ascii: "r"))
    case 0x09: bytes.append(UInt8(ascii: "t"))
    default:
      let digits = Array("0123456789abcdef".utf8)
      bytes.append(contentsOf: Array("u00".utf8))
      bytes.append(digits[Int(byte >> 4)])
      bytes.append(digits[Int(byte & 0x0F)])
    }
  }

  /// A finite number as `JSONEncoder` writes it; a non-finite one makes `encode` throw.
  private mutating func number(_ value: Double) {
    guard value.isFinite else {
      nonFinite = nonFinite ?? value
      bytes.append(contentsOf: Array("null".utf8))
      return
    }
    var text = Substring(value.description)
    if text.hasSuffix(".0") { text = text.dropLast(2) }
    bytes.append(contentsOf: text.utf8)
  }
}

extension JSONWritable where Self: RawRepresentable, RawValue == String {
  /// A string enum writes its raw value.
  @inlinable package func write(to json: inout JSONWriter) { json.string(rawValue) }
}

extension JSONWriter {
  /// A JSON object of Foundation values (`JSONSerialization`'s) on one line, with sorted keys and
  /// unescaped slashes: log lines and reports are compared and grepped.
  package static func line(_ object: [String: Any]) -> String {
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    else { return #"{"event":"error","message":"unencodable log line"}"# }
    return String(decoding: data, as: UTF8.self)
  }
}
