/// One attribute of a tag: the name lower-cased, the value with character references decoded.
struct HTMLAttribute: Equatable, Sendable {
  var name: String
  var value: String
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
}

extension HTMLTokenSink {
  var wantsText: Bool { false }
  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {}
}
