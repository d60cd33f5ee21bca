/// Byte-level character classes used by the tokenizer, the prescan and the URL parser.
package enum ASCII {
  /// Tab, LF, FF, CR and space: HTML's ASCII whitespace.
  @inline(__always)
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
  }

  @inline(__always)
  static func isAlpha(_ byte: UInt8) -> Bool {
    let lower = byte | 0x20
    return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
  }

  @inline(__always)
  package static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  @inline(__always)
  static func isAlphanumeric(_ byte: UInt8) -> Bool { isAlpha(byte) || isDigit(byte) }

  /// ASCII upper case to lower case; every other byte unchanged.
  @inline(__always)
  static func lower(_ byte: UInt8) -> UInt8 {
    (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte | 0x20 : byte
  }

  /// Lower-cases ASCII letters of a string, leaving everything else as is.
  static func lowercased(_ text: String) -> String {
    // On the contiguous bytes: `utf8.contains(where:)` walks String indices, several times slower.
    var text = text
    let hasUpper = text.withUTF8 { bytes in
      bytes.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }
    guard hasUpper else { return text }
    var bytes = Array(text.utf8)
    for index in bytes.indices { bytes[index] = lower(bytes[index]) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether the string is empty or only ASCII whitespace.
  static func isBlank(_ text: String) -> Bool {
    text.utf8.allSatisfy(isWhitespace)
  }

  /// The string with leading and trailing ASCII whitespace removed.
  static func trimmed(_ text: String) -> String {
    // On the contiguous bytes: `utf8.last` walks back from the end index, several times slower.
    var text = text
    let kept = text.withUTF8 { bytes -> Range<Int>? in
      var start = 0
      var end = bytes.count
      while start < end, isWhitespace(bytes[start]) { start += 1 }
      while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
      return start == 0 && end == bytes.count ? nil : start..<end
    }
    guard let kept else { return text }
    return text.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[kept]), as: UTF8.self) }
  }
}
