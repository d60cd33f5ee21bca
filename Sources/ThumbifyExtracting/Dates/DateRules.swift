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
    "publication_date", "dc.date.issued", "dcterms.issued", "dc.date.created", "dcterms.created",
    "article.published", "sailthru.date", "parsely-pub-date",
    "citation_publication_date", "citation_date", "original-publish-date",
  ]
  /// Metas that name a date but not which one (`date`, `dc.date`, `dcterms.date`: often the day a
  /// page was generated or changed): the last structured source, and one a dated element in the
  /// page's byline outranks (`DateSearch`).
  static let genericPublishedMetas = ["date", "dc.date", "dcterms.date"]
  static let modifiedMetas = ["article:modified_time", "og:updated_time", "og:article:modified_time"]
  static let otherModifiedMetas = [
    "itemprop:datemodified", "datemodified", "last-modified", "http-equiv:last-modified", "dc.date.modified",
    "dcterms.modified", "article.updated",
  ]

  /// The publication date of the structured sources, the text kept beside it, and the source it
  /// came from (`meta`, `json-ld`, `microdata`, `time-element`). When they give none, the
  /// extractor searches the whole page (`DateSearch`).
  func published() -> (time: String?, text: String?, source: String?, isGeneric: Bool) {
    var choice = Choice(now: now)
    let collector = rules.collector
    let source: String
    var isGeneric = false
    if choice.offer(metas: Self.publishedMetas, of: rules) {
      source = "meta"
    } else if choice.offer(jsonLD: ["datePublished"], of: rules.jsonLD) {
      source = "json-ld"
    } else if choice.offer(metas: Self.otherPublishedMetas, of: rules) {
      source = "meta"
    } else if choice.offer(metas: Self.genericPublishedMetas, of: rules) {
      source = "meta"
      isGeneric = true
    } else if choice.offer(microdata: ["datepublished"], of: collector) {
      source = "microdata"
    } else if choice.offer(jsonLD: ["dateCreated", "uploadDate"], of: rules.jsonLD) {
      source = "json-ld"
    } else if choice.offer(microdata: ["datecreated", "uploaddate"], of: collector) {
      source = "microdata"
    } else {
      return (nil, choice.outcome.text, nil, false)
    }
    return (choice.outcome.time, choice.outcome.text, source, isGeneric)
  }

  func modified() -> (time: String?, text: String?) {
    var choice = Choice(now: now)
    _ =
      choice.offer(metas: Self.modifiedMetas, of: rules)
      || choice.offer(jsonLD: ["dateModified"], of: rules.jsonLD)
      || choice.offer(metas: Self.otherModifiedMetas, of: rules)
      || choice.offer(microdata: ["datemodified"], of: rules.collector)
    return choice.outcome
  }

  /// The candidates of one field, read in precedence order until one reads: the sources after it
  /// are never looked up (most pages state their date in the first source or two).
  private struct Choice {
    let now: Int64
    /// The RFC 3339 date and the text kept beside it, once a candidate has read.
    private var decided: (time: String?, text: String?)?
    /// The text of the first candidate that has any, once it failed to read.
    private var firstText: String?
    private var isFirst = true

    init(now: Int64) { self.now = now }

    var outcome: (time: String?, text: String?) { decided ?? (nil, firstText) }

    /// Reads one candidate; `true` once one has read.
    mutating func offer(_ candidate: Candidate) -> Bool {
      guard decided == nil else { return true }
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
      guard let text else { return false }
      if let read {
        decided = (read.rfc3339, isFirst ? (read.isComplete ? nil : text) : firstText)
        return true
      }
      if isFirst { firstText = text }
      isFirst = false
      return false
    }

    mutating func offer(metas keys: [String], of rules: MetadataRules) -> Bool {
      keys.contains { key in rules.meta(key).map { offer(.text($0)) } ?? false }
    }

    mutating func offer(texts: [String?]) -> Bool {
      texts.contains { text in text.map { offer(.text($0)) } ?? false }
    }

    /// Microdata dates, property by property, each in document order.
    mutating func offer(microdata properties: [String], of collector: MetadataCollector) -> Bool {
      properties.contains { property in
        collector.microdataDates.contains { $0.property == property && offer(.text($0.value)) }
      }
    }

    /// The JSON-LD values of `keys`: the primary node's first, then every node's in document order
    /// (`@graph` members and `mainEntity` objects are nodes), a key's strings, numbers (Unix time)
    /// or the first element of an array.
    mutating func offer(jsonLD keys: [String], of graph: JSONLDGraph) -> Bool {
      if let primary = graph.primary, offer(jsonLD: keys, in: primary) { return true }
      return graph.nodes.contains { offer(jsonLD: keys, in: $0) }
    }

    /// One node's values of `keys` (`offer(jsonLD:of:)`).
    private mutating func offer(jsonLD keys: [String], in node: [String: JSONValue]) -> Bool {
      for key in keys {
        guard let value = node[key]?.elements.first else { continue }
        let candidate: Candidate
        switch value {
        case .string(let text): candidate = .text(text)
        case .number(let number): candidate = .timestamp(number, text: value.stringValue ?? "")
        default: continue
        }
        if offer(candidate) { return true }
      }
      return false
    }
  }
}
