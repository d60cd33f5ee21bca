#if canImport(Glibc)
  import Glibc
#endif

extension HTMLTokenizer {
  /// Reads a start or end tag whose name starts at `position`; reports it unless the input
  /// ends inside it (browsers drop such a tag). Returns the tag's name.
  mutating func tag<Sink: HTMLTokenSink>(isEnd: Bool, sink: inout Sink) -> HTMLTagName {
    let nameStart = position
    let classes = ByteClass.table
    while position < end, classes[Int(base[position])] & ByteClass.endsTagName == 0 { position += 1 }
    let nameLength = position - nameStart
    var name = HTMLTagName.other
    if nameLength <= nameBuffer.count {
      nameBuffer.withUnsafeMutableBufferPointer { buffer in
        for offset in 0..<nameLength { buffer[offset] = ASCII.lower(base[nameStart + offset]) }
        name = HTMLTagName.identify(UnsafePointer(buffer.baseAddress!), count: nameLength)
      }
    }
    let collects = !isEnd && name.hasUsefulAttributes
    if !attributes.isEmpty { attributes.removeAll(keepingCapacity: true) }
    let attributesStart = position
    wantsAttributes = false
    guard var isSelfClosing = readAttributes(collecting: collects) else {
      position = end
      return name
    }
    if wantsAttributes && !collects && !isEnd {
      // Microdata (`<span itemprop=datePublished content=…>`) and `rel=author` can sit on any
      // element: such a rare tag is read again with its attributes, so other tags still cost no strings.
      position = attributesStart
      isSelfClosing = readAttributes(collecting: true) ?? isSelfClosing
    }
    if isEnd {
      if name == .svg || name == .math { foreignDepth = max(0, foreignDepth - 1) }
      if name != .other || sink.wantsOtherTags { sink.endTag(name) }
    } else {
      if (name == .svg || name == .math) && !isSelfClosing { foreignDepth += 1 }
      if name != .other || !attributes.isEmpty || sink.wantsOtherTags {
        sink.startTag(name, attributes: attributes, isSelfClosing: isSelfClosing)
      }
    }
    return name
  }

  /// Reads attributes up to and including the tag's `>`; returns whether the tag was
  /// self-closing, or `nil` when the input ended first. Inlined, as is `readAttribute`: a call per
  /// tag and per attribute cost more than the scanning of a short one (`<p class="x">`).
  @inline(__always)
  private mutating func readAttributes(collecting: Bool) -> Bool? {
    var isSelfClosing = false
    let classes = ByteClass.table
    while position < end {
      let byte = base[position]
      if classes[Int(byte)] & ByteClass.whitespace != 0 {
        position += 1
        continue
      }
      if byte == UInt8(ascii: ">") {
        position += 1
        return isSelfClosing
      }
      if byte == UInt8(ascii: "/") {
        position += 1
        if position < end, base[position] == UInt8(ascii: ">") {
          position += 1
          return true
        }
        continue
      }
      isSelfClosing = false
      guard readAttribute(collecting: collecting) else { return nil }
    }
    return nil
  }

