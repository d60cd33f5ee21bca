/// The page's video, the first of: an `og:video` group (like `og:image`; a Flash one skipped),
/// `twitter:player`, `twitter:player:stream`, a JSON-LD VideoObject's `embedUrl` then `contentUrl`,
/// a `<video>`'s `src` or first `<source>`, the player of a recognised YouTube or Vimeo page URL.
/// Each says whether it is a playable file or a player page (`MediaType`); a VideoObject's `duration`
/// (and sizes, where the chosen source gave none), else a microdata `itemprop=duration`, fill in.
struct VideoRules {
  let rules: MetadataRules

  func video() -> VideoCandidate? {
    guard var video = firstVideo() else { return nil }
    if let node = rules.videoObjects.first {
      video.duration = video.duration ?? node["duration"]?.stringValue.flatMap(MediaType.seconds)
      if video.width == nil && video.height == nil {
        video.width = node["width"].flatMap(JSONLDGraph.integer)
        video.height = node["height"].flatMap(JSONLDGraph.integer)
      }
    }
    // Microdata (`<meta itemprop=duration content=PT3M33S>`, YouTube's watch pages).
    video.duration = video.duration ?? rules.meta("itemprop:duration").flatMap(MediaType.seconds)
    return video
  }

  private func firstVideo() -> VideoCandidate? {
    for group in ImageRules.groups("og:video", in: rules.collector.metas) where !MediaType.isFlash(group.type)
    {
      guard let url = group.resolved(with: rules) else { continue }
      return make(
        url, type: group.type, width: group.width.flatMap(JSONLDGraph.leadingInteger),
        height: group.height.flatMap(JSONLDGraph.leadingInteger))
    }
    let width = rules.meta("twitter:player:width").flatMap(JSONLDGraph.leadingInteger)
    let height = rules.meta("twitter:player:height").flatMap(JSONLDGraph.leadingInteger)
    if let player = rules.resolve(rules.meta("twitter:player")) {
      return make(player, type: "text/html", width: width, height: height)
    }
    if let stream = rules.resolve(rules.meta("twitter:player:stream")) {
      return make(
        stream, type: rules.meta("twitter:player:stream:content_type"), width: width, height: height)
    }
    for node in rules.videoObjects {
      let width = node["width"].flatMap(JSONLDGraph.integer)
      let height = node["height"].flatMap(JSONLDGraph.integer)
      if let embed = rules.resolve(node["embedUrl"]?.stringValue) {
        return make(embed, type: "text/html", width: width, height: height)
      }
      if let content = rules.resolve(node["contentUrl"]?.stringValue) {
        return make(content, type: node["encodingFormat"]?.stringValue, width: width, height: height)
      }
    }
    for element in rules.collector.mediaElements where !element.isAudio {
      guard let (url, type) = Self.playable(element, rules: rules) else { continue }
      return make(
        url, type: type, width: element.width.flatMap(JSONLDGraph.leadingInteger),
        height: element.height.flatMap(JSONLDGraph.leadingInteger))
    }
    if let recognized = VideoPageRecognizer.recognize(rules.page), let url = WebURL(recognized.embedURL) {
      return make(url, type: "text/html")
    }
    return nil
  }

  private func make(_ url: WebURL, type: String?, width: Int? = nil, height: Int? = nil) -> VideoCandidate {
    let (type, kind) = MediaType.classify(
      type: type.flatMap { TextNormalizer.clean($0, limit: 100) }, url: url)
    return VideoCandidate(url: url.description, type: type, width: width, height: height, kind: kind)
  }

  /// A `<video>`'s or `<audio>`'s `src`, else its first `<source>` that resolves, with that source's type.
  static func playable(_ element: MetadataCollector.MediaElement, rules: MetadataRules) -> (WebURL, String?)?
  {
    if let src = rules.resolve(element.src) { return (src, nil) }
    for source in element.sources {
      if let src = rules.resolve(source.src) { return (src, source.type) }
    }
    return nil
  }

  /// The JSON-LD nodes of one of `types` (lower-cased), then the objects under a `nested` key of any
  /// node (`{"@type": "Article", "video": {…}}`; `@id` references followed), in document order.
  static func mediaObjects(_ types: Set<String>, nested: [String], in graph: JSONLDGraph) -> [[String:
    JSONValue]]
  {
    guard !graph.nodes.isEmpty else { return [] }
    var found = graph.nodes.filter { node in
      // Most nodes' types are no media type and of another length: those are not lower-cased.
      guard let type = node["@type"] else { return false }
      return type.elements.contains { element in
        guard let text = element.stringValue, types.contains(where: { $0.utf8.count == text.utf8.count })
        else {
          return false
        }
        return types.contains(ASCII.lowercased(text))
      }
    }
    for node in graph.nodes {
      for key in nested {
        for element in node[key]?.elements ?? [] {
          if case .object(let members) = graph.resolve(element), !found.contains(where: { $0 == members }) {
            found.append(members)
          }
        }
      }
    }
    return found
  }
}
