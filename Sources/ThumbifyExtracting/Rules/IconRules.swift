/// Icon candidates in document order: every `link` whose rel has a token containing `icon`,
/// then JSON-LD publisher/organization logos.
struct IconRules {
  let rules: MetadataRules

  /// The rel tokens that name a page icon proper.
  static let standardRels: Set<String> = ["icon", "shortcut", "mask-icon"]

  func candidates() -> [IconRanking.Entry] {
    var entries: [IconRanking.Entry] = []
    for link in rules.collector.links where link.rel.contains(where: { Self.contains($0, "icon") }) {
      guard let url = rules.resolve(link.href) else { continue }
      let type = link.type.flatMap { TextNormalizer.clean($0, limit: 100) }
      let sizes = link.sizes.flatMap { TextNormalizer.clean($0, limit: 100) }
      let isVector =
        link.rel.contains("mask-icon") || type.map { Self.contains(ASCII.lowercased($0), "svg") } == true
        || ASCII.lowercased(url.path).hasSuffix(".svg") || sizes.map(ASCII.lowercased) == "any"
      let isStandard = link.rel.contains {
        Self.standardRels.contains($0) || $0.hasPrefix("apple-touch-icon")
      }
      var size = IconRanking.largestSide(sizes)
      if size == nil, link.rel.contains(where: { $0.hasPrefix("apple-touch-icon") }) { size = 180 }
      entries.append(
        IconRanking.Entry(
          icon: IconCandidate(url: url.description, sizes: sizes, type: type), size: size, isVector: isVector,
          isMask: link.rel.contains("mask-icon"), isLogo: !isStandard))
    }
    var logos: [ImageCandidate] = []
    logos += rules.jsonLD.images(rules.jsonLD.primary?["publisher"].map(rules.jsonLD.resolve)?["logo"])
    for node in rules.jsonLD.nodes { logos += rules.jsonLD.images(node["logo"]) }
    for node in rules.jsonLD.nodes {
      logos += rules.jsonLD.images(node["publisher"].map(rules.jsonLD.resolve)?["logo"])
    }
    for logo in logos {
      guard let url = rules.resolve(logo.url) else { continue }
      let size = [logo.width, logo.height].compactMap { $0 }.max()
      let sizes = logo.width.flatMap { width in logo.height.map { "\(width)x\($0)" } }
      entries.append(
        IconRanking.Entry(
          icon: IconCandidate(url: url.description, sizes: sizes), size: size,
          isVector: ASCII.lowercased(url.path).hasSuffix(".svg"), isLogo: true))
    }
    return entries
  }

  /// Whether `text` contains the ASCII `needle`. An ASCII text is searched byte by byte, which
  /// answers as the Unicode-aware `String.contains` does without its cost (it goes through
  /// Foundation); any other text takes that path.
  static func contains(_ text: String, _ needle: StaticString) -> Bool {
    let found = text.utf8.withContiguousStorageIfAvailable { haystack -> Bool? in
      guard haystack.allSatisfy({ $0 < 0x80 }) else { return nil }
      let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
      guard haystack.count >= pattern.count else { return false }
      for start in 0...(haystack.count - pattern.count)
      where UnsafeBufferPointer(rebasing: haystack[start..<(start + pattern.count)]).elementsEqual(pattern) {
        return true
      }
      return false
    }
    if let found, let found { return found }
    return text.contains(String(describing: needle))
  }
}
