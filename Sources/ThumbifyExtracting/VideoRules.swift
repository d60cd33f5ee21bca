/// The page's video: `og:video` groups (like `og:image`), then `twitter:player`, then a
/// JSON-LD VideoObject's `embedUrl`/`contentUrl`, then the player of a recognised YouTube or
/// Vimeo page URL.
struct VideoRules {
  let rules: MetadataRules

  func video() -> VideoCandidate? {
    for group in ImageRules.groups("og:video", in: rules.collector.metas) {
      guard let url = group.resolved(with: rules) else { continue }
      return VideoCandidate(
        url: url.description, type: group.type.flatMap { TextNormalizer.clean($0, limit: 100) },
        width: group.width.flatMap(JSONLDGraph.leadingInteger),
        height: group.height.flatMap(JSONLDGraph.leadingInteger))
    }
    if let player = rules.resolve(rules.meta("twitter:player")) {
      return VideoCandidate(
        url: player.description, type: "text/html",
        width: rules.meta("twitter:player:width").flatMap(JSONLDGraph.leadingInteger),
        height: rules.meta("twitter:player:height").flatMap(JSONLDGraph.leadingInteger))
    }
    for node in rules.jsonLD.nodes where JSONLDGraph.types(of: node).contains("videoobject") {
      if let embed = rules.resolve(node["embedUrl"]?.stringValue) {
        return VideoCandidate(url: embed.description, type: "text/html")
      }
      if let content = rules.resolve(node["contentUrl"]?.stringValue) {
        return VideoCandidate(url: content.description)
      }
    }
    if let recognized = VideoPageRecognizer.recognize(rules.page) {
      return VideoCandidate(url: recognized.embedURL, type: "text/html")
    }
    return nil
  }
}
