/// A forgiving JSON parser for JSON-LD found in pages: it accepts raw control characters in
/// strings, trailing commas, and junk around the value (`<!--`, `//<![CDATA[`, `;`), and gives
/// up — returning `nil` — on anything else malformed or nested deeper than `maximumDepth`.
struct LenientJSONParser {
  static let maximumDepth = 128

  private let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0

  /// Parses every top-level value in `bytes`; returns an empty array when none parses.
  static func parseAll(_ bytes: UnsafeBufferPointer<UInt8>) -> [JSONValue] {
    var parser = LenientJSONParser(bytes: bytes)
    var values: [JSONValue] = []
    while parser.skipToValueStart() {
      guard let value = parser.value(depth: 0) else { break }
      values.append(value)
    }
    return values
  }

  private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// Moves to the next `{` or `[` that is not part of a `<![CDATA[` marker; returns `false`
  /// when there is none.
  private mutating func skipToValueStart() -> Bool {
    let marker = Array("<![CDATA[".utf8)
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "{") { return true }
      if byte == UInt8(ascii: "[") {
        let isMarker =
          position >= 2 && bytes[position - 1] == UInt8(ascii: "!")
          && bytes[position - 2] == UInt8(ascii: "<")
          || position >= 8 && bytes[(position - 8)...position].elementsEqual(marker)
        if !isMarker { return true }
      }
      position += 1
    }
    return false
  }

  private mutating func skipWhitespace() {
    while position < bytes.count {
      let byte = bytes[position]
      guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C else { return }
      position += 1
    }
  }

  private mutating func value(depth: Int) -> JSONValue? {
    guard depth < Self.maximumDepth else { return nil }
    skipWhitespace()
    guard position < bytes.count else { return nil }
    switch bytes[position] {
    case UInt8(ascii: "{"): return object(depth: depth)
    case UInt8(ascii: "["): return array(depth: depth)
    case UInt8(ascii: "\""): return string().map(JSONValue.string)
    case UInt8(ascii: "t"): return literal("true", .bool(true))
    case UInt8(ascii: "f"): return literal("false", .bool(false))
    case UInt8(ascii: "n"): return literal("null", .null)
    default: return number()
    }
  }

  private mutating func object(depth: Int) -> JSONValue? {
    position += 1
    // Gathered in order, then made a dictionary of the right size at once (the first of
    // repeated keys wins), instead of growing and rehashing it member by member.
    var members: [(String, JSONValue)] = []
    while true {
      skipWhitespace()
      guard position < bytes.count else { return nil }
      if bytes[position] == UInt8(ascii: "}") {
        position += 1
        return .object(Dictionary(members, uniquingKeysWith: { first, _ in first }))
      }
      guard bytes[position] == UInt8(ascii: "\""), let key = string() else { return nil }
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
      position += 1
      guard let member = value(depth: depth + 1) else { return nil }
      members.append((key, member))
      skipWhitespace()
      guard position < bytes.count else { return nil }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
      } else if bytes[position] != UInt8(ascii: "}") {
        return nil
      }
    }
  }

  private mutating func array(depth: Int) -> JSONValue? {
    position += 1
    var items: [JSONValue] = []
    while true {
      skipWhitespace()
      guard position < bytes.count else { return nil }
      if bytes[position] == UInt8(ascii: "]") {
        position += 1
        return .array(items)
      }
      guard let item = value(depth: depth + 1) else { return nil }
      items.append(item)
      skipWhitespace()
      guard position < bytes.count else { return nil }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
      } else if bytes[position] != UInt8(ascii: "]") {
        return nil
      }
    }
  }

  private mutating func literal(_ word: StaticString, _ result: JSONValue) -> JSONValue? {
    let count = word.utf8CodeUnitCount
    guard position + count <= bytes.count else { return nil }
    for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { return nil }
    position += count
    return result
  }

  private mutating func number() -> JSONValue? {
    let start = position
    while position < bytes.count, "+-0123456789.eE".utf8.contains(bytes[position]) { position += 1 }
    guard position > start, position - start < 64 else { return nil }
    return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
      .map(JSONValue.number)
  }

  /// Reads a string at `position` (a `"`), decoding escapes; surrogate pairs are joined.
  private mutating func string() -> String? {
    position += 1
    // Most strings have no escape: made straight from the input, without a byte array first.
    var end = position
    while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
    if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
      position = end + 1
      return text
    }
    var output: [UInt8] = []
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      if byte == UInt8(ascii: "\"") { return String(decoding: output, as: UTF8.self) }
      guard byte == UInt8(ascii: "\\") else {
        output.append(byte)
        continue
      }
      guard position < bytes.count else { return nil }
      let escape = bytes[position]
      position += 1
      switch escape {
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "t"): output.append(0x09)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "b"): output.append(0x08)
      case UInt8(ascii: "f"): output.append(0x0C)
      case UInt8(ascii: "u"):
        guard var scalar = hex4() else { return nil }
        if scalar >= 0xD800 && scalar < 0xDC00, position + 1 < bytes.count,
          bytes[position] == UInt8(ascii: "\\"),
          bytes[position + 1] == UInt8(ascii: "u")
        {
          position += 2
          guard let low = hex4() else { return nil }
          if low >= 0xDC00 && low < 0xE000 {
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          } else {
            UTF8Writer.append(0xFFFD, to: &output)
            scalar = low
          }
        }
        UTF8Writer.append(scalar, to: &output)
      default: output.append(escape)
      }
    }
    return nil
  }

  private mutating func hex4() -> UInt32? {
    guard position + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[position] | 0x20
      let digit: UInt32
      if ASCII.isDigit(bytes[position]) {
        digit = UInt32(bytes[position] - UInt8(ascii: "0"))
      } else if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f") {
        digit = UInt32(byte - UInt8(ascii: "a") + 10)
      } else {
        return nil
      }
      value = value << 4 | digit
      position += 1
    }
    return value
  }
}
