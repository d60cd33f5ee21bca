/// One attribute of a tag: the name lower-cased, the value with character references decoded.
struct HTMLAttribute: Equatable, Sendable {
  var name: String
  var value: String
  /// `name`, when it is one the rules read.
  var known: HTMLAttributeName

  init(name: String, value: String) {
    self.init(name: name, known: HTMLAttributeName(name), value: value)
  }

  init(name: String, known: HTMLAttributeName, value: String) {
    self.name = name
    self.known = known
    self.value = value
  }
}

/// Receives what the tokenizer finds, in document order.
protocol HTMLTokenSink {
  /// A start tag; `attributes` is filled only for tags whose `hasUsefulAttributes` is true.
  mutating func startTag(_ name: HTMLTagName, attributes: [HTMLAttribute], isSelfClosing: Bool)
  mutating func endTag(_ name: HTMLTagName)
  /// The raw content of a `<title>` (RCDATA, references not yet decoded) or `<script>` in HTML content.
  mutating func rawText(of name: HTMLTagName, _ bytes: UnsafeBufferPointer<UInt8>)
  /// Whether the sink wants the text between tags now (`text(_:)`); checked before every tag, so
  /// text costs nothing while no sink asks for it.
  var wantsText: Bool { get }
  /// Text between two tags (character references not yet decoded), while `wantsText` is true.
  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>)
  /// Whether the sink wants start and end tags named `.other` that carry no attributes (most of a
  /// page's body: `<div>`, `<p>`, `<a>`); checked before each such tag, so a sink that has no use
  /// for them now pays no call per tag.
  var wantsOtherTags: Bool { get }
  /// Whether the sink wants no more events: `HTMLTokenizer.run(_:)` then returns after the current
  /// token, and a later `run` continues where it stopped (with another sink, for instance).
  var isFinished: Bool { get }
}

extension HTMLTokenSink {
  var wantsText: Bool { false }
  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {}
  var wantsOtherTags: Bool { true }
  var isFinished: Bool { false }
}
