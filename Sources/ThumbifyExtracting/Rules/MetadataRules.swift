/// Applies the field precedence rules to what `MetadataCollector` found.
struct MetadataRules {
  let collector: MetadataCollector
  let page: WebURL?
  let pageURLString: String
  /// `<base href>` resolved against the page, else the page.
  let base: WebURL?
  let jsonLD: JSONLDGraph
  /// The JSON-LD VideoObjects (`VideoRules.mediaObjects`), found once for the video and image rules.
  let videoObjects: [[String: JSONValue]]
  let iconTargetSize: Int
  /// The extraction's clock in Unix seconds: dates more than a day after it are left out.
  let now: Int64
  /// The first non-empty content of each meta key.
  private let firstByKey: [String: String]

  init(collector: MetadataCollector, pageURL: String, iconTargetSize: Int, now: Int64) {
    self.now = now
    self.collector = collector
    self.pageURLString = pageURL
    let page = WebURL(pageURL)
    self.page = page
    self.base = collector.baseHref.flatMap { WebURL($0, relativeTo: page) } ?? page
    self.jsonLD = JSONLDGraph(blocks: collector.jsonLDBlocks)
    self.videoObjects = VideoRules.mediaObjects(["videoobject"], nested: ["video"], in: jsonLD)
    self.iconTargetSize = iconTargetSize
    var first: [String: String] = [:]
    first.reserveCapacity(collector.metas.count)
    // Backwards, so the first occurrence is written last and wins with one hash per meta.
    for meta in collector.metas.reversed() where !ASCII.isBlank(meta.content) {
      first[meta.key] = meta.content
    }
    self.firstByKey = first
  }

  /// The first non-empty content of `key`. (One key builds no array: the date rules look up a
  /// dozen keys one by one on every page.)
  func meta(_ key: String) -> String? {
    assert(Self.readKeys.contains(key), "\(key) is not in MetadataRules.readKeys: the collector drops it")
    return firstByKey[key]
  }

  /// Every meta key a rule reads, by `meta(_:)` or in a scan of `collector.metas`; the collector
  /// keeps only metas with these keys. A rule that reads another key adds it here (`meta(_:)`
  /// asserts it in debug builds).
  static let readKeys: Set<String> = Set(
    [
      "og:title", "twitter:title", "itemprop:name", "dc.title", "og:description", "twitter:description",
      "description", "itemprop:description", "dc.description", "og:url", "og:type", "og:locale",
      "itemprop:inlanguage", "dc.language", "language", "theme-color", "msapplication-tilecolor",
      "twitter:card", "og:site_name", "application-name", "apple-mobile-web-app-title",
      // ImageRules, VideoRules.
      "twitter:image", "twitter:image:src", "twitter:image:alt", "twitter:image:width",
      "twitter:image:height", "itemprop:image", "twitter:player", "twitter:player:width",
      "twitter:player:height", "twitter:player:stream", "twitter:player:stream:content_type",
      "itemprop:duration",
      // AuthorRules' microdata scan.
      "itemprop:author",
    ]
      + ["og:image", "og:video", "og:audio"].flatMap { prefix in ImageRules.groupSuffixes.map { prefix + $0 }
      }
      + AuthorRules.metaKeys + DateRules.publishedMetas + DateRules.otherPublishedMetas
      + DateRules.genericPublishedMetas
      + DateRules.modifiedMetas + DateRules.otherModifiedMetas)

  /// The first non-empty content among `keys`, in key order.
  func meta(_ keys: String...) -> String? {
    for key in keys { if let value = firstByKey[key] { return value } }
    return nil
  }

  /// Resolves a URL against the base; `nil` for non-http(s) and invalid URLs.
  func resolve(_ text: String?) -> WebURL? {
    guard let text, !ASCII.isBlank(text) else { return nil }
    return WebURL(text, relativeTo: base)
  }

