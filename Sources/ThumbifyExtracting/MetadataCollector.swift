/// Collects, in document order, every tokenizer event the metadata rules read: `<meta>`,
/// `<link>`, the first `<base href>`, the first `<html lang>`, the first `<title>` and
/// JSON-LD blocks — wherever they are, `<head>` or `<body>` (not inside `<template>`).
///
/// Everything is bounded: at most `maximumMetas` metas, `maximumLinks` links and
/// `maximumJSONLDBytes` of JSON-LD are kept, so hostile pages cannot grow memory.
struct MetadataCollector: HTMLTokenSink {
  static let maximumMetas = 4096
  static let maximumLinks = 1024
  static let maximumJSONLDBytes = 4 * 1024 * 1024
  static let maximumTitleBytes = 64 * 1024

  /// One `<meta>` whose key a rule reads: its key (`property`, `name` or `itemprop:` + itemprop,
  /// lower-cased) and content.
  struct Meta: Equatable {
    var key: String
    var content: String
    /// The `media` attribute (theme-color variants).
    var media: String?
  }

  /// One `<link>` with the attributes the rules read.
  struct Link: Equatable {
    /// The `rel` tokens, lower-cased.
    var rel: [String]
    var href: String
    var sizes: String?
    var type: String?
  }

  var metas: [Meta] = []
  var links: [Link] = []
  var baseHref: String?
  var htmlLang: String?
  var httpEquivLanguage: String?
  /// The first `<title>`'s raw content (references not yet decoded).
  var titleBytes: [UInt8]?
  /// The raw text of each `<script type="application/ld+json">`.
  var jsonLDBlocks: [[UInt8]] = []

  /// Microdata dates on elements other than `<meta>` (`<time itemprop=datePublished datetime=…>`,
  /// `<span itemprop=dateModified content=…>`, or the element's text), in document order.
  var microdataDates: [Microdata] = []
  /// The first `<time pubdate>`'s `datetime`, else its text.
  var pubdateTime: String?
  /// The first `<time datetime>` inside an `<article>` or `<header>`.
  var articleTime: String?
  /// The first `<time datetime>` values in document order: where a structured date in UTC looks
  /// for the page's own offset (`DateSearch.localDate`).
  var timeDatetimes: [String] = []

  /// One microdata property read for the dates: its `itemprop` token, lower-cased, and its value.
  struct Microdata: Equatable {
    var property: String
    var value: String
  }

  /// The microdata properties kept (lower-cased) and the bounds on what is kept of them.
  static let datePropertyNames: Set<String> = ["datepublished", "datecreated", "uploaddate", "datemodified"]
  static let maximumMicrodataDates = 64
  /// The `<time datetime>` values kept (`timeDatetimes`).
  static let maximumTimeDatetimes = 32
  static let maximumDateTextBytes = 256

  /// The `<video>` and `<audio>` elements, with their `<source>`s, in document order
  /// (`MetadataCollector+Media.swift`).
  var mediaElements: [MediaElement] = []
  /// The index in `mediaElements` of the `<video>` or `<audio>` whose `<source>`s come now.
  var openMediaElement: Int?

  /// Names from microdata and `<a rel=author>` (`MetadataCollector+Names.swift`), in document order.
  var itemNames: [ItemName] = []
  /// The `href` of each `<a rel=author>`.
  var authorLinks: [String] = []
  /// The `itemprop=author`/`publisher` item whose `itemprop=name` is awaited.
  var itemScope: ItemScope?

  /// Where the text being collected goes (a date property, a `<time pubdate>` without `datetime`,
  /// or names).
  enum TextTarget {
    case microdata(String)
    case pubdate
    /// Ends at the first end tag, not at a start tag: `<a rel=author><span>Jane</span></a>`.
    case names([ItemName.Property])

    var endsAtStartTag: Bool {
      if case .names = self { return false }
      return true
    }
  }
  private var textTarget: TextTarget?
  private var collectedText: [UInt8] = []
  private var articleDepth = 0

  var wantsText: Bool { textTarget != nil }

