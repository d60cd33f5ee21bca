#if canImport(Glibc)
  import Glibc
#endif

/// The attribute names the metadata rules read; everything else is `other`. The tokenizer tells
/// them apart from the bytes once per attribute, so the rules compare small integers where they
/// compared strings (several comparisons per attribute of every `<meta>` and `<link>`).
enum HTMLAttributeName: UInt8, Equatable, Sendable {
  case other
  case content, name, property, itemprop, httpEquiv, media, value, charset
  case rel, href, sizes, type
  case lang, xmlLang, datetime, pubdate, itemscope
  case src, poster, width, height

  /// The lower-cased name; `nil` for `other`.
  var text: String? {
    switch self {
    case .other: return nil
    case .content: return "content"
    case .name: return "name"
    case .property: return "property"
    case .itemprop: return "itemprop"
    case .httpEquiv: return "http-equiv"
    case .media: return "media"
    case .value: return "value"
    case .charset: return "charset"
    case .rel: return "rel"
    case .href: return "href"
    case .sizes: return "sizes"
    case .type: return "type"
    case .lang: return "lang"
    case .xmlLang: return "xml:lang"
    case .datetime: return "datetime"
    case .pubdate: return "pubdate"
    case .itemscope: return "itemscope"
    case .src: return "src"
    case .poster: return "poster"
    case .width: return "width"
    case .height: return "height"
    }
  }

  /// The name of a lower-cased attribute name.
  init(_ name: String) {
    var name = name
    self = name.withUTF8 { Self.identify($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: $0.count) }
  }

  /// Identifies a name already lower-cased into `bytes[0..<count]`.
  static func identify(_ bytes: UnsafePointer<UInt8>, count: Int) -> HTMLAttributeName {
    @inline(__always) func equals(_ literal: StaticString) -> Bool {
      memcmp(bytes, literal.utf8Start, count) == 0
    }
    switch count {
    case 3:
      if equals("rel") { return .rel }
      if equals("src") { return .src }
    case 4:
      if equals("name") { return .name }
      if equals("href") { return .href }
      if equals("type") { return .type }
      if equals("lang") { return .lang }
    case 5:
      if equals("media") { return .media }
      if equals("value") { return .value }
      if equals("sizes") { return .sizes }
      if equals("width") { return .width }
    case 6:
      if equals("poster") { return .poster }
      if equals("height") { return .height }
    case 7:
      if equals("content") { return .content }
      if equals("charset") { return .charset }
      if equals("pubdate") { return .pubdate }
    case 8:
      if equals("property") { return .property }
      if equals("itemprop") { return .itemprop }
      if equals("datetime") { return .datetime }
      if equals("xml:lang") { return .xmlLang }
    case 9:
      if equals("itemscope") { return .itemscope }
    case 10:
      if equals("http-equiv") { return .httpEquiv }
    default:
      break
    }
    return .other
  }
}
