/// Orders icon candidates for a target size.
///
/// Raster icons at least as big as the target come first, smallest first; then vector icons
/// (SVG, `sizes="any"`), which are rendered at the target size, so they beat any raster icon
/// that would have to be upscaled or might be small; then raster icons of unknown size; then
/// smaller ones, largest first; then `mask-icon` (a one-colour silhouette for Safari's pinned
/// tabs, meant to be recoloured); other `*icon*` rels (`fluid-icon`) and JSON-LD logos after
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
    /// Whether it is a `mask-icon` (a silhouette, ranked after every other real icon).
    var isMask = false
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
    if entry.isLogo { return (5, 0) }
    if entry.isMask { return (4, 0) }
    if entry.isVector { return (1, 0) }
    guard let size = entry.size else { return (2, 0) }
    if size >= targetSize { return (0, size - targetSize) }
    return (3, targetSize - size)
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