  /// A tag named `.other` without attributes only ends collected text or counts toward an open
  /// microdata item (`startTag`, `endTag`); otherwise it changes nothing.
  var wantsOtherTags: Bool { textTarget != nil || itemScope != nil }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
    let room = Self.maximumDateTextBytes - collectedText.count
    if room > 0 { collectedText.append(contentsOf: bytes.prefix(room)) }
  }

  /// Ends the text being collected (at the next tag) and files it.
  private mutating func finishText() {
    guard let target = textTarget else { return }
    textTarget = nil
    let text = TextNormalizer.cleanDecoding(collectedText, limit: Self.maximumDateTextBytes)
    collectedText.removeAll(keepingCapacity: true)
    guard let text else { return }
    switch target {
    case .microdata(let property): microdataDates.append(Microdata(property: property, value: text))
    case .pubdate: if pubdateTime == nil { pubdateTime = text }
    case .names(let properties):
      for property in properties { itemNames.append(ItemName(property: property, value: text)) }
    }
  }

  /// Collects the text that follows for `target`, filing what was collected before.
  mutating func startText(_ target: TextTarget) {
    if textTarget != nil { finishText() }
    textTarget = target
  }

  private var jsonLDBytes = 0
  private var isInJSONLDScript = false
  private var templateDepth = 0
  private var hasSeenHTML = false

  mutating func startTag(_ name: HTMLTagName, attributes: [HTMLAttribute], isSelfClosing: Bool) {
    if textTarget?.endsAtStartTag == true { finishText() }
    switch name {
    case .template:
      templateDepth += 1
      return
    case .script:
      let type = attributes.first { $0.known == .type }.map { ASCII.lowercased(ASCII.trimmed($0.value)) }
      isInJSONLDScript =
        templateDepth == 0
        && (type == "application/ld+json" || type?.hasPrefix("application/ld+json;") == true)
      return
    default:
      break
    }
    guard templateDepth == 0 else { return }
    if itemScope != nil || (!attributes.isEmpty && name != .meta && name != .link) {
      names(name, attributes: attributes, isSelfClosing: isSelfClosing)
    }
    if name != .meta, !attributes.isEmpty, let itemprop = attributes.first(where: { $0.known == .itemprop }) {
      microdata(itemprop.value, attributes: attributes, isSelfClosing: isSelfClosing)
    }
    switch name {
    case .meta: meta(attributes)
    case .time: time(attributes, isSelfClosing: isSelfClosing)
    case .video, .audio, .source: media(name, attributes: attributes, isSelfClosing: isSelfClosing)
    case .article, .header: if !isSelfClosing { articleDepth += 1 }
    case .link: link(attributes)
    case .base:
      if baseHref == nil, let href = attributes.first(where: { $0.known == .href }) { baseHref = href.value }
    case .html:
      if !hasSeenHTML, let lang = attributes.first(where: { $0.known == .lang || $0.known == .xmlLang }) {
        htmlLang = lang.value
      }
      hasSeenHTML = true
    default:
      break
    }
  }

  mutating func endTag(_ name: HTMLTagName) {
    // A date's text ends at the first end tag (`<span itemprop=datePublished>May 4, 2020</span>`).
    if textTarget != nil { finishText() }
    if itemScope != nil { endTagInItem() }
    if name == .template { templateDepth = max(0, templateDepth - 1) }
    if name == .article || name == .header { articleDepth = max(0, articleDepth - 1) }
    if name == .video || name == .audio { openMediaElement = nil }
  }

  /// A date property on any element but `<meta>`: `content`, else `datetime`, else the text.
  private mutating func microdata(_ itemprop: String, attributes: [HTMLAttribute], isSelfClosing: Bool) {
    guard microdataDates.count < Self.maximumMicrodataDates,
      let property = Self.relTokens(itemprop).first(where: Self.datePropertyNames.contains)
    else { return }
    if let value = attributes.first(where: { $0.known == .content || $0.known == .datetime })?.value,
      !ASCII.isBlank(value)
    {
      microdataDates.append(Microdata(property: property, value: value))
    } else if !isSelfClosing {
      startText(.microdata(property))
    }
  }

  /// `<time pubdate>` (its `datetime`, else its text) and the first `<time datetime>` in an article.
  private mutating func time(_ attributes: [HTMLAttribute], isSelfClosing: Bool) {
    let datetime = attributes.first { $0.known == .datetime }?.value
    if pubdateTime == nil, attributes.contains(where: { $0.known == .pubdate }) {
      if let datetime, !ASCII.isBlank(datetime) {
        pubdateTime = datetime
      } else if !isSelfClosing, textTarget?.endsAtStartTag != true {
        startText(.pubdate)
      }
    }
    if articleTime == nil, articleDepth > 0, let datetime, !ASCII.isBlank(datetime) { articleTime = datetime }
    if let datetime, timeDatetimes.count < Self.maximumTimeDatetimes, datetime.utf8.count <= 64 {
      timeDatetimes.append(datetime)
    }
  }

  mutating func rawText(of name: HTMLTagName, _ bytes: UnsafeBufferPointer<UInt8>) {
    guard templateDepth == 0 else { return }
    if name == .title {
      if titleBytes == nil { titleBytes = Array(bytes.prefix(Self.maximumTitleBytes)) }
    } else if name == .script, isInJSONLDScript {
      isInJSONLDScript = false
      guard jsonLDBytes + bytes.count <= Self.maximumJSONLDBytes else { return }
      jsonLDBytes += bytes.count
      jsonLDBlocks.append(Array(bytes))
    }
  }

  /// Metas counted toward `maximumMetas`: those kept and those whose key no rule reads.
  private var metaCount = 0

  private mutating func meta(_ attributes: [HTMLAttribute]) {
    guard metaCount < Self.maximumMetas else { return }
    var content: String?
    var value: String?
    var media: String?
    // At most one key per naming attribute: property, name, itemprop, http-equiv.
    var property: String?
    var name: String?
    var itemprop: String?
    var httpEquiv: String?
    for attribute in attributes {
      switch attribute.known {
      case .content: content = attribute.value
      case .value: value = attribute.value
      case .media: media = attribute.value
      case .property: property = Self.key(attribute.value)
      case .name: name = Self.key(attribute.value)
      case .itemprop: itemprop = "itemprop:" + Self.key(attribute.value)
      case .httpEquiv: httpEquiv = "http-equiv:" + Self.key(attribute.value)
      default: break
      }
    }
    // A few sites write `value=` where `content=` belongs; `content` wins when both are there.
    guard let content = content ?? value else { return }
    if let property, !property.isEmpty { keep(key: property, content: content, media: media) }
    if let name, !name.isEmpty, name != property { keep(key: name, content: content, media: media) }
    if let itemprop { keep(key: itemprop, content: content, media: media) }
    if let httpEquiv {
      keep(key: httpEquiv, content: content, media: media)
      if httpEquivLanguage == nil, httpEquiv == "http-equiv:content-language" { httpEquivLanguage = content }
    }
  }

  /// Keeps a meta whose key a rule reads (`MetadataRules.readKeys`); every other one — most of a
  /// page's metas: viewport, verification codes, app ids — is only counted toward `maximumMetas`,
  /// as if kept, so the bound stops at the same meta. The rules cannot tell the difference, and do
  /// not file, look up or scan such metas on every page.
  private mutating func keep(key: String, content: String, media: String?) {
    metaCount += 1
    if MetadataRules.readKeys.contains(key) { metas.append(Meta(key: key, content: content, media: media)) }
  }

  /// A meta key as the rules look it up: trimmed and ASCII lower-cased.
  private static func key(_ text: String) -> String { ASCII.lowercased(ASCII.trimmed(text)) }

  private mutating func link(_ attributes: [HTMLAttribute]) {
    guard links.count < Self.maximumLinks,
      let href = attributes.first(where: { $0.known == .href })?.value,
      let rel = attributes.first(where: { $0.known == .rel })?.value
    else { return }
    links.append(
      Link(
        rel: Self.relTokens(rel), href: href,
        sizes: attributes.first(where: { $0.known == .sizes })?.value,
        type: attributes.first(where: { $0.known == .type })?.value))
  }

  /// The lower-cased tokens of a `rel` value, split at the whitespace Characters space, tab, LF,
  /// CR and FF. An ASCII value without CR LF (one Character, not a separator) is split byte by
  /// byte, which gives the same tokens without grapheme breaking; any other value is split by
  /// Character.
  static func relTokens(_ rel: String) -> [String] {
    let bytewise = rel.utf8.withContiguousStorageIfAvailable { bytes -> [String]? in
      var tokens: [String] = []
      var start = 0
      for index in 0...bytes.count {
        let byte = index < bytes.count ? bytes[index] : UInt8(ascii: " ")
        if byte >= 0x80 || (byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A) {
          return nil
        }
        guard ASCII.isWhitespace(byte) else { continue }
        if index > start {
          let token = UnsafeBufferPointer(rebasing: bytes[start..<index])
          tokens.append(String(decoding: token.lazy.map(ASCII.lower), as: UTF8.self))
        }
        start = index + 1
      }
      return tokens
    }
    if let bytewise, let bytewise { return bytewise }
    return ASCII.lowercased(rel).split(whereSeparator: {
      $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}"
    })
    .map(String.init)
  }
}
