#if canImport(Glibc)
  import Glibc
#endif

/// A streaming HTML tokenizer on UTF-8 bytes that follows the WHATWG tokenizer where
/// metadata depends on it.
///
/// It handles comments (including `<!-->`, `--!>` and unterminated ones), doctype and bogus
/// comments, raw text in `script`/`style`/`textarea`/`title`/`xmp`/`iframe`/`noembed`/
/// `noframes`, `plaintext`, every attribute quoting form, duplicate attributes (the first
/// wins), any letter case, tags cut off by the end of input (dropped, as browsers do) and
/// SVG/MathML content, where `<title>` is not the document's title and CDATA sections are
/// skipped. It keeps no tree, so deep nesting costs nothing.
///
/// Not modelled: the script-data escape states (`<!--` … `<script>` inside a script).
struct HTMLTokenizer {
  /// The longest attribute value kept; longer values are cut (the rest is still skipped).
  static let maximumAttributeLength = 64 * 1024
  /// The most attributes kept per tag.
  static let maximumAttributes = 64

  let bytes: UnsafeBufferPointer<UInt8>
  let base: UnsafePointer<UInt8>
  let end: Int
  var position = 0
  /// How deep inside `<svg>`/`<math>` the tokenizer is.
  var foreignDepth = 0
  var attributes: [HTMLAttribute] = []
  var nameBuffer = [UInt8](repeating: 0, count: 16)
  /// Scratch space for attribute values with character references, reused from tag to tag.
  var decodedValue: [UInt8] = []
  /// Whether the tag being read has an `itemprop` attribute (microdata) or a `rel` naming an author,
  /// whatever its name: its attributes are wanted even when its name's are not.
  var wantsAttributes = false
  /// Whether a tag whose `class` or `id` names a date (`DateSearch.isDateHint`) has its attributes
  /// read too: set for the date search's pass only, so the metadata pass scans no class values.
  var looksForDateHints = false

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    self.base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
    self.end = bytes.count
    attributes.reserveCapacity(16)
  }

  /// Tokenizes the input from where the last run stopped, reporting to `sink`, to its end or until
  /// the sink `isFinished`.
  mutating func run<Sink: HTMLTokenSink>(_ sink: inout Sink) {
    while !sink.isFinished, let open = find(UInt8(ascii: "<"), from: position) {
      if open > position, sink.wantsText {
        sink.text(UnsafeBufferPointer(start: base + position, count: open - position))
      }
      position = open + 1
      guard position < end else { return }
      let next = base[position]
      if ASCII.isAlpha(next) {
        let name = tag(isEnd: false, sink: &sink)
        if name == .plaintext && foreignDepth == 0 {
          // Nothing after it is markup: a later run finds nothing either.
          position = end
          return
        }
        if name.hasRawTextContent && foreignDepth == 0 { skipRawText(of: name, sink: &sink) }
      } else if next == UInt8(ascii: "/") {
        position += 1
        if position < end, ASCII.isAlpha(base[position]) {
          _ = tag(isEnd: true, sink: &sink)
        } else if position < end, base[position] == UInt8(ascii: ">") {
          position += 1
        } else {
          skipBogusComment()
        }
      } else if next == UInt8(ascii: "!") {
        position += 1
        markupDeclaration()
      } else if next == UInt8(ascii: "?") {
        skipBogusComment()
      }
    }
    if !sink.isFinished { position = end }
  }

  // MARK: - Scanning helpers

  @inline(__always)
  func find(_ byte: UInt8, from start: Int) -> Int? {
    guard start < end, let found = memchr(base + start, Int32(byte), end - start) else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }

  @inline(__always)
  func hasPrefix(_ literal: StaticString, at index: Int, caseInsensitive: Bool) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard index + count <= end else { return false }
    let pattern = literal.utf8Start
    for offset in 0..<count {
      let byte = caseInsensitive ? ASCII.lower(base[index + offset]) : base[index + offset]
      if byte != pattern[offset] { return false }
    }
    return true
  }

  /// Skips to just past the next `>` (bogus comment, doctype, `<?…>`), or to the end.
  mutating func skipBogusComment() {
    position = (find(UInt8(ascii: ">"), from: position) ?? end - 1) + 1
  }

  /// After `<!`: a comment, a CDATA section in foreign content, or a bogus comment.
  private mutating func markupDeclaration() {
    if hasPrefix("--", at: position, caseInsensitive: false) {
      skipComment(from: position + 2)
    } else if foreignDepth > 0, hasPrefix("[CDATA[", at: position, caseInsensitive: false) {
      var search = position + 7
      while let close = find(UInt8(ascii: ">"), from: search) {
        if close >= position + 9, base[close - 1] == UInt8(ascii: "]"), base[close - 2] == UInt8(ascii: "]") {
          position = close + 1
          return
        }
        search = close + 1
      }
      position = end
    } else {
      skipBogusComment()
    }
  }

  /// Skips a comment whose text starts at `start` (after `<!--`): ends at `-->` or `--!>`;
  /// `<!-->` and `<!--->` end at once; an unterminated comment runs to the end of input.
  private mutating func skipComment(from start: Int) {
    if start < end, base[start] == UInt8(ascii: ">") {
      position = start + 1
      return
    }
    if start + 1 < end, base[start] == UInt8(ascii: "-"), base[start + 1] == UInt8(ascii: ">") {
      position = start + 2
      return
    }
    var search = start
    while let close = find(UInt8(ascii: ">"), from: search) {
      let dash = UInt8(ascii: "-")
      if close >= start + 2, base[close - 1] == dash, base[close - 2] == dash {
        position = close + 1
        return
      }
      if close >= start + 3, base[close - 1] == UInt8(ascii: "!"), base[close - 2] == dash,
        base[close - 3] == dash
      {
        position = close + 1
        return
      }
      search = close + 1
    }
    position = end
  }

  // MARK: - Raw text

  /// Skips a raw-text element's content up to its end tag and hands `title`/`script` text to the sink.
  private mutating func skipRawText<Sink: HTMLTokenSink>(of name: HTMLTagName, sink: inout Sink) {
    let contentStart = position
    let tagName = Self.literal(for: name)
    var search = position
    while let open = find(UInt8(ascii: "<"), from: search) {
      let nameStart = open + 2
      if open + 1 < end, base[open + 1] == UInt8(ascii: "/"),
        nameStart + tagName.count <= end,
        matchesLowercased(tagName, at: nameStart)
      {
        let after = nameStart + tagName.count
        if after == end || ASCII.isWhitespace(base[after]) || base[after] == UInt8(ascii: "/")
          || base[after] == UInt8(ascii: ">")
        {
          report(
            name, UnsafeBufferPointer(start: base + contentStart, count: open - contentStart), sink: &sink)
          position = open
          return
        }
      }
      search = open + 1
    }
    report(name, UnsafeBufferPointer(start: base + contentStart, count: end - contentStart), sink: &sink)
    position = end
  }

  @inline(__always)
  private func report<Sink: HTMLTokenSink>(
    _ name: HTMLTagName, _ content: UnsafeBufferPointer<UInt8>, sink: inout Sink
  ) {
    if name == .title || name == .script { sink.rawText(of: name, content) }
  }

  private func matchesLowercased(_ name: [UInt8], at index: Int) -> Bool {
    for offset in 0..<name.count where ASCII.lower(base[index + offset]) != name[offset] { return false }
    return true
  }

  private static func literal(for name: HTMLTagName) -> [UInt8] {
    switch name {
    case .title: return Array("title".utf8)
    case .script: return Array("script".utf8)
    case .style: return Array("style".utf8)
    case .textarea: return Array("textarea".utf8)
    case .xmp: return Array("xmp".utf8)
    case .iframe: return Array("iframe".utf8)
    case .noembed: return Array("noembed".utf8)
    case .noframes: return Array("noframes".utf8)
    default: return []
    }
  }
}
