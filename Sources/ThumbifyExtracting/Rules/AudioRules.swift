/// The page's audio, the first of: an `og:audio` group (grouped like `og:image` and `og:video`:
/// `og:audio`, `:url`, `:secure_url`, `:type`) whose URL resolves to http(s) — its `secure_url`
/// when that is https, else its `:url`, else the `og:audio`; a JSON-LD AudioObject (or the
/// `associatedMedia`/`audio` of a PodcastEpisode) — its `contentUrl`, else its `embedUrl`; an
/// `<audio>`'s `src` or first `<source>`. Each says whether it is a playable file or a player page.
struct AudioRules {
  let rules: MetadataRules

  /// Episode types whose `associatedMedia` is their audio.
  static let episodeTypes: Set<String> = ["podcastepisode", "episode", "radioepisode"]

  func audio() -> AudioCandidate? {
    // Few pages declare audio: the first-by-key table, and the JSON-LD and elements being empty,
    // spare most a pass over every meta.
    let hasOpenGraph = rules.meta("og:audio", "og:audio:secure_url", "og:audio:url") != nil
    guard hasOpenGraph || !rules.jsonLD.nodes.isEmpty || !rules.collector.mediaElements.isEmpty else {
      return nil
    }
    for group in hasOpenGraph ? ImageRules.groups("og:audio", in: rules.collector.metas) : [] {
      guard let url = group.resolved(with: rules) else { continue }
      return make(url, type: group.type)
    }
    var objects = VideoRules.mediaObjects(["audioobject"], nested: ["audio"], in: rules.jsonLD)
    for node in rules.jsonLD.nodes
    where JSONLDGraph.types(of: node).contains(where: Self.episodeTypes.contains) {
      for element in node["associatedMedia"]?.elements ?? [] {
        if case .object(let members) = rules.jsonLD.resolve(element),
          !objects.contains(where: { $0 == members })
        {
          objects.append(members)
        }
      }
    }
    for node in objects {
      let duration = node["duration"]?.stringValue.flatMap(MediaType.seconds)
      if let content = rules.resolve(node["contentUrl"]?.stringValue) {
        var audio = make(content, type: node["encodingFormat"]?.stringValue)
        audio.duration = duration
        return audio
      }
      if let embed = rules.resolve(node["embedUrl"]?.stringValue) {
        var audio = make(embed, type: "text/html")
        audio.duration = duration
        return audio
      }
    }
    for element in rules.collector.mediaElements where element.isAudio {
      if let (url, type) = VideoRules.playable(element, rules: rules) { return make(url, type: type) }
    }
    return nil
  }

  private func make(_ url: WebURL, type: String?) -> AudioCandidate {
    let (type, kind) = MediaType.classify(
      type: type.flatMap { TextNormalizer.clean($0, limit: 100) }, url: url)
    return AudioCandidate(url: url.description, type: type, kind: kind)
  }
}
