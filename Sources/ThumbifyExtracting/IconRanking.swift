/// Orders icon candidates for a target size.
///
/// Raster icons come before vector ones (SVG, `mask-icon`, `sizes="any"`). Among raster
/// icons: those at least as big as the target, smallest first; then icons of unknown size;
/// then smaller ones, largest first; other `*icon*` rels (`fluid-icon`) and JSON-LD logos after
/// every real icon. Ties keep document order. `/favicon.ico` at the page's origin is the last
/// candidate unless the page links it itself.
struct IconRanking {
  let targetSize: Int

  /// One icon and what ranking knows about it.
  struct Entry {
    var icon: IconCandidate
    /// The largest side its `sizes` names (or a rel's implied size).
    var size: Int?
    var isVector: Bool
    /// Whether it is a JSON-LD logo or an unusual `*icon*` rel (ranked after every real icon).
    var isLogo = false
  }

  func rank(_ entries: [Entry], page: WebURL?) -> [IconCandidate] {
    var seen: Set<String> = []
    let unique = entries.filter { seen.insert($0.icon.url).inserted }
    let ordered = unique.enumerated().sorted { left, right in
      let leftKey = key(left.element)
      let rightKey = key(right.element)
      if leftKey.group != rightKey.group { return leftKey.group < rightKey.group }
      if leftKey.distance != rightKey.distance { return leftKey.distance < rightKey.distance }
      return left.offset < right.offset
    }
    var icons = ordered.map { $0.element.icon }
    if let page {
      let favicon = page.faviconURL
      if !icons.contains(where: { $0.url == favicon }) { icons.append(IconCandidate(url: favicon)) }
    }
    return icons
  }

  /// A sort key where lower sorts first.
  private func key(_ entry: Entry) -> (group: Int, distance: Int) {
    if entry.isLogo { return (4, 0) }
    if entry.isVector { return (3, 0) }
    guard let size = entry.size else { return (1, 0) }
    if size >= targetSize { return (0, size - targetSize) }
    return (2, targetSize - size)
  }

  /// The largest side named by a `sizes` attribute (`"16x16 32x32"` → 32); `nil` for `any` or garbage.
  static func largestSide(_ sizes: String?) -> Int? {
    guard let sizes else { return nil }
    var largest: Int?
    for token in ASCII.lowercased(sizes).split(whereSeparator: { $0 == " " || $0 == "," }) {
      let parts = token.split(separator: "x")
      guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0
      else {
        continue
      }
      largest = max(largest ?? 0, max(width, height))
    }
    return largest
  }
}
