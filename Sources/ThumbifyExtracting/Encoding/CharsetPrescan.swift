/// The WHATWG "prescan a byte stream to determine its encoding" algorithm over the first
/// 1024 bytes: finds `<meta charset>` and `<meta http-equiv=content-type content=…>`,
/// skipping comments and other tags' attributes.
enum CharsetPrescan {
  /// How many bytes the prescan reads.
  static let limit = 1024

  /// The encoding the first 1024 bytes declare, or `nil`.
  static func encoding(in bytes: UnsafeBufferPointer<UInt8>) -> TextEncoding? {
    var scanner = Scanner(bytes: UnsafeBufferPointer(rebasing: bytes[0..<min(bytes.count, limit)]))
    return scanner.run()
  }

  /// Extracts the charset from a `content` value such as `text/html; charset="gbk"` (WHATWG
  /// "extract a character encoding from a meta element"); also used for Content-Type headers.
  static func charset(inContent content: [UInt8]) -> [UInt8]? {
    var index = 0
    let pattern = Array("charset".utf8)
    while index + pattern.count <= content.count {
      var matches = true
      for offset in 0..<pattern.count where ASCII.lower(content[index + offset]) != pattern[offset] {
        matches = false
        break
      }
      if !matches {
        index += 1
        continue
      }
      index += pattern.count
      while index < content.count, ASCII.isWhitespace(content[index]) { index += 1 }
      guard index < content.count, content[index] == UInt8(ascii: "=") else { continue }
      index += 1
      while index < content.count, ASCII.isWhitespace(content[index]) { index += 1 }
      guard index < content.count else { return nil }
      let first = content[index]
      if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
        guard let close = content[(index + 1)...].firstIndex(of: first) else { return nil }
        return Array(content[(index + 1)..<close])
      }
      var end = index
      while end < content.count, !ASCII.isWhitespace(content[end]), content[end] != UInt8(ascii: ";") {
        end += 1
      }
      return Array(content[index..<end])
    }
    return nil
  }

  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func run() -> TextEncoding? {
      while position < bytes.count {
        if matches("<!--") {
          // The first '>' preceded by "--", counting from the "<!" (so "<!-->" ends at once).
          var end = position + 2
          while end < bytes.count, !(bytes[end] == 0x3E && bytes[end - 1] == 0x2D && bytes[end - 2] == 0x2D) {
            end += 1
          }
          position = end + 1
        } else if matchesLowercased("<meta"), position + 5 < bytes.count,
          ASCII.isWhitespace(bytes[position + 5]) || bytes[position + 5] == UInt8(ascii: "/")
        {
          position += 6
          if let encoding = meta() { return encoding }
        } else if bytes[position] == UInt8(ascii: "<"), position + 1 < bytes.count,
          ASCII.isAlpha(bytes[position + 1])
            || (bytes[position + 1] == UInt8(ascii: "/") && position + 2 < bytes.count
              && ASCII.isAlpha(bytes[position + 2]))
        {
          while position < bytes.count, !ASCII.isWhitespace(bytes[position]), bytes[position] != 0x3E {
            position += 1
          }
          while attribute() != nil {}
        } else if matches("<!") || matches("</") || matches("<?") {
          while position < bytes.count, bytes[position] != 0x3E { position += 1 }
          position += 1
        } else {
          position += 1
        }
      }
      return nil
    }

    /// Reads one `<meta>`'s attributes and decides whether it declares an encoding.
    private mutating func meta() -> TextEncoding? {
      var seen: Set<[UInt8]> = []
      var gotPragma = false
      var needPragma: Bool?
      var charset: TextEncoding?
      var charsetFailed = false
      while let (name, value) = attribute() {
        guard seen.insert(name).inserted else { continue }
        switch String(decoding: name, as: UTF8.self) {
        case "http-equiv":
          if String(decoding: value, as: UTF8.self) == "content-type" { gotPragma = true }
        case "content":
          if charset == nil && !charsetFailed, let label = CharsetPrescan.charset(inContent: value) {
            charset = TextEncoding(label: String(decoding: label, as: UTF8.self))
            charsetFailed = charset == nil
            needPragma = true
          }
        case "charset":
          charset = TextEncoding(label: String(decoding: value, as: UTF8.self))
          charsetFailed = charset == nil
          needPragma = false
        default:
          break
        }
      }
      guard let needPragma, !(needPragma && !gotPragma), var found = charset else { return nil }
      if found == .utf16LE || found == .utf16BE { found = .utf8 }
      return found
    }

    /// WHATWG "get an attribute": a lower-cased name and value, or `nil` at the tag's end.
    private mutating func attribute() -> (name: [UInt8], value: [UInt8])? {
      while position < bytes.count, ASCII.isWhitespace(bytes[position]) || bytes[position] == 0x2F {
        position += 1
      }
      guard position < bytes.count, bytes[position] != 0x3E else { return nil }
      var name: [UInt8] = []
      var value: [UInt8] = []
      while position < bytes.count {
        let byte = bytes[position]
        if byte == 0x3D, !name.isEmpty {
          position += 1
          return readValue(name: name)
        } else if ASCII.isWhitespace(byte) {
          while position < bytes.count, ASCII.isWhitespace(bytes[position]) { position += 1 }
          guard position < bytes.count, bytes[position] == 0x3D else { return (name, value) }
          position += 1
          return readValue(name: name)
        } else if byte == 0x2F || byte == 0x3E {
          return (name, value)
        }
        name.append(ASCII.lower(byte))
        position += 1
      }
      value = []
      return nil
    }

    private mutating func readValue(name: [UInt8]) -> (name: [UInt8], value: [UInt8])? {
      while position < bytes.count, ASCII.isWhitespace(bytes[position]) { position += 1 }
      guard position < bytes.count else { return nil }
      var value: [UInt8] = []
      let first = bytes[position]
      if first == 0x22 || first == 0x27 {
        position += 1
        while position < bytes.count {
          if bytes[position] == first {
            position += 1
            return (name, value)
          }
          value.append(ASCII.lower(bytes[position]))
          position += 1
        }
        return nil
      }
      if first == 0x3E { return (name, value) }
      while position < bytes.count, !ASCII.isWhitespace(bytes[position]), bytes[position] != 0x3E {
        value.append(ASCII.lower(bytes[position]))
        position += 1
      }
      return position < bytes.count ? (name, value) : nil
    }

    private func matches(_ literal: StaticString) -> Bool {
      let count = literal.utf8CodeUnitCount
      guard position + count <= bytes.count else { return false }
      let pointer = literal.utf8Start
      for offset in 0..<count where bytes[position + offset] != pointer[offset] { return false }
      return true
    }

    private func matchesLowercased(_ literal: StaticString) -> Bool {
      let count = literal.utf8CodeUnitCount
      guard position + count <= bytes.count else { return false }
      let pointer = literal.utf8Start
      for offset in 0..<count where ASCII.lower(bytes[position + offset]) != pointer[offset] { return false }
      return true
    }
  }
}
