/// A token sink in front of another that watches `<head>` for a charset declaration, as a
/// browser's tree builder does for the WHATWG "change the encoding" algorithm.
///
/// It passes every event on to `sink` unchanged. While `isWatching`, the first `<meta charset>` or
/// `<meta http-equiv=content-type content="…charset=…">` naming an encoding the label table knows
/// is kept in `declared` and ends the watch; so does the end of `<head>`: `</head>`, `<body>`, or a
/// start tag the tokenizer names that only the body holds. A declaration with an unknown label
/// is passed over, as browsers do.
struct CharsetDeclarationWatcher<Sink: HTMLTokenSink>: HTMLTokenSink {
  var sink: Sink
  /// Whether the watch is still on (the encoding is tentative and `<head>` has not ended).
  var isWatching: Bool
  /// The encoding the first declaration in `<head>` names.
  private(set) var declared: TextEncoding?

  init(_ sink: Sink, isWatching: Bool) {
    self.sink = sink
    self.isWatching = isWatching
  }

  mutating func startTag(_ name: HTMLTagName, attributes: [HTMLAttribute], isSelfClosing: Bool) {
    if isWatching {
      switch name {
      case .meta:
        declared = Self.encoding(declaredBy: attributes)
        isWatching = declared == nil
      case .body, .article, .header, .time, .svg, .math, .textarea, .xmp, .iframe, .noembed, .plaintext:
        isWatching = false
      default:
        break
      }
    }
    sink.startTag(name, attributes: attributes, isSelfClosing: isSelfClosing)
  }

  mutating func endTag(_ name: HTMLTagName) {
    if name == .head { isWatching = false }
    sink.endTag(name)
  }

  mutating func rawText(of name: HTMLTagName, _ bytes: UnsafeBufferPointer<UInt8>) {
    sink.rawText(of: name, bytes)
  }

  var wantsText: Bool { sink.wantsText }

  /// The watch reads only named tags.
  var wantsOtherTags: Bool { sink.wantsOtherTags }

  /// Once the watch has ended, the tokenizer goes on with `sink` alone (`MetadataExtractor.collect`),
  /// so the rest of the page pays nothing for the watch.
  var isFinished: Bool { !isWatching }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) { sink.text(bytes) }

  /// The encoding a `<meta>` declares: its `charset` attribute when that names an encoding, else
  /// the charset in `content` when `http-equiv` is `content-type` (the tree builder's "in head"
  /// rules for `meta`).
  static func encoding(declaredBy attributes: [HTMLAttribute]) -> TextEncoding? {
    if let charset = attributes.first(where: { $0.known == .charset }),
      let encoding = TextEncoding(label: charset.value)
    {
      return encoding
    }
    guard
      let httpEquiv = attributes.first(where: { $0.known == .httpEquiv }),
      ASCII.lowercased(httpEquiv.value) == "content-type",
      let content = attributes.first(where: { $0.known == .content }),
      let label = CharsetPrescan.charset(inContent: Array(content.value.utf8))
    else { return nil }
    return TextEncoding(label: String(decoding: label, as: UTF8.self))
  }
}
