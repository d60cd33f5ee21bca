#if canImport(Glibc)
  import Glibc
#endif

/// The tag names the tokenizer and the metadata rules tell apart; everything else is `other`.
enum HTMLTagName: Equatable, Sendable {
  case html, head, body, meta, link, base, title, script, style, textarea, xmp, iframe, noembed, noframes
  case plaintext, svg, math, template
  /// Where a page's publication date lives (`<time pubdate>`, the first `<time>` of an article).
  case time, article, header
  /// Where a page plays media in its body (`<video src poster>`, `<audio src>`, their `<source>`s).
  case video, audio, source
  /// Where the whole-page date search (`DateSearch`) weighs a date: `<abbr class=published>`, the
  /// title's `<h1>`, the `<main>` text, and the blocks whose dates are another page's.
  case abbr, h1, main, footer, nav, aside
  case other

  /// Whether the tokenizer collects this tag's attributes for the rules.
  var hasUsefulAttributes: Bool {
    switch self {
    case .html, .meta, .link, .base, .script, .time, .video, .audio, .source: return true
    // An oEmbed `html`'s `<iframe src>` (`OEmbedResponse.iframeURL`); pages have few iframes.
    case .iframe: return true
    default: return false
    }
  }

  /// Whether the element's content is raw text (or RCDATA) up to its end tag in HTML content.
  var hasRawTextContent: Bool {
    switch self {
    case .title, .script, .style, .textarea, .xmp, .iframe, .noembed, .noframes: return true
    default: return false
    }
  }

  /// Identifies a tag name already lower-cased into `bytes[0..<count]`.
  static func identify(_ bytes: UnsafePointer<UInt8>, count: Int) -> HTMLTagName {
    @inline(__always) func equals(_ literal: StaticString) -> Bool {
      guard literal.utf8CodeUnitCount == count else { return false }
      return memcmp(bytes, literal.utf8Start, count) == 0
    }
    switch count {
    case 2:
      if equals("h1") { return .h1 }
    case 3:
      if equals("svg") { return .svg }
      if equals("nav") { return .nav }
      if equals("xmp") { return .xmp }
    case 4:
      if equals("meta") { return .meta }
      if equals("link") { return .link }
      if equals("base") { return .base }
      if equals("html") { return .html }
      if equals("head") { return .head }
      if equals("body") { return .body }
      if equals("math") { return .math }
      if equals("time") { return .time }
      if equals("abbr") { return .abbr }
      if equals("main") { return .main }
    case 5:
      if equals("title") { return .title }
      if equals("style") { return .style }
      if equals("video") { return .video }
      if equals("audio") { return .audio }
      if equals("aside") { return .aside }
    case 6:
      if equals("script") { return .script }
      if equals("source") { return .source }
      if equals("iframe") { return .iframe }
      if equals("header") { return .header }
      if equals("footer") { return .footer }
    case 7:
      if equals("noembed") { return .noembed }
      if equals("article") { return .article }
    case 8:
      if equals("textarea") { return .textarea }
      if equals("noframes") { return .noframes }
      if equals("template") { return .template }
    case 9:
      if equals("plaintext") { return .plaintext }
    default:
      break
    }
    return .other
  }
}
