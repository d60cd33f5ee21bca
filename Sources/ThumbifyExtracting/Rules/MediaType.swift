/// What a video or audio URL is, from the MIME type a page gives and, without one, the URL's
/// extension: a playable file (with its MIME type) or a player page (`text/html`).
enum MediaType {
  /// The MIME types of media files by path extension, lower-cased: what a `<video>` or `<audio>`
  /// element plays (HLS and DASH playlists included).
  static let byExtension: [String: String] = [
    "mp4": "video/mp4", "m4v": "video/mp4", "webm": "video/webm", "mov": "video/quicktime",
    "ogv": "video/ogg", "mkv": "video/x-matroska", "m3u8": "application/vnd.apple.mpegurl",
    "mpd": "application/dash+xml", "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac",
    "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/ogg", "wav": "audio/wav", "flac": "audio/flac",
  ]

  /// The type and kind of `url`, given the page's `type` (cleaned): `text/html` (any parameters) is a
  /// player; `video/*`, `audio/*` and streaming playlists are files; without a type, a known
  /// extension makes a file of its MIME type. An unknown type without a known extension says nothing.
  static func classify(type: String?, url: WebURL) -> (type: String?, kind: MediaKind?) {
    if let type {
      let essence = ASCII.lowercased(ASCII.trimmed(String(type.split(separator: ";").first ?? "")))
      if essence == "text/html" || essence == "application/xhtml+xml" { return (type, .player) }
      if essence.hasPrefix("video/") || essence.hasPrefix("audio/") || isPlaylist(essence) {
        return (type, .file)
      }
    }
    if let guessed = fromExtension(of: url) { return (type ?? guessed, .file) }
    return (type, nil)
  }

  /// The MIME type the last path segment's extension names, if it is a media file's.
  static func fromExtension(of url: WebURL) -> String? {
    guard let last = url.path.split(separator: "/").last, let dot = last.lastIndex(of: "."),
      last.distance(from: dot, to: last.endIndex) <= 6
    else { return nil }
    return byExtension[ASCII.lowercased(String(last[last.index(after: dot)...]))]
  }

  /// Whether a lower-cased MIME type is an HLS or DASH playlist.
  private static func isPlaylist(_ essence: String) -> Bool {
    ["application/vnd.apple.mpegurl", "application/x-mpegurl", "application/dash+xml"].contains(essence)
  }

  /// Whether a type names Flash, which no browser plays any more: such a video is skipped.
  static func isFlash(_ type: String?) -> Bool {
    guard let type else { return false }
    return ASCII.lowercased(type).contains("shockwave-flash")
  }

  /// Whole seconds from an ISO 8601 duration (`PT1H2M3S`, `PT90S`, `P0DT4M`, `PT1M30.5S`) or plain
  /// seconds (`"93"`); `nil` for anything else, zero, or a year or more.
  static func seconds(_ text: String) -> Int? {
    let trimmed = ASCII.trimmed(text).uppercased()
    if let plain = Int(trimmed) { return plain > 0 && plain < 31_536_000 ? plain : nil }
    guard trimmed.hasPrefix("P"), trimmed.utf8.count <= 32 else { return nil }
    var total = 0.0
    var number = ""
    var isTime = false
    var sawUnit = false
    for character in trimmed.dropFirst() {
      switch character {
      case "0"..."9", ".", ",":
        number.append(character == "," ? "." : character)
      case "T":
        guard number.isEmpty, !isTime else { return nil }
        isTime = true
      case "W", "D", "H", "M", "S":
        guard let value = Double(number) else { return nil }
        let unit: Double =
          switch (character, isTime) {
          case ("W", false): 604_800
          case ("D", false): 86_400
          case ("H", true): 3_600
          case ("M", true): 60
          case ("S", true): 1
          default: 0
          }
        guard unit > 0 else { return nil }
        total += value * unit
        number = ""
        sawUnit = true
      default:
        return nil
      }
    }
    guard sawUnit, number.isEmpty, total >= 1, total < 31_536_000 else { return nil }
    return Int(total)
  }
}
