/// The budget an SVG must fit before librsvg parses it: bytes, elements and nesting.
///
/// Rendering cost grows with the elements and their nesting (groups, `<use>` chains, filters);
/// librsvg has its own limits on top (1,000,000 loaded elements, 500,000 referenced through
/// `<use>`, libxml2's nesting limit of 256 without `XML_PARSE_HUGE`), but no time limit, so
/// the pre-scan keeps an icon's work to what an icon needs. The scan is a tag counter, not a
/// parser: it only has to be an upper bound on what the parser will see.
struct SVGLimits: Sendable {
  /// Encoded bytes allowed (an icon is a few KB; 1 MiB leaves room for embedded `data:` images).
  var maxBytes = 1 << 20
  /// Start tags allowed.
  var maxElements = 10_000
  /// Nesting depth allowed.
  var maxDepth = 64

  /// Throws unless `data` is within the budget.
  ///
  /// - Throws: ``ImageError/tooLarge(bytes:limit:)``, or ``ImageError/corrupt(format:message:)``
  ///   naming the limit exceeded.
  func check(_ data: [UInt8]) throws(ImageError) {
    guard data.count <= maxBytes else { throw .tooLarge(bytes: data.count, limit: maxBytes) }
    var elements = 0
    var depth = 0
    var index = 0
    let count = data.count
    while index < count {
      guard data[index] == UInt8(ascii: "<"), index + 1 < count else {
        index += 1
        continue
      }
      let next = data[index + 1]
      if next == UInt8(ascii: "/") {
        depth = max(0, depth - 1)
      } else if Self.isNameStart(next) {
        elements += 1
        depth += 1
        guard elements <= maxElements else {
          throw .corrupt(format: .svg, message: "It has more than \(maxElements) elements.")
        }
        guard depth <= maxDepth else {
          throw .corrupt(format: .svg, message: "Its elements nest deeper than \(maxDepth) levels.")
        }
        // A self-closing tag (`<rect … />`) opens no level.
        var end = index + 1
        while end < count, data[end] != UInt8(ascii: ">") { end += 1 }
        if end < count, data[end - 1] == UInt8(ascii: "/") { depth -= 1 }
        index = end
        continue
      }
      index += 1
    }
  }

  private static func isNameStart(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_")
      || byte >= 0x80
  }
}
