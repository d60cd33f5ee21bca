/// Encodes `Encodable` values to the exact bytes of Foundation's `JSONEncoder` with
/// `[.sortedKeys, .withoutEscapingSlashes]`, several times faster.
///
/// The crawl encodes every record (state database, manifest) and every card with that format;
/// `perf` of a 100,000-URL crawl put 12.5 % of its CPU in `JSONEncoder` (boxing into a value tree,
/// dynamic casts for Date/URL/Data, a dictionary per object, coding paths). This encoder writes
/// scalars straight into one byte buffer per object or array and sorts each object's keys by their
/// Unicode scalars, as `JSONEncoder` does; strings escape `"`, `\` and control characters the same way
/// (`\b \f \n \r \t`, else `\u00XX`), and doubles print as Swift's shortest form without a trailing
/// `.0` (`3`, `0.012`, `5e-05`, `1e+21`).
///
/// Unlike `JSONEncoder` it gives `Date`, `URL`, `Data` and `Decimal` no special treatment (their
/// own `Codable` form is written): use it for the crawl's plain value types only.
/// `SortedJSONEncoderTests` checks it against `JSONEncoder` on records, cards and hostile text.
///
/// ```swift
/// let bytes = try SortedJSONEncoder.encode(record)
/// ```
enum SortedJSONEncoder {
  /// The JSON of `value`.
  ///
  /// - Throws: `EncodingError.invalidValue` for a non-finite floating-point number.
  static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    let sink = JSONSink()
    try value.encode(to: sink)
    var out: [UInt8] = []
    out.reserveCapacity(sink.buffer.count + 64)
    sink.serialize(into: &out)
    return out
  }

  /// Appends `text` as a JSON string literal.
  static func appendString(_ text: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    var text = text
    // Runs without a byte to escape (nearly all of a record) are copied whole.
    text.withUTF8 { bytes in
      var start = 0
      for index in bytes.indices where bytes[index] < 0x20 || bytes[index] == 0x22 || bytes[index] == 0x5C {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        appendEscaped(bytes[index], to: &out)
        start = index + 1
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    }
    out.append(UInt8(ascii: "\""))
  }

  /// `JSONEncoder`'s escape of a quote, a backslash or a control character.
  private static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
    switch byte {
    case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
    case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
    case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
    case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
    case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
    case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
    case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
    default:
      let digits = Array("0123456789abcdef".utf8)
      out.append(contentsOf: Array("\\u00".utf8))
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
  }

  /// Appends a finite floating-point number as `JSONEncoder` writes it.
  static func appendNumber(_ description: String, isFinite: Bool, to out: inout [UInt8]) throws {
    guard isFinite else {
      throw EncodingError.invalidValue(
        description, EncodingError.Context(codingPath: [], debugDescription: "JSON has no \(description)."))
    }
    var text = Substring(description)
    if text.hasSuffix(".0") { text = text.dropLast(2) }
    out.append(contentsOf: text.utf8)
  }
}

/// One object, array or single value being encoded; nested values get a sink of their own.
///
/// Confined to the `SortedJSONEncoder.encode` call that made it (never shared across threads).
final class JSONSink: Encoder {
  /// A member's or element's value: bytes already written to `buffer`, or a nested container.
  enum Slot {
    case bytes(Range<Int>)
    case nested(JSONSink)
  }

  enum Kind {
    case empty, object, array, single
  }

  var kind = Kind.empty
  var buffer: [UInt8] = []
  var members: [(key: String, slot: Slot)] = []
  var elements: [Slot] = []
  let codingPath: [any CodingKey] = []
  let userInfo: [CodingUserInfoKey: Any] = [:]

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    kind = .object
    return KeyedEncodingContainer(KeyedSink<Key>(sink: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    kind = .array
    return UnkeyedSink(sink: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    kind = .single
    return SingleSink(sink: self)
  }

  /// Writes one value to `buffer` and returns where it is.
  func write(_ body: (inout [UInt8]) throws -> Void) rethrows -> Slot {
    let start = buffer.count
    try body(&buffer)
    return .bytes(start..<buffer.count)
  }

  func write<T: Encodable>(_ value: T) throws -> Slot {
    let nested = JSONSink()
    try value.encode(to: nested)
    return write { nested.serialize(into: &$0) }
  }

  /// Appends the finished JSON of this sink.
  func serialize(into out: inout [UInt8]) {
    switch kind {
    case .empty:
      out.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
    case .single:
      out.append(contentsOf: buffer)
    case .array:
      out.append(UInt8(ascii: "["))
      for (index, slot) in elements.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        append(slot, to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object:
      out.append(UInt8(ascii: "{"))
      // UTF-8 byte order is Unicode scalar order, JSONEncoder's order for sorted keys. (Synthesized
      // Codable never encodes a key twice; this encoder does not de-duplicate keys.)
      members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
      for (index, member) in members.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        SortedJSONEncoder.appendString(member.key, to: &out)
        out.append(UInt8(ascii: ":"))
        append(member.slot, to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  private func append(_ slot: Slot, to out: inout [UInt8]) {
    switch slot {
    case .bytes(let range): out.append(contentsOf: buffer[range])
    case .nested(let sink): sink.serialize(into: &out)
    }
  }
}
