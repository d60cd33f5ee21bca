/// Cleans text for a card: whitespace collapsed and trimmed, capped at a grapheme boundary.
enum TextNormalizer {
  /// The most characters (grapheme clusters) of a title.
  static let titleLimit = 300
  /// The most characters of a description.
  static let descriptionLimit = 1000
  /// The most characters of every other text field (site name, author, alt text).
  static let shortTextLimit = 300

  /// Collapses every run of whitespace (Unicode, including no-break space) to one space,
  /// trims, and keeps at most `limit` characters; `nil` when nothing is left.
  static func clean(_ text: String, limit: Int) -> String? {
    var output = ""
    output.reserveCapacity(min(text.utf8.count, limit * 4))
    var pendingSpace = false
    var count = 0
    for scalar in text.unicodeScalars {
      if scalar.properties.isWhitespace || scalar.value == 0 {
        pendingSpace = !output.isEmpty
        continue
      }
      if pendingSpace {
        output.unicodeScalars.append(" ")
        pendingSpace = false
      }
      output.unicodeScalars.append(scalar)
      count += 1
      // Stop scanning long inputs early; graphemes are at most a few scalars in practice.
      if count > limit * 8 + 64 { break }
    }
    guard !output.isEmpty else { return nil }
    if output.count > limit { output = String(output.prefix(limit)) }
    while output.last?.isWhitespace == true { output.removeLast() }
    return output.isEmpty ? nil : output
  }

  /// Decodes character references in raw RCDATA/JSON text, then cleans it.
  static func cleanDecoding(_ bytes: [UInt8], limit: Int) -> String? {
    let decoded = bytes.withUnsafeBufferPointer { CharacterReferences.decode($0, isAttribute: false) }
    return clean(String(decoding: decoded, as: UTF8.self), limit: limit)
  }

  /// Decodes character references in a string (JSON-LD values often carry `&amp;`), then cleans it.
  static func cleanDecoding(_ text: String, limit: Int) -> String? {
    guard text.utf8.contains(UInt8(ascii: "&")) else { return clean(text, limit: limit) }
    return cleanDecoding(Array(text.utf8), limit: limit)
  }
}
