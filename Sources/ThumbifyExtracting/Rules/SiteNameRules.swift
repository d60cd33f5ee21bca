/// `siteName`: every source a page names its site in, in the precedence of docs/metadata.md
/// (Site names). The first that gives a name wins; a title suffix is read only when no source does.
struct SiteNameRules {
  let rules: MetadataRules

  /// What separates a title from a site name appended to it (`Article — The Site`).
  static let titleSeparators = [" | ", " - ", " – ", " — ", " · "]
  /// JSON-LD types that name an organization (a site's owner or publisher).
  static let organizationTypes: Set<String> = ["organization", "newsmediaorganization", "corporation"]
  /// The JSON-LD keys whose objects are looked into for WebSite and Organization nodes.
  static let siteKeys = ["publisher", "isPartOf", "provider", "sourceOrganization"]

  func siteName() -> String? {
    // In order, each read only when the ones before gave nothing.
    if let name = rules.meta("og:site_name").flatMap(Self.clean) { return name }
    if let name = jsonLDName().flatMap(Self.clean) { return name }
    if let name = rules.collector.itemNames.first(where: { $0.property == .publisher }).flatMap({
      Self.clean($0.value)
    }) {
      return name
    }
    if let name = rules.meta("application-name", "apple-mobile-web-app-title").flatMap(Self.clean) {
      return name
    }
    return titleSuffix()
  }

  private static func clean(_ text: String) -> String? {
    TextNormalizer.cleanDecoding(text, limit: TextNormalizer.shortTextLimit)
  }

  /// A `WebSite` node's name; else the `publisher` of the primary node, else of any node; else an
  /// Organization's (`Organization`, `NewsMediaOrganization`, `Corporation`) — each wherever it sits:
  /// a node, an `@id` reference, or nested under `publisher`, `isPartOf`, `provider`,
  /// `sourceOrganization` (three levels at most, so reference cycles end).
  private func jsonLDName() -> String? {
    let graph = rules.jsonLD
    var objects: [JSONValue] = []
    func visit(_ value: JSONValue, depth: Int) {
      guard objects.count < 512 else { return }
      for element in value.elements {
        let resolved = graph.resolve(element)
        guard case .object = resolved else { continue }
        objects.append(resolved)
        guard depth < 3 else { continue }
        for key in Self.siteKeys { if let nested = resolved[key] { visit(nested, depth: depth + 1) } }
      }
    }
    for node in graph.nodes { visit(.object(node), depth: 0) }
    func name(ofType types: Set<String>) -> String? {
      objects.lazy.filter { object in
        guard case .object(let members) = object else { return false }
        return JSONLDGraph.types(of: members).contains(where: types.contains)
      }.compactMap { Self.text($0["name"]) }.first
    }
    let publishers = ([graph.primary].compactMap { $0 } + graph.nodes).lazy.compactMap { $0["publisher"] }
    return name(ofType: ["website"])
      ?? publishers.compactMap { value in
        value.elements.lazy.compactMap {
          Self.text(graph.resolve($0)) ?? Self.text(graph.resolve($0)["name"])
        }
        .first
      }.first
      ?? name(ofType: Self.organizationTypes)
  }

  /// A JSON string, or the first string of an array.
  private static func text(_ value: JSONValue?) -> String? {
    guard let value else { return nil }
    for element in value.elements { if case .string(let text) = element { return text } }
    return nil
  }

  /// The part of `<title>` after its last separator, when something shows it is the site's name:
  /// it matches the host's registrable name (`… | The Verge` on `www.theverge.com`), or `og:title`
  /// is the title without it or ends in the same separator and suffix while not being a copy of the
  /// title (a copy is no evidence: `Rock - Paper - Scissors` twice says nothing).
  private func titleSuffix() -> String? {
    guard
      let title = rules.collector.titleBytes.flatMap({
        TextNormalizer.cleanDecoding($0, limit: TextNormalizer.titleLimit)
      }),
      let (head, separator, suffix) = Self.split(title)
    else { return nil }
    if let host = rules.page?.host, Self.names(suffix, host: host) { return suffix }
    if let openGraph = rules.meta("og:title").flatMap({
      TextNormalizer.cleanDecoding($0, limit: TextNormalizer.titleLimit)
    }),
      openGraph != title, openGraph == head || openGraph.hasSuffix(separator + suffix)
    {
      return suffix
    }
    return nil
  }

  /// A title cut at its last separator; `nil` when there is none or either side is empty.
  static func split(_ title: String) -> (head: String, separator: String, suffix: String)? {
    let characters = Array(title)
    // A separator is a space, one mark, a space; the last one found from the end wins.
    var index = characters.count - 2
    while index > 0 {
      defer { index -= 1 }
      guard characters[index - 1] == " ", characters[index + 1] == " " else { continue }
      let separator = " \(characters[index]) "
      guard titleSeparators.contains(separator) else { continue }
      let head = String(characters[..<(index - 1)])
      let suffix = String(characters[(index + 2)...])
      guard !head.isEmpty, !suffix.isEmpty, suffix.count <= 60 else { return nil }
      return (head, separator, suffix)
    }
    return nil
  }

  /// Whether `suffix` names the host: its first words, letters and digits only and without case,
  /// spell the registrable name (`The Verge` / `theverge.com`, `BBC News` / `bbc.co.uk`) or the
  /// registrable domain (`Example.com`). The registrable name is the label before the public suffix
  /// (`PublicSuffixList`, the same registrable domain a sharded crawl groups hosts by).
  static func names(_ suffix: String, host: String) -> Bool {
    guard let domain = PublicSuffixList.registrableDomain(of: host.lowercased()) else { return false }
    let labels = domain.split(separator: ".").map { String($0) }
    let targets: Set<String> = [normalized(labels[0]), normalized(labels.joined())]
    var spelled = ""
    for word in suffix.split(separator: " ") {
      spelled += normalized(String(word))
      if targets.contains(spelled) { return true }
    }
    return false
  }

  private static func normalized(_ text: String) -> String {
    String(text.lowercased().filter { $0.isLetter || $0.isNumber })
  }
}
