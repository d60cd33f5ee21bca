/// The body's `<video>` and `<audio>` elements: their `src`, `poster`, `width`, `height` and the
/// `src`/`type` of the `<source>` elements inside them. `VideoRules` and `AudioRules` read them.
extension MetadataCollector {
  /// One `<video>` or `<audio>` element, attribute values as written.
  struct MediaElement: Equatable {
    var isAudio: Bool
    var src: String?
    var poster: String?
    var width: String?
    var height: String?
    /// Its `<source src type>` children, in order.
    var sources: [Source] = []
  }

  /// One `<source>` of a media element.
  struct Source: Equatable {
    var src: String
    var type: String?
  }

  static let maximumMediaElements = 16
  static let maximumMediaSources = 8

  /// A `<video>`, `<audio>` or `<source>` start tag. A `<source>` counts only inside an open
  /// `<video>`/`<audio>` (not in `<picture>`).
  mutating func media(_ name: HTMLTagName, attributes: [HTMLAttribute], isSelfClosing: Bool) {
    func value(_ known: HTMLAttributeName) -> String? {
      attributes.first { $0.known == known }.flatMap { ASCII.isBlank($0.value) ? nil : $0.value }
    }
    if name == .source {
      guard let index = openMediaElement, mediaElements[index].sources.count < Self.maximumMediaSources,
        let src = value(.src)
      else { return }
      mediaElements[index].sources.append(Source(src: src, type: value(.type)))
      return
    }
    openMediaElement = nil
    guard mediaElements.count < Self.maximumMediaElements else { return }
    mediaElements.append(
      MediaElement(
        isAudio: name == .audio, src: value(.src), poster: name == .video ? value(.poster) : nil,
        width: value(.width), height: value(.height)))
    if !isSelfClosing { openMediaElement = mediaElements.count - 1 }
  }
}
