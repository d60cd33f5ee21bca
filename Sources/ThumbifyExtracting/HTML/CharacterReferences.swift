/// Decodes HTML character references (`&amp;`, `&#233;`, `&#xE9;`, legacy `&copy`) the way
/// the WHATWG tokenizer does.
///
/// Named references use every HTML5 name (`NamedCharacterReferenceTable`), matched
/// longest-first; the 106 legacy names also match without `;`, except in attribute
/// values where the next character is `=` or alphanumeric. Numeric references in
/// 0x80–0x9F go through the windows-1252 table; zero, surrogates and values past
/// U+10FFFF become U+FFFD.
enum CharacterReferences {
  /// Every name (with its `;` when it has one) mapped to its UTF-8 replacement.
  static let named: [String: [UInt8]] = {
    var table: [String: [UInt8]] = [:]
    table.reserveCapacity(NamedCharacterReferenceTable.count)
    for line in NamedCharacterReferenceTable.packed.split(whereSeparator: { $0 == "|" || $0 == "\n" }) {
      let parts = line.split(separator: " ")
      guard parts.count == 2 else { continue }
      var value: [UInt8] = []
      for hex in parts[1].split(separator: ",") {
        if let scalar = UInt32(hex, radix: 16) { UTF8Writer.append(scalar, to: &value) }
      }
      let name = parts[0].trimmingPrefixSpaces()
      table[name] = value
    }
    return table
  }()

  /// The longest name in the table, `;` included.
  static let longestName = 33

  /// Decodes every reference in `input` and returns UTF-8 bytes.
  ///
  /// - Parameter isAttribute: applies the attribute-value rule for legacy names.
  static func decode(_ input: UnsafeBufferPointer<UInt8>, isAttribute: Bool) -> [UInt8] {
    var output: [UInt8] = []
    decode(input, isAttribute: isAttribute, into: &output)
    return output
  }

  /// Decodes every reference in `input`, appending the UTF-8 bytes to `output` (a caller that
  /// decodes many values reuses one buffer).
  static func decode(_ input: UnsafeBufferPointer<UInt8>, isAttribute: Bool, into output: inout [UInt8]) {
    output.reserveCapacity(output.count + input.count)
    var index = 0
    let count = input.count
    while index < count {
      // Copies the run up to the next `&` in one go: most bytes are not part of a reference.
      let ampersand = input[index...].firstIndex(of: UInt8(ascii: "&")) ?? count
      output.append(contentsOf: UnsafeBufferPointer(rebasing: input[index..<ampersand]))
      guard ampersand < count else { break }
      index = decodeReference(input, at: ampersand, isAttribute: isAttribute, into: &output)
    }
  }

  /// Decodes the reference starting at the `&` at `start`; returns the index after what it consumed.
  private static func decodeReference(
    _ input: UnsafeBufferPointer<UInt8>, at start: Int, isAttribute: Bool, into output: inout [UInt8]
  ) -> Int {
    let next = start + 1
    guard next < input.count else {
      output.append(UInt8(ascii: "&"))
      return next
    }
    if input[next] == UInt8(ascii: "#") {
      return decodeNumeric(input, at: start, into: &output)
    }
    var end = next
    while end < input.count, end - next < longestName, ASCII.isAlphanumeric(input[end]) { end += 1 }
    guard end > next else {
      output.append(UInt8(ascii: "&"))
      return next
    }
    if end < input.count, input[end] == UInt8(ascii: ";"), appendCommon(input, next..<end, to: &output) {
      return end + 1
    }
    if end < input.count, input[end] == UInt8(ascii: ";"),
      let value = named[String(decoding: UnsafeBufferPointer(rebasing: input[next...end]), as: UTF8.self)]
    {
      output.append(contentsOf: value)
      return end + 1
    }
    // Legacy names without ';' (at most 6 letters): the longest prefix that matches.
    var length = min(end - next, 6)
    while length >= 2 {
      let name = String(decoding: UnsafeBufferPointer(rebasing: input[next..<(next + length)]), as: UTF8.self)
      if let value = named[name] {
        let after = next + length
        if isAttribute, after < input.count,
          input[after] == UInt8(ascii: "=") || ASCII.isAlphanumeric(input[after])
        {
          break
        }
        output.append(contentsOf: value)
        return after
      }
      length -= 1
    }
    output.append(UInt8(ascii: "&"))
    return next
  }

