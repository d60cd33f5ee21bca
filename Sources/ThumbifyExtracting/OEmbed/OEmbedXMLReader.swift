/// Reads oEmbed's flat XML (`<oembed><type>video</type><title>…</title>…</oembed>`): the text of
/// each child of the root element, character references and CDATA sections decoded. Bounded: at most
/// `maximumFields` fields, the input as given (the caller caps it), one pass, no recursion. Nested
/// elements, attributes, comments, processing instructions and a DOCTYPE are skipped; markup it
/// cannot read ends the reading with what was read.
enum OEmbedXMLReader {
  static let maximumFields = 64

  static func fields(_ bytes: [UInt8]) -> [String: OEmbedResponse.FieldValue] {
    var fields: [String: OEmbedResponse.FieldValue] = [:]
    var position = 0
    var depth = 0
    /// The child being read (depth 2) and its text so far.
    var field: String?
    var text: [UInt8] = []
    func find(_ needle: String, from start: Int) -> Int? {
      let needle = Array(needle.utf8)
      guard needle.count <= bytes.count else { return nil }
      var index = start
      while index + needle.count <= bytes.count {
        if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) {
          return index
        }
        index += 1
      }
      return nil
    }
    while position < bytes.count, fields.count < maximumFields {
      let byte = bytes[position]
      guard byte == UInt8(ascii: "<") else {
        if field != nil, depth == 2 { text.append(byte) }
        position += 1
        continue
      }
      if bytes[position...].starts(with: "<![CDATA[".utf8) {
        guard let end = find("]]>", from: position + 9) else { break }
        // CDATA is literal: its `&` must survive the reference decoding that follows.
        if field != nil, depth == 2 {
          for character in bytes[(position + 9)..<end] {
            if character == UInt8(ascii: "&") { text += Array("&amp;".utf8) } else { text.append(character) }
          }
        }
        position = end + 3
        continue
      }
      if bytes[position...].starts(with: "<!--".utf8) {
        guard let end = find("-->", from: position + 4) else { break }
        position = end + 3
        continue
      }
      // Processing instructions, the DOCTYPE and every other tag run to the next `>`.
      guard let close = find(">", from: position + 1) else { break }
      let inner = bytes[(position + 1)..<close]
      position = close + 1
      guard let first = inner.first, first != UInt8(ascii: "?"), first != UInt8(ascii: "!") else { continue }
      let isEnd = first == UInt8(ascii: "/")
      let isEmpty = inner.last == UInt8(ascii: "/")
      let name = String(
        decoding: inner.drop { $0 == UInt8(ascii: "/") }.prefix {
          !ASCII.isWhitespace($0) && $0 != UInt8(ascii: "/")
        },
        as: UTF8.self)
      if isEnd {
        if depth == 2, let key = field {
          let decoded = text.withUnsafeBufferPointer { CharacterReferences.decode($0, isAttribute: false) }
          if fields[key] == nil { fields[key] = .text(String(decoding: decoded, as: UTF8.self)) }
          field = nil
          text.removeAll(keepingCapacity: true)
        }
        depth -= 1
        if depth <= 0 { break }  // the root ended
      } else if !isEmpty {
        depth += 1
        if depth == 2 {
          field = name
          text.removeAll(keepingCapacity: true)
        }
      }
    }
    return fields
  }
}