  /// Reads one attribute starting at its name's first byte; returns `false` at the end of input.
  @inline(__always)
  private mutating func readAttribute(collecting: Bool) -> Bool {
    let nameStart = position
    let classes = ByteClass.table
    position += 1  // The first byte is part of the name even when it is '='.
    while position < end, classes[Int(base[position])] & ByteClass.endsAttributeName == 0 { position += 1 }
    let nameEnd = position
    while position < end, classes[Int(base[position])] & ByteClass.whitespace != 0 { position += 1 }
    guard position < end else { return false }
    var valueRange = position..<position
    var hasValue = false
    if base[position] == UInt8(ascii: "=") {
      position += 1
      while position < end, classes[Int(base[position])] & ByteClass.whitespace != 0 { position += 1 }
      guard position < end else { return false }
      let quote = base[position]
      if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
        guard let close = find(quote, from: position + 1) else { return false }
        valueRange = (position + 1)..<close
        position = close + 1
      } else if quote != UInt8(ascii: ">") {
        let valueStart = position
        while position < end, classes[Int(base[position])] & ByteClass.endsUnquotedValue == 0 {
          position += 1
        }
        valueRange = valueStart..<position
      }
      hasValue = true
    }
    if !collecting {
      let nameLength = nameEnd - nameStart
      if nameLength == 8, isItemprop(at: nameStart) { wantsAttributes = true }
      if nameLength == 3, hasValue, isRel(at: nameStart), contains("author", in: valueRange) {
        wantsAttributes = true
      }
      if looksForDateHints, hasValue, nameLength == 5 || nameLength == 2,
        isClassOrID(at: nameStart, nameLength),
        DateSearch.isDateHint(
          UnsafeBufferPointer(start: base + valueRange.lowerBound, count: valueRange.count))
      {
        wantsAttributes = true
      }
    }
    if collecting, attributes.count < Self.maximumAttributes {
      append(name: nameStart..<nameEnd, value: hasValue ? valueRange : nil)
    }
    return true
  }

  /// Whether the 8 bytes at `index` are `itemprop` in any case.
  @inline(__always)
  private func isItemprop(at index: Int) -> Bool {
    let name: StaticString = "itemprop"
    for offset in 0..<8 where ASCII.lower(base[index + offset]) != name.utf8Start[offset] { return false }
    return true
  }

  /// Whether the `count` bytes at `index` are `class` or `id` in any case.
  @inline(__always)
  private func isClassOrID(at index: Int, _ count: Int) -> Bool {
    if count == 2 {
      return ASCII.lower(base[index]) == UInt8(ascii: "i")
        && ASCII.lower(base[index + 1]) == UInt8(ascii: "d")
    }
    let name: StaticString = "class"
    for offset in 0..<5 where ASCII.lower(base[index + offset]) != name.utf8Start[offset] { return false }
    return true
  }

  /// Whether the 3 bytes at `index` are `rel` in any case.
  @inline(__always)
  private func isRel(at index: Int) -> Bool {
    ASCII.lower(base[index]) == UInt8(ascii: "r") && ASCII.lower(base[index + 1]) == UInt8(ascii: "e")
      && ASCII.lower(base[index + 2]) == UInt8(ascii: "l")
  }

  /// Whether `word` (lower-case ASCII) occurs in `range` in any case.
  private func contains(_ word: StaticString, in range: Range<Int>) -> Bool {
    let count = word.utf8CodeUnitCount
    guard range.count >= count else { return false }
    for start in range.lowerBound...(range.upperBound - count) {
      var offset = 0
      while offset < count, ASCII.lower(base[start + offset]) == word.utf8Start[offset] { offset += 1 }
      if offset == count { return true }
    }
    return false
  }

  /// Adds an attribute unless one of the same name came first.
  private mutating func append(name nameRange: Range<Int>, value valueRange: Range<Int>?) {
    // A name the rules read is told apart by its bytes and takes its constant string; only other
    // names are made into a string, and only they are compared as strings for duplicates.
    let (known, name) = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, nameRange.count)) {
      buffer -> (HTMLAttributeName, String) in
      for offset in 0..<nameRange.count { buffer[offset] = ASCII.lower(base[nameRange.lowerBound + offset]) }
      let known = HTMLAttributeName.identify(UnsafePointer(buffer.baseAddress!), count: nameRange.count)
      if let text = known.text { return (known, text) }
      return (
        known, String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<nameRange.count]), as: UTF8.self)
      )
    }
    for existing in attributes where existing.known == known && (known != .other || existing.name == name) {
      return
    }
    var value = ""
    if let valueRange {
      let length = min(valueRange.count, Self.maximumAttributeLength)
      let raw = UnsafeBufferPointer(start: base + valueRange.lowerBound, count: length)
      if memchr(base + valueRange.lowerBound, Int32(UInt8(ascii: "&")), length) != nil {
        decodedValue.removeAll(keepingCapacity: true)
        CharacterReferences.decode(raw, isAttribute: true, into: &decodedValue)
        value = String(decoding: decodedValue, as: UTF8.self)
      } else {
        value = String(decoding: raw, as: UTF8.self)
      }
    }
    attributes.append(HTMLAttribute(name: name, known: known, value: value))
  }
}
