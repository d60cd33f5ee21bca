import Foundation

/// The WHATWG host parser for special URLs: percent-decoding, IDNA to Punycode, IPv4
/// numbers in decimal, octal or hex, and bracketed IPv6 kept as written (lower-cased).
///
/// IDNA mapping is approximated by Unicode lower-casing and NFC plus the ideographic full
/// stops; the full UTS #46 table is not carried.
package enum WebURLHost {
  package static func parse(_ input: ArraySlice<UInt8>) -> String? {
    guard !input.isEmpty else { return nil }
    if input.first == UInt8(ascii: "[") {
      guard input.last == UInt8(ascii: "]"), input.count > 2 else { return nil }
      let inner = input.dropFirst().dropLast()
      guard
        inner.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
      else { return nil }
      return ASCII.lowercased(String(decoding: input, as: UTF8.self))
    }
    if let host = asciiFastPath(input) { return host }
    let decoded = percentDecode(input)
    let text = String(decoding: decoded, as: UTF8.self)
    let mapped = text.lowercased().precomposedStringWithCanonicalMapping
    var labels: [String] = []
    let dots: Set<Unicode.Scalar> = [".", "\u{3002}", "\u{FF0E}", "\u{FF61}"]
    var current: [Unicode.Scalar] = []
    var all: [[Unicode.Scalar]] = []
    for scalar in mapped.unicodeScalars {
      if dots.contains(scalar) {
        all.append(current)
        current = []
      } else {
        current.append(scalar)
      }
    }
    all.append(current)
    for label in all {
      for scalar in label where isForbidden(scalar) { return nil }
      if label.allSatisfy({ $0.isASCII }) {
        labels.append(String(String.UnicodeScalarView(label)))
      } else {
        guard let encoded = Punycode.encode(label) else { return nil }
        labels.append("xn--" + encoded)
      }
    }
    let host = labels.joined(separator: ".")
    guard !host.isEmpty, host.utf8.count <= 253 + 1 else { return nil }
    if let ipv4 = ipv4(labels) { return ipv4.isEmpty ? nil : ipv4 }
    return host
  }

  /// The common case without Foundation: an ASCII host with no `%` and no IPv4 number.
  private static func asciiFastPath(_ input: ArraySlice<UInt8>) -> String? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(input.count)
    for byte in input {
      guard byte < 0x80 else { return nil }
      if byte <= 0x20 || byte == 0x7F || forbiddenASCII.contains(byte) { return nil }
      bytes.append(ASCII.lower(byte))
    }
    // A last label that starts with a digit may be an IPv4 number: take the full path.
    var lastLabel = bytes[...]
    if lastLabel.last == UInt8(ascii: ".") { lastLabel = lastLabel.dropLast() }
    if let dot = lastLabel.lastIndex(of: UInt8(ascii: ".")) { lastLabel = lastLabel[(dot + 1)...] }
    if let first = lastLabel.first, ASCII.isDigit(first) {
      // Dotted decimal already in the parser's output form (`127.0.0.1`) is common and needs no work.
      return isDottedDecimal(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }
    guard !bytes.isEmpty, bytes.count <= 254, !lastLabel.isEmpty || bytes.count > 1 else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Four decimal numbers 0–255 without leading zeros, separated by single dots.
  private static func isDottedDecimal(_ bytes: [UInt8]) -> Bool {
    var parts = 0
    var value = 0
    var digits = 0
    for byte in bytes + [UInt8(ascii: ".")] {
      if byte == UInt8(ascii: ".") {
        guard digits > 0 else { return false }
        parts += 1
        (value, digits) = (0, 0)
        continue
      }
      guard ASCII.isDigit(byte), !(digits == 1 && value == 0) else { return false }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
      digits += 1
      guard value <= 255 else { return false }
    }
    return parts == 4
  }

  private static let forbiddenASCII: Set<UInt8> = Set("#%/:<>?@[\\]^|".utf8)

  private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value <= 0x20 || value == 0x7F { return true }
    return "#%/:<>?@[\\]^|".unicodeScalars.contains(scalar)
  }

  private static func percentDecode(_ input: ArraySlice<UInt8>) -> [UInt8] {
    var output: [UInt8] = []
    var index = input.startIndex
    while index < input.endIndex {
      let byte = input[index]
      if byte == UInt8(ascii: "%"), index + 2 < input.endIndex,
        let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
      {
        output.append(high << 4 | low)
        index += 3
      } else {
        output.append(byte)
        index += 1
      }
    }
    return output
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    if ASCII.isDigit(byte) { return byte - UInt8(ascii: "0") }
    let lower = byte | 0x20
    if lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f") { return lower - UInt8(ascii: "a") + 10 }
    return nil
  }

  /// The dotted-decimal form when the last label is a number (WHATWG "ends in a number");
  /// an empty string when it is a number but the address is invalid; `nil` for domains.
  private static func ipv4(_ labels: [String]) -> String? {
    var parts = labels
    if parts.count > 1, parts.last == "" { parts.removeLast() }
    guard let last = parts.last, number(last) != nil || (!last.isEmpty && last.allSatisfy(\.isNumber)) else {
      return nil
    }
    guard parts.count <= 4 else { return "" }
    var numbers: [UInt64] = []
    for part in parts {
      guard let value = number(part) else { return "" }
      numbers.append(value)
    }
    for value in numbers.dropLast() where value > 255 { return "" }
    let limit = UInt64(1) << (8 * (5 - UInt64(numbers.count)))
    guard let lastNumber = numbers.last, lastNumber < limit else { return "" }
    var address = lastNumber
    for (index, value) in numbers.dropLast().enumerated() { address += value << (8 * (3 - UInt64(index))) }
    return [24, 16, 8, 0].map { String((address >> UInt64($0)) & 0xFF) }.joined(separator: ".")
  }

  /// An IPv4 part: decimal, `0x` hex or leading-zero octal.
  private static func number(_ text: String) -> UInt64? {
    guard !text.isEmpty, text.utf8.count <= 20 else { return nil }
    var digits = Substring(text)
    var radix = 10
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
      digits = digits.dropFirst(2)
      radix = 16
      if digits.isEmpty { return 0 }
    } else if digits.count > 1, digits.hasPrefix("0") {
      digits = digits.dropFirst()
      radix = 8
    }
    return UInt64(digits, radix: radix)
  }
}
