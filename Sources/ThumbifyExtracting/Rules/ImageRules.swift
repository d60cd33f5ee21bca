/// Image candidates, best first: OpenGraph image groups, then `twitter:image(:src)`, then
/// JSON-LD images (VideoObjects' `thumbnailUrl` last), then `link rel=image_src`, then
/// `itemprop=image` metas, then `<video poster>`.
///
/// An `og:image` starts a group that the following `og:image:secure_url`, `:url`, `:width`,
/// `:height`, `:alt` and `:type` describe; the group's URL is its `secure_url` (when it is
/// https), else its `:url`, else the `og:image`. URLs are resolved against the base; data:,
/// javascript: and every other non-http(s) URL is dropped. A URL seen twice keeps its first
/// position and gains the attributes it lacked.
struct ImageRules {
  let rules: MetadataRules

  /// An OpenGraph structured property group (`og:image`, `og:video` or `og:audio` and its children).
  struct Group {
    var plain: String?
    var url: String?
    var secureURL: String?
    var width: String?
    var height: String?
    var alt: String?
    var type: String?

    /// The group's URL in precedence order, resolved.
    func resolved(with rules: MetadataRules) -> WebURL? {
      if let secure = rules.resolve(secureURL), secure.scheme == "https" { return secure }
      return rules.resolve(url) ?? rules.resolve(plain) ?? rules.resolve(secureURL)
    }
  }

  /// The keys of a group after its prefix, as `groups(_:in:)` reads them (`MetadataRules.readKeys`).
  static let groupSuffixes = ["", ":url", ":secure_url", ":width", ":height", ":alt", ":type"]

  /// Groups the `prefix` (`og:image`, `og:video`, `og:audio`) structured properties in document order.
  static func groups(_ prefix: String, in metas: [MetadataCollector.Meta]) -> [Group] {
    var groups: [Group] = []
    // By index, so the metas of other keys (most of them) are only looked at, not copied.
    for position in metas.indices where metas[position].key.hasPrefix(prefix) {
      let suffix = metas[position].key.dropFirst(prefix.count)
      let content = metas[position].content
      switch suffix {
      case "":
        groups.append(Group(plain: content))
      case ":url":
        if groups.isEmpty || groups[groups.count - 1].url != nil {
          groups.append(Group(url: content))
        } else {
          groups[groups.count - 1].url = content
        }
      case ":secure_url":
        if groups.isEmpty || groups[groups.count - 1].secureURL != nil { groups.append(Group()) }
        groups[groups.count - 1].secureURL = content
      case ":width", ":height", ":alt", ":type":
        guard !groups.isEmpty else { continue }
        let index = groups.count - 1
        switch suffix {
        case ":width": if groups[index].width == nil { groups[index].width = content }
        case ":height": if groups[index].height == nil { groups[index].height = content }
        case ":alt": if groups[index].alt == nil { groups[index].alt = content }
        default: if groups[index].type == nil { groups[index].type = content }
        }
      default:
        continue
      }
    }
    return groups
  }

  func images() -> [ImageCandidate] {
    var found: [ImageCandidate] = []
    for group in Self.groups("og:image", in: rules.collector.metas) {
      guard let url = group.resolved(with: rules) else { continue }
      found.append(
        ImageCandidate(
          url: url.description, width: group.width.flatMap(JSONLDGraph.leadingInteger),
          height: group.height.flatMap(JSONLDGraph.leadingInteger),
          alt: group.alt.flatMap { TextNormalizer.clean($0, limit: TextNormalizer.shortTextLimit) },
          type: group.type.flatMap { TextNormalizer.clean($0, limit: 100) }))
    }
    let twitterAlt = rules.meta("twitter:image:alt").flatMap {
      TextNormalizer.clean($0, limit: TextNormalizer.shortTextLimit)
    }
    for meta in rules.collector.metas where meta.key == "twitter:image" || meta.key == "twitter:image:src" {
      guard let url = rules.resolve(meta.content) else { continue }
      found.append(
        ImageCandidate(
          url: url.description, width: rules.meta("twitter:image:width").flatMap(JSONLDGraph.leadingInteger),
          height: rules.meta("twitter:image:height").flatMap(JSONLDGraph.leadingInteger), alt: twitterAlt))
    }
    var jsonLDImages = rules.jsonLD.images(rules.jsonLD.primary?["image"])
    jsonLDImages += rules.jsonLD.images(rules.jsonLD.primary?["thumbnailUrl"])
    for node in rules.jsonLD.nodes {
      let types = JSONLDGraph.types(of: node)
      if types.contains("organization") || types.contains("person") { continue }
      jsonLDImages += rules.jsonLD.images(node["image"])
    }
    // A video's still: every VideoObject's `thumbnailUrl` (the primary node's is already in).
    for node in rules.videoObjects {
      jsonLDImages += rules.jsonLD.images(node["thumbnailUrl"])
    }
    for candidate in jsonLDImages {
      guard let url = rules.resolve(candidate.url) else { continue }
      var resolved = candidate
      resolved.url = url.description
      resolved.alt = candidate.alt.flatMap {
        TextNormalizer.cleanDecoding($0, limit: TextNormalizer.shortTextLimit)
      }
      found.append(resolved)
    }
    for link in rules.collector.links where link.rel.contains("image_src") {
      if let url = rules.resolve(link.href) { found.append(ImageCandidate(url: url.description)) }
    }
    for meta in rules.collector.metas where meta.key == "itemprop:image" {
      if let url = rules.resolve(meta.content) { found.append(ImageCandidate(url: url.description)) }
    }
    for element in rules.collector.mediaElements {
      if let poster = rules.resolve(element.poster) { found.append(ImageCandidate(url: poster.description)) }
    }
    if found.isEmpty, let video = VideoPageRecognizer.recognize(rules.page), let poster = video.posterURL {
      found.append(ImageCandidate(url: poster))
    }
    return Self.merged(found)
  }

  /// Drops repeated URLs, filling the first occurrence's missing attributes from later ones.
  static func merged(_ candidates: [ImageCandidate]) -> [ImageCandidate] {
    var result: [ImageCandidate] = []
    var indexByURL: [String: Int] = [:]
    for candidate in candidates {
      if let index = indexByURL[candidate.url] {
        result[index].width = result[index].width ?? candidate.width
        result[index].height = result[index].height ?? candidate.height
        result[index].alt = result[index].alt ?? candidate.alt
        result[index].type = result[index].type ?? candidate.type
      } else {
        indexByURL[candidate.url] = result.count
        result.append(candidate)
      }
    }
    return result
  }
}
