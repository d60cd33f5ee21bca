/// `publishedTime` and `modifiedTime`: every source a page states a date in, in the precedence of
/// docs/metadata.md (Dates), read by `DateParser` into RFC 3339.
///
/// The first candidate that reads wins. The first candidate's own text is kept as
/// `…TimeText` whenever it did not convert in full — it was ambiguous, impossible, in the future,
/// unreadable, or a time of day without a zone of which only the date is kept — so nothing the
/// page said is lost.
struct DateRules {
  let rules: MetadataRules
  /// The extraction's clock, Unix seconds (the future check).
  let now: Int64

  /// A date as one source states it.
  enum Candidate {
    case text(String)
    case timestamp(Double, text: String)
  }

  static let publishedMetas = [
    "article:published_time", "og:published_time", "og:article:published_time",
  ]
  static let otherPublishedMetas = [
    "itemprop:datepublished", "datepublished", "pubdate", "publishdate", "publish-date", "publish_date",
    "publication_date", "date", "dc.date.issued", "dcterms.issued", "dc.date", "dcterms.date",
    "dc.date.created", "dcterms.created", "article.published", "sailthru.date", "parsely-pub-date",
    "citation_publication_date", "citation_date", "original-publish-date",
  ]
  static let modifiedMetas = ["article:modified_time", "og:updated_time", "og:article:modified_time"]
  static let otherModifiedMetas = [
    "itemprop:datemodified", "datemodified", "last-modified", "http-equiv:last-modified", "dc.date.modified",
    "dcterms.modified", "article.updated",
  ]

  func published() -> (time: String?, text: String?) {
    var candidates = Self.publishedMetas.compactMap { rules.meta($0) }.map(Candidate.text)
    candidates += jsonLD(["datePublished", "dateCreated", "uploadDate"])
    candidates += Self.otherPublishedMetas.compactMap { rules.meta($0) }.map(Candidate.text)
    let collector = rules.collector
    for property in ["datepublished", "datecreated", "uploaddate"] {
      candidates += collector.microdataDates.filter { $0.property == property }.map { .text($0.value) }
    }
    candidates += [collector.pubdateTime, collector.articleTime].compactMap { $0 }.map(Candidate.text)
    let first = choose(candidates)
    if first.time != nil || first.text != nil { return first }
    // Last, and never as text: a date in the URL's path.
    return (rules.page.flatMap { Self.pathDate($0.path, now: now) }, nil)
  }

  func modified() -> (time: String?, text: String?) {
    var candidates = Self.modifiedMetas.compactMap { rules.meta($0) }.map(Candidate.text)
    candidates += jsonLD(["dateModified"])
    candidates += Self.otherModifiedMetas.compactMap { rules.meta($0) }.map(Candidate.text)
    candidates += rules.collector.microdataDates.filter { $0.property == "datemodified" }.map {
      .text($0.value)
    }
    return choose(candidates)
  }

  /// The JSON-LD values of `keys`: the primary node's first, then every node's in document order
  /// (`@graph` members and `mainEntity` objects are nodes), a key's strings, numbers (Unix time)
  /// or the first element of an array.
  private func jsonLD(_ keys: [String]) -> [Candidate] {
    let graph = rules.jsonLD
    var found: [Candidate] = []
    for node in [graph.primary].compactMap({ $0 }) + graph.nodes {
      for key in keys {
        guard let value = node[key]?.elements.first else { continue }
        switch value {
        case .string(let text): found.append(.text(text))
        case .number(let number): found.append(.timestamp(number, text: value.stringValue ?? ""))
        default: continue
        }
      }
    }
    return found
  }

  private func choose(_ candidates: [Candidate]) -> (time: String?, text: String?) {
    // The text of the first candidate that has any, once it failed to read.
    var firstText: String?
    var isFirst = true
    for candidate in candidates {
      let read: (rfc3339: String, isComplete: Bool)?
      let text: String?
      switch candidate {
      case .text(let raw):
        text = TextNormalizer.cleanDecoding(raw, limit: TextNormalizer.shortTextLimit)
        read = text.flatMap { DateParser.read($0, now: now) }
      case .timestamp(let value, let raw):
        text = raw
        read = DateParser.rfc3339(timestamp: value, now: now).map { ($0, true) }
      }
      guard let text else { continue }
      if let read { return (read.rfc3339, isFirst ? (read.isComplete ? nil : text) : firstText) }
      if isFirst { firstText = text }
      isFirst = false
    }
    return (nil, firstText)
  }

  /// A date in a URL path: `/2016/05/24/` or `/2016-05-24-slug` (also at the path's end, or before
  /// `_` or `.`); the date only, checked like any other.
  static func pathDate(_ path: String, now: Int64) -> String? {
    let bytes = Array(path.utf8)
    var index = 0
    while index + 11 <= bytes.count {
      defer { index += 1 }
      guard bytes[index] == UInt8(ascii: "/") else { continue }
      let separator = bytes[index + 5]
      guard separator == UInt8(ascii: "/") || separator == UInt8(ascii: "-"), bytes[index + 8] == separator,
        let year = number(bytes, index + 1, 4), let month = number(bytes, index + 6, 2),
        let day = number(bytes, index + 9, 2)
      else { continue }
      let after = index + 11
      guard
        after == bytes.count
          || [UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: ".")]
            .contains(bytes[after])
      else { continue }
      let date = DateParser.Parsed(year: year, month: month, day: day, time: nil, offset: nil)
      if DateParser.isPlausible(date, now: now) { return DateParser.format(date) }
    }
    return nil
  }

  private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
    var value = 0
    for byte in bytes[start..<start + count] {
      guard ASCII.isDigit(byte) else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }
}
