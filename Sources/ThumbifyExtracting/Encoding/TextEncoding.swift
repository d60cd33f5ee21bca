/// A character encoding of the WHATWG Encoding Standard, found from a label.
///
/// Labels map to encodings as the standard's table says: `iso-8859-1`, `latin1` and
/// `ascii` mean windows-1252, `gb2312` means GBK, `sjis` means Shift_JIS, and so on.
/// Legacy encodings decode through glibc's iconv under `iconvName`.
package struct TextEncoding: Sendable, Equatable, CustomStringConvertible {
  /// The encoding's WHATWG name (`UTF-8`, `Shift_JIS`, `windows-1252`).
  package let name: String
  /// The name glibc's iconv knows the encoding by; `nil` for UTF-8 and windows-1252,
  /// which thumbify decodes itself.
  let iconvName: String?

  package var description: String { name }

  package static let utf8 = TextEncoding(name: "UTF-8", iconvName: nil)
  package static let windows1252 = TextEncoding(name: "windows-1252", iconvName: nil)
  static let utf16LE = TextEncoding(name: "UTF-16LE", iconvName: "UTF-16LE")
  static let utf16BE = TextEncoding(name: "UTF-16BE", iconvName: "UTF-16BE")

  /// Whether every byte is one character (so valid multi-byte UTF-8 in it is almost surely mislabelled).
  var isSingleByte: Bool {
    switch name {
    case "UTF-8", "UTF-16LE", "UTF-16BE", "GBK", "gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS",
      "EUC-KR":
      return false
    default:
      return true
    }
  }

  /// The encoding a label names, or `nil` for an unknown label.
  ///
  /// Leading and trailing ASCII whitespace is ignored and letters match in any case.
  package init?(label: String) {
    let key = ASCII.lowercased(ASCII.trimmed(label))
    guard let name = TextEncodingLabels.encodingName[key], let iconv = TextEncodingLabels.iconvNames[name]
    else { return nil }
    self.init(name: name, iconvName: iconv.isEmpty ? nil : iconv)
  }

  private init(name: String, iconvName: String?) {
    self.name = name
    self.iconvName = iconvName
  }
}
