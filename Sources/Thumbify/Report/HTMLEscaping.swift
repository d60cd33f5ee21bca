/// Escapes text for each place it can appear in an HTML page.
///
/// The report puts metadata in exactly two contexts: HTML text (the page title, counts) and JSON
/// inside a `<script type="application/json">` block, which the page's own script reads and turns
/// into DOM nodes with `textContent` and checked attributes — metadata is never parsed as markup.
package enum HTMLEscaping {
  /// Text content: `&`, `<`, `>` become character references (quotes too, so the result is also
  /// safe inside a quoted attribute value).
  package static func text(_ value: String) -> String {
    var result = ""
    result.reserveCapacity(value.utf8.count)
    for scalar in value.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// A double-quoted attribute value (without the quotes).
  package static func attribute(_ value: String) -> String {
    text(value)
  }

  /// JSON text made safe to embed in a `<script>` element.
  ///
  /// `<`, `>` and `&` become `\u003c`, `\u003e`, `\u0026` (no `</script>`, `<!--` or
  /// `<script` can end or confuse the element), and U+2028/U+2029 become `\u2028`/`\u2029` (line
  /// terminators to older JavaScript parsers). All of them can only occur inside JSON strings,
  /// where the escapes decode to the same characters.
  package static func scriptJSON(_ json: [UInt8]) -> [UInt8] {
    var result = [UInt8]()
    result.reserveCapacity(json.count + json.count / 16)
    var index = 0
    while index < json.count {
      let byte = json[index]
      switch byte {
      case UInt8(ascii: "<"): result += Array(#"\u003c"#.utf8)
      case UInt8(ascii: ">"): result += Array(#"\u003e"#.utf8)
      case UInt8(ascii: "&"): result += Array(#"\u0026"#.utf8)
      case 0xE2
      where index + 2 < json.count && json[index + 1] == 0x80
        && (json[index + 2] == 0xA8 || json[index + 2] == 0xA9):
        result += Array((json[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
        index += 2
      default: result.append(byte)
      }
      index += 1
    }
    return result
  }
}