  /// The page's metadata; whether its `publishedTime` came from a meta that names a date but not
  /// which one (`DateRules.genericPublishedMetas`), which the date search may outrank; and every
  /// JSON-LD `datePublished` text, where a date in UTC may be restated with the page's offset
  /// (`DateSearch.localDate`).
  func metadata() -> (metadata: PageMetadata, isPublishedTimeGeneric: Bool, publishedTexts: [String]) {
    var result = PageMetadata()
    let primary = jsonLD.primary
    result.title =
      [
        meta("og:title"), meta("twitter:title"),
        primary.flatMap { jsonLD.name($0["headline"]) ?? jsonLD.name($0["name"]) },
      ].lazy.compactMap { $0.flatMap { TextNormalizer.cleanDecoding($0, limit: TextNormalizer.titleLimit) } }
      .first
      ?? collector.titleBytes.flatMap { TextNormalizer.cleanDecoding($0, limit: TextNormalizer.titleLimit) }
      ?? meta("itemprop:name", "dc.title").flatMap {
        TextNormalizer.clean($0, limit: TextNormalizer.titleLimit)
      }
    result.description =
      [
        meta("og:description"), meta("twitter:description"),
        primary.flatMap { jsonLD.name($0["description"]) },
        meta("description", "itemprop:description", "dc.description"),
      ].lazy.compactMap {
        $0.flatMap { TextNormalizer.cleanDecoding($0, limit: TextNormalizer.descriptionLimit) }
      }.first
    result.canonicalURL = canonicalURL()
    result.siteName = SiteNameRules(rules: self).siteName()
    result.type = short(meta("og:type"))
    result.lang = language()
    result.author = AuthorRules(rules: self).author()
    let dates = DateRules(rules: self, now: now)
    let published = dates.published()
    (result.publishedTime, result.publishedTimeText, result.publishedTimeSource) =
      (published.time, published.text, published.source)

    (result.modifiedTime, result.modifiedTimeText) = dates.modified()
    result.themeColor = short(meta("theme-color", "msapplication-tilecolor"))
    result.twitterCard = short(meta("twitter:card"))
    let images = ImageRules(rules: self).images()
    result.images = images.isEmpty ? nil : images
    result.image = images.first
    let icons = IconRanking(targetSize: iconTargetSize).rank(IconRules(rules: self).candidates(), page: page)
    result.icons = icons.isEmpty ? nil : icons
    result.icon = icons.first
    result.video = VideoRules(rules: self).video()
    result.audio = AudioRules(rules: self).audio()
    result.oembed = oEmbed()
    let texts = jsonLD.nodes.prefix(16).compactMap { $0["datePublished"]?.elements.first?.stringValue }
    return (result, published.isGeneric, texts)
  }

  private func short(_ text: String?) -> String? {
    text.flatMap { TextNormalizer.cleanDecoding($0, limit: TextNormalizer.shortTextLimit) }
  }

  /// `link rel=canonical`, else `og:url`: the first that resolves to an http(s) URL, on whatever host
  /// (AMP pages, syndicated copies and moved domains declare another host's URL), without credentials
  /// (a user name or password is never part of what the page is, and is not repeated to analytics).
  /// Which host it names only decides the envelope's `url` (`PageMetadata.canonicalURL(onHostOf:)`).
  private func canonicalURL() -> String? {
    let canonical = collector.links.first { $0.rel.contains("canonical") }?.href
    for candidate in [canonical, meta("og:url")] {
      guard var url = resolve(candidate) else { continue }
      url.userinfo = ""
      return url.description
    }
    return nil
  }

  private func language() -> String? {
    if let lang = collector.htmlLang.flatMap(short) { return lang }
    if let lang = collector.httpEquivLanguage.flatMap(short) {
      return String(lang.split(separator: ",").first ?? Substring(lang)).trimmingCharacters()
    }
    if let locale = short(meta("og:locale", "itemprop:inlanguage", "dc.language", "language")) {
      return locale.replacingUnderscores()
    }
    return jsonLD.first("inLanguage")?.stringValue.flatMap(short)
  }

  /// The first `link type=application/json+oembed`, else the XML one.
  private func oEmbed() -> String? {
    for wanted in ["application/json+oembed", "text/xml+oembed", "application/xml+oembed"] {
      for link in collector.links where link.type.map({ ASCII.lowercased(ASCII.trimmed($0)) }) == wanted {
        if let url = resolve(link.href) { return url.description }
      }
    }
    return nil
  }
}

extension String {
  fileprivate func trimmingCharacters() -> String { ASCII.trimmed(self) }
  fileprivate func replacingUnderscores() -> String {
    String(map { $0 == "_" ? "-" : $0 })
  }
}