  /// Appends the replacement of one of the few names most pages use, matched without hashing
  /// a string (or building an array); returns `false` for every other name.
  @inline(__always)
  private static func appendCommon(
    _ input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to output: inout [UInt8]
  ) -> Bool {
    switch range.count {
    case 2:
      let pair = (input[range.lowerBound], input[range.lowerBound + 1])
      if pair == (UInt8(ascii: "l"), UInt8(ascii: "t")) {
        output.append(UInt8(ascii: "<"))
        return true
      }
      if pair == (UInt8(ascii: "g"), UInt8(ascii: "t")) {
        output.append(UInt8(ascii: ">"))
        return true
      }
    case 3:
      if input[range.lowerBound] == UInt8(ascii: "a"), input[range.lowerBound + 1] == UInt8(ascii: "m"),
        input[range.lowerBound + 2] == UInt8(ascii: "p")
      {
        output.append(UInt8(ascii: "&"))
        return true
      }
    case 4:
      let word = UnsafeRawPointer(input.baseAddress! + range.lowerBound).loadUnaligned(as: UInt32.self)
      if word == quot {
        output.append(UInt8(ascii: "\""))
        return true
      }
      if word == apos {
        output.append(UInt8(ascii: "'"))
        return true
      }
      if word == nbsp {
        output.append(0xC2)
        output.append(0xA0)
        return true
      }
    default:
      break
    }
    return false
  }

  private static let quot = littleEndianWord("quot")
  private static let apos = littleEndianWord("apos")
  private static let nbsp = littleEndianWord("nbsp")

  private static func littleEndianWord(_ text: StaticString) -> UInt32 {
    UnsafeRawPointer(text.utf8Start).loadUnaligned(as: UInt32.self)
  }

  /// Decodes `&#…` / `&#x…` at `start` (the `&`).
  private static func decodeNumeric(
    _ input: UnsafeBufferPointer<UInt8>, at start: Int, into output: inout [UInt8]
  ) -> Int {
    var index = start + 2
    var isHex = false
    if index < input.count, input[index] | 0x20 == UInt8(ascii: "x") {
      isHex = true
      index += 1
    }
    let digitsStart = index
    var value: UInt32 = 0
    while index < input.count {
      let byte = input[index]
      let digit: UInt32
      if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
        digit = UInt32(byte - UInt8(ascii: "0"))
      } else if isHex, byte | 0x20 >= UInt8(ascii: "a"), byte | 0x20 <= UInt8(ascii: "f") {
        digit = UInt32((byte | 0x20) - UInt8(ascii: "a") + 10)
      } else {
        break
      }
      value = min(value &* (isHex ? 16 : 10) &+ digit, 0x11_0000)
      index += 1
    }
    guard index > digitsStart else {
      // "&#" or "&#x" with no digits is not a reference.
      output.append(contentsOf: input[start..<digitsStart])
      return digitsStart
    }
    if index < input.count, input[index] == UInt8(ascii: ";") { index += 1 }
    UTF8Writer.append(replacement(forNumeric: value), to: &output)
    return index
  }

  /// The code point a numeric reference stands for after WHATWG's fix-ups.
  static func replacement(forNumeric value: UInt32) -> UInt32 {
    switch value {
    case 0, 0xD800..<0xE000, 0x110000...: return 0xFFFD
    case 0x80..<0xA0: return Windows1252.highControls[Int(value - 0x80)]
    default: return value
    }
  }
}

extension Substring {
  fileprivate func trimmingPrefixSpaces() -> String {
    String(drop { $0 == " " })
  }
}
