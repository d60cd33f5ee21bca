/// `author`: every source a page names its authors in, in the precedence of docs/metadata.md
/// (Authors), each byline cleaned by `Byline`.
///
/// The first source that gives a name wins. A source that gives only a URL (`<meta name=author
/// content=https://…>`, an `<a rel=author href>` without text) gives no name; such URLs are kept
/// and, when no source named anyone, a profile URL (`/author/jane-doe/`) is read as `Jane Doe`.
struct AuthorRules {
  let rules: MetadataRules

  /// The most characters of `author`: whole names are joined while they fit.
  static let maximumLength = TextNormalizer.shortTextLimit
  /// The most JSON-LD author entries looked at (a hostile page may list 10 000).
  static let maximumJSONLDEntries = 256

  static let metaKeys = [
    "author", "article:author", "parsely-author", "sailthru.author", "dc.creator", "byl",
  ]

  func author() -> String? {
    var (bylines, profileURLs) = jsonLDBylines()
    if let names = join(bylines, profileURLs: &profileURLs) { return names }
    for key in Self.metaKeys {
      if let names = join(rules.meta(key).map { [$0] } ?? [], profileURLs: &profileURLs) { return names }
    }
    let collector = rules.collector
    let microdata =
      collector.metas.filter { $0.key == "itemprop:author" }.map(\.content)
      + collector.itemNames.filter { $0.property == .author }.map(\.value)
    if let names = join(microdata, profileURLs: &profileURLs) { return names }
    if let names = join(
      collector.itemNames.filter { $0.property == .relAuthor }.map(\.value), profileURLs: &profileURLs)
    {
      return names
    }
    profileURLs += collector.authorLinks
    profileURLs += collector.links.filter { $0.rel.contains("author") }.map(\.href)
    return profileURLs.lazy.compactMap { Byline.name(fromProfileURL: $0, base: rules.base) }.first
  }

  /// The names among `bylines` joined with `, ` in order, de-duplicated (ignoring case), while
  /// they fit in `maximumLength`; the URLs among them go to `profileURLs`. `nil` when none is a name.
  private func join(_ bylines: [String], profileURLs: inout [String]) -> String? {
    var joined = ""
    var seen: Set<String> = []
    for byline in bylines {
      switch Byline.read(byline) {
      case .name(let name):
        guard seen.insert(name.lowercased()).inserted else { continue }
        if joined.isEmpty {
          joined = name
        } else if joined.count + 2 + name.count <= Self.maximumLength {
          joined += ", " + name
        } else {
          return joined
        }
      case .url(let url): profileURLs.append(url)
      case nil: continue
      }
    }
    return joined.isEmpty ? nil : joined
  }

  /// The JSON-LD authors, in order: the primary node's `author`, else the first node's that has one —
  /// strings, Persons (`name`, else `givenName familyName`; `url` when there is no name), `@id`
  /// references, arrays and arrays in arrays. Numbers, booleans and nulls are no names.
  private func jsonLDBylines() -> (bylines: [String], profileURLs: [String]) {
    let graph = rules.jsonLD
    guard let value = graph.primary?["author"] ?? graph.first("author") else { return ([], []) }
    var bylines: [String] = []
    var profileURLs: [String] = []
    var entries = 0
    func visit(_ value: JSONValue, depth: Int) {
      guard entries < Self.maximumJSONLDEntries else { return }
      if case .array(let items) = value {
        guard depth < 2 else { return }
        for item in items { visit(item, depth: depth + 1) }
        return
      }
      entries += 1
      // One step: a reference resolves to a whole node, never to another reference, so cycles of
      // `@id`s cannot loop.
      let resolved = graph.resolve(value)
      switch resolved {
      case .string(let text): bylines.append(text)
      case .object:
        if let name = Self.text(resolved["name"]) {
          bylines.append(name)
        } else if let given = Self.text(resolved["givenName"]) {
          bylines.append([given, Self.text(resolved["familyName"])].compactMap { $0 }.joined(separator: " "))
        } else if let url = Self.text(resolved["url"]) {
          // Only a URL: kept for the profile-URL fallback, never a name itself.
          profileURLs.append(url)
        }
      default: return
      }
    }
    visit(value, depth: 0)
    return (bylines, profileURLs)
  }

  /// A JSON string, or the first string of an array; numbers are not text here.
  private static func text(_ value: JSONValue?) -> String? {
    guard let value else { return nil }
    for element in value.elements { if case .string(let text) = element { return text } }
    return nil
  }
}
