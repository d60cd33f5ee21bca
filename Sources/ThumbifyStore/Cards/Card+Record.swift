import Foundation
import ThumbifyExtracting

extension Card {
  /// The card a crawl record draws.
  ///
  /// `failed` records give a card holding only the URL, domain and error, so a frontend can say
  /// why there is no preview; `stale` records keep their last good data and carry the new error.
  package init(record: CrawlRecord) {
    self.init(record: record, key: CardKey(normalizedURL: record.normalizedURL))
  }

  /// The card of `record`, whose key (`CardKey(normalizedURL: record.normalizedURL)`) the caller has
  /// already computed to name the card's file.
  init(record: CrawlRecord, key: CardKey) {
    let metadata = record.outcome == .failed ? nil : record.metadata
    // `record.url`'s order, skipping the URLs a card cannot link to.
    let page = record.fetch?.finalURL ?? record.normalizedURL
    let link = [
      metadata?.canonicalURL(onHostOf: page), record.fetch?.finalURL, record.normalizedURL,
      record.originalURL,
    ]
    .lazy.compactMap { $0 }.first { Self.isLinkable($0) }
    let state: State =
      switch record.outcome {
      case .ok, .notModified: .ok
      case .stale: .stale
      case .failed: .failed
      }
    self.init(
      schema: Self.schemaVersion,
      key: key.hex,
      url: link,
      canonicalURL: metadata?.canonicalURL.flatMap { Self.isLinkable($0) ? $0 : nil },
      normalizedURL: record.normalizedURL,
      originalURL: record.originalURL,
      domain: Self.domain(of: link ?? record.normalizedURL),
      state: state,
      stale: state == .stale,
      title: Self.text(metadata?.title),
      description: Self.text(metadata?.description),
      siteName: Self.text(metadata?.siteName),
      lang: Self.text(metadata?.lang),
      publishedTime: metadata?.publishedTime,
      publishedTimeSource: metadata?.publishedTime == nil ? nil : metadata?.publishedTimeSource,
      modifiedTime: metadata?.modifiedTime,
      image: state == .failed ? nil : record.image.map { Picture($0, alt: metadata?.image?.alt) },
      icon: state == .failed ? nil : record.icon.map { Picture($0, alt: nil) },
      video: metadata?.video.flatMap(Video.init),
      audio: metadata?.audio.flatMap(Audio.init),
      embed: metadata?.embed.flatMap { Card.isLinkable($0.iframeURL) ? $0 : nil },
      needsRendering: state == .failed ? nil : record.needsRendering,
      error: record.error.map(Failure.init),
      imageError: state == .failed || record.image != nil ? nil : record.imageError.map(Failure.init),
      incomplete: state == .failed ? nil : record.incomplete
    )
  }

  /// Whether `string` is an absolute http or https URL with a host: the only links a card makes.
  package static func isLinkable(_ string: String) -> Bool {
    if normalHost(string) != nil { return true }
    guard let components = URLComponents(string: string), let scheme = components.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
    else { return false }
    return true
  }

  /// The host of `url` for display: lower-case, without a leading `www.`.
  static func domain(of url: String) -> String? {
    guard var host = normalHost(url) ?? URLComponents(string: url)?.host?.lowercased(), !host.isEmpty
    else { return nil }
    if host.hasPrefix("www.") { host.removeFirst(4) }
    return host
  }

  /// The host of an http(s) URL already in normal form (`URLNormalization.isAlreadyNormal`) and made
  /// only of characters RFC 3986 allows unescaped, read from its bytes; nil for any other URL, which
  /// `URLComponents` parses (that parse was 1.1 % of a crawl's CPU, and nearly every URL a card
  /// names is normal).
  static func normalHost(_ url: String) -> String? {
    guard URLNormalization.isAlreadyNormal(url), url.utf8.allSatisfy(\.isUnescapedURIByte) else { return nil }
    // A normal URL is `scheme://authority/path`, all ASCII: its host runs from after `://` to the
    // first `:` or `/`.
    let bytes = url.utf8
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
      bytes[colon...].starts(with: "://".utf8)
    else { return nil }
    let hostStart = bytes.index(colon, offsetBy: 3)
    let host = bytes[hostStart...].prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: ":") }
    return String(Substring(host))
  }

  /// Whether `value` is `#rrggbb`.
  static func isHexColor(_ value: String) -> Bool {
    value.utf8.count == 7 && value.utf8.first == UInt8(ascii: "#")
      && value.utf8.dropFirst().allSatisfy(\.isHexDigit)
  }

  /// Whether `value` looks like a base64 ThumbHash (at most 64 characters of the base64 alphabet).
  static func isThumbHash(_ value: String) -> Bool {
    (5...64).contains(value.utf8.count) && value.utf8.allSatisfy(\.isBase64Digit)
  }

  /// Trims surrounding white space, drops empty strings and cuts text at `maximumTextLength`.
  package static func text(_ value: String?) -> String? {
    guard let value, let first = value.unicodeScalars.first, let last = value.unicodeScalars.last else {
      return nil
    }
    // Most text needs no trimming and is short: skip the grapheme walks then.
    let isPadded = first.properties.isWhitespace || last.properties.isWhitespace
    let trimmed = isPadded ? value.trimmingCharacters(in: .whitespacesAndNewlines) : value
    if trimmed.isEmpty { return nil }
    guard trimmed.utf8.count > maximumTextLength, trimmed.count > maximumTextLength else { return trimmed }
    return String(trimmed.prefix(maximumTextLength - 1)) + "…"
  }

}

extension Card.Picture {
  init(_ set: ThumbnailSet, alt: String?) {
    self.init(
      url: set.source, width: set.width, height: set.height,
      placeholder: Card.isThumbHash(set.placeholder) ? set.placeholder : nil,
      color: Card.isHexColor(set.color) ? set.color : nil,
      alt: Card.text(alt),
      variants: set.variants.sorted { ($0.width, $0.name) < ($1.width, $1.name) }.map {
        Card.Variant(
          name: $0.name, path: $0.path, width: $0.width, height: $0.height, format: $0.format.rawValue)
      }
    )
  }
}

extension Card.Failure {
  init(_ error: RecordError) {
    self.init(code: error.code, message: error.message, stage: error.stage)
  }
}

extension Card.Video {
  /// The video, when its URL is http or https.
  init?(_ candidate: VideoCandidate) {
    guard Card.isLinkable(candidate.url) else { return nil }
    self.init(
      url: candidate.url, type: candidate.type, width: candidate.width, height: candidate.height,
      kind: candidate.kind, duration: candidate.duration)
  }
}

extension Card.Audio {
  /// The audio, when its URL is http or https.
  init?(_ candidate: AudioCandidate) {
    guard Card.isLinkable(candidate.url) else { return nil }
    self.init(url: candidate.url, type: candidate.type, kind: candidate.kind, duration: candidate.duration)
  }
}

extension UInt8 {
  /// RFC 3986's unreserved and reserved characters, except the brackets of IP literals.
  fileprivate var isUnescapedURIByte: Bool {
    switch self {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
      UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
      UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
      UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
      true
    default: false
    }
  }

  fileprivate var isHexDigit: Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
      || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
      || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
  }

  fileprivate var isBase64Digit: Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
      || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || self == UInt8(ascii: "+")
      || self == UInt8(ascii: "/")
      || self == UInt8(ascii: "=")
  }
}
