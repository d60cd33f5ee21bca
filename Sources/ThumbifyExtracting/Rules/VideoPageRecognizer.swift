/// Recognises video pages by URL: YouTube (`watch?v=`, `youtu.be/`, `/shorts/`, `/embed/`,
/// `/live/`) and Vimeo (`vimeo.com/<digits>`).
enum VideoPageRecognizer {
  struct Video: Equatable {
    /// The embeddable player URL.
    var embedURL: String
    /// A still image of the video, when the site has a fixed URL for one.
    var posterURL: String?
  }

  static func recognize(_ page: WebURL?) -> Video? {
    guard let page else { return nil }
    let host = page.host.hasPrefix("www.") ? String(page.host.dropFirst(4)) : page.host
    let segments = page.path.split(separator: "/").map(String.init)
    var youTubeID: String?
    switch host {
    case "youtube.com", "m.youtube.com", "music.youtube.com", "youtube-nocookie.com":
      if segments == ["watch"] {
        youTubeID = queryValue("v", in: page.query)
      } else if segments.count >= 2, ["shorts", "embed", "live", "v"].contains(segments[0]) {
        youTubeID = segments[1]
      }
    case "youtu.be":
      youTubeID = segments.first
    case "vimeo.com":
      if let id = segments.first, id.allSatisfy({ $0.isASCII && $0.isNumber }), !id.isEmpty {
        return Video(embedURL: "https://player.vimeo.com/video/" + id)
      }
    default:
      break
    }
    guard let id = youTubeID, id.utf8.count == 11,
      id.utf8.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
    else { return nil }
    return Video(
      embedURL: "https://www.youtube.com/embed/" + id, posterURL: "https://i.ytimg.com/vi/\(id)/hqdefault.jpg"
    )
  }

  private static func queryValue(_ name: String, in query: String?) -> String? {
    guard let query else { return nil }
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      if parts.count == 2, parts[0] == name { return String(parts[1]) }
    }
    return nil
  }
}
