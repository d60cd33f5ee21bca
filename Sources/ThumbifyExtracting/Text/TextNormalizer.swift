/// Cleans text for a card: whitespace collapsed and trimmed, capped at a grapheme boundary.
enum TextNormalizer {
  /// The most characters (grapheme clusters) of a title.
  static let titleLimit = 300
  /// The most characters of a description.
  static let descriptionLimit = 1000
  /// The most characters of every other text field (site name, author, alt text).
  static let shortTextLimit = 300

  /// Collapses every run of whitespace (Unicode, including no-break space) to one space,
  /// drops NUL characters, trims, and keeps at most `limit` characters; `nil` when nothing is left.
  static func clean(_ text: String, limit: Int) -> String? {
    var text = text
    return text.withUTF8 { clean(bytes: $0, limit: limit) }
  }

  /// `clean(_:limit:)` on UTF-8 bytes (invalid sequences become U+FFFD).
  static func clean(bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> String? {
    var output: [UInt8] = []
    output.reserveCapacity(min(bytes.count, limit * 4 + 16))
    // Far more bytes than `limit` characters can need; longer input is cut before counting graphemes.
    let byteBudget = limit * 32 + 256
    var pendingSpace = false
    var index = 0
    while index < bytes.count, output.count < byteBudget {
      let byte = bytes[index]
      if byte < 0x80 {
        index += 1
        if byte == 0 { continue }
        if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
          pendingSpace = !output.isEmpty
          continue
        }
        if pendingSpace {
          output.append(0x20)
          pendingSpace = false
        }
        output.append(byte)
        continue
      }
      let spaceLength = unicodeWhitespaceLength(bytes, at: index)
      if spaceLength > 0 {
        pendingSpace = !output.isEmpty
        index += spaceLength
        continue
      }
      if pendingSpace {
        output.append(0x20)
        pendingSpace = false
      }
      output.append(byte)
      index += 1
      while index < bytes.count, bytes[index] & 0xC0 == 0x80 {
        output.append(bytes[index])
        index += 1
      }
    }
    guard !output.isEmpty else { return nil }
    var text = String(decoding: output, as: UTF8.self)
    if output.count > limit, text.count > limit {
      text = String(text.prefix(limit))
      while text.last?.isWhitespace == true { text.removeLast() }
    }
    return text.isEmpty ? nil : text
  }

  /// The UTF-8 length of the non-ASCII White_Space character at `index` (U+0085, U+00A0,
  /// U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000), or 0.
  @inline(__always)
  private static func unicodeWhitespaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
    let lead = bytes[index]
    guard index + 1 < bytes.count else { return 0 }
    let second = bytes[index + 1]
    if lead == 0xC2 { return second == 0x85 || second == 0xA0 ? 2 : 0 }
    guard index + 2 < bytes.count, lead == 0xE1 || lead == 0xE2 || lead == 0xE3 else { return 0 }
    let third = bytes[index + 2]
    switch (lead, second) {
    case (0xE1, 0x9A): return third == 0x80 ? 3 : 0
    case (0xE2, 0x80):
      return (third >= 0x80 && third <= 0x8A) || third == 0xA8 || third == 0xA9 || third == 0xAF ? 3 : 0
    case (0xE2, 0x81): return third == 0x9F ? 3 : 0
    case (0xE3, 0x80): return third == 0x80 ? 3 : 0
    default: return 0
    }
  }

  /// Decodes character references in raw RCDATA/JSON text, then cleans it.
  static func cleanDecoding(_ bytes: [UInt8], limit: Int) -> String? {
    bytes.withUnsafeBufferPointer { cleanDecoding(bytes: $0, limit: limit) }
  }

  /// Decodes character references in a string (JSON-LD values often carry `&amp;`), then cleans it.
  static func cleanDecoding(_ text: String, limit: Int) -> String? {
    var text = text
    return text.withUTF8 { cleanDecoding(bytes: $0, limit: limit) }
  }

  /// Text without `&` has no reference: it is cleaned as it is, without a decoded copy.
  private static func cleanDecoding(bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> String? {
    guard bytes.contains(UInt8(ascii: "&")) else { return clean(bytes: bytes, limit: limit) }
    let decoded = CharacterReferences.decode(bytes, isAttribute: false)
    return decoded.withUnsafeBufferPointer { clean(bytes: $0, limit: limit) }
  }
}
