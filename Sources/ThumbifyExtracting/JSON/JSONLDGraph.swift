/// The JSON-LD of a page, flattened for the metadata rules.
///
/// Every block's top-level objects, arrays, `@graph` members and `mainEntity` objects become
/// nodes in document order; `{"@id": …}` references resolve to the node with that `@id`.
/// The primary node is the first one of a content type (Article, Product, VideoObject, …),
/// else the first WebPage, else none: site-wide Organization, WebSite and BreadcrumbList
/// nodes never provide a title.
struct JSONLDGraph {
  private(set) var nodes: [[String: JSONValue]] = []
  private var byID: [String: [String: JSONValue]] = [:]
  /// The node the page is about, if any (see the type's discussion).
  private(set) var primary: [String: JSONValue]?

  /// Types that describe the site or navigation, never the page's own content.
  private static let ancillaryTypes: Set<String> = [
    "organization", "newsmediaorganization", "corporation", "website", "breadcrumblist", "listitem", "person",
    "imageobject", "searchaction", "sitenavigationelement", "wpheader", "wpfooter", "wpsidebar", "brand",
    "contactpoint", "postaladdress", "offer", "aggregateoffer", "aggregaterating", "rating", "readaction",
    "entrypoint", "itemlist", "educationalorganization", "localbusiness", "place", "geocoordinates",
  ]
  private static let pageTypes: Set<String> = [
    "webpage", "itempage", "aboutpage", "profilepage", "collectionpage", "qapage", "faqpage",
    "searchresultspage", "checkoutpage", "contactpage", "medicalwebpage", "realestatelisting",
  ]

  init(blocks: [[UInt8]]) {
    for block in blocks {
      let values = block.withUnsafeBufferPointer { LenientJSONParser.parseAll($0) }
      for value in values { add(value, depth: 0) }
    }
    primary = Self.findPrimary(in: nodes)
  }

  private mutating func add(_ value: JSONValue, depth: Int) {
    guard depth < 8, nodes.count < 512 else { return }
    switch value {
    case .array(let items):
      for item in items { add(item, depth: depth + 1) }
    case .object(let members):
      if members["@type"] != nil || members["@graph"] == nil { nodes.append(members) }
      if let id = members["@id"]?.stringValue, members.count > 1, byID[id] == nil { byID[id] = members }
      if let graph = members["@graph"] { add(graph, depth: depth + 1) }
      if let main = members["mainEntity"], case .object = main { add(main, depth: depth + 1) }
    default:
      break
    }
  }

  /// The lower-cased `@type`s of a node.
  static func types(of node: [String: JSONValue]) -> [String] {
    (node["@type"]?.elements ?? []).compactMap { $0.stringValue.map(ASCII.lowercased) }
  }

  private static func findPrimary(in nodes: [[String: JSONValue]]) -> [String: JSONValue]? {
    if let content = nodes.first(where: { node in
      let types = Self.types(of: node)
      return !types.isEmpty
        && types.allSatisfy { !Self.ancillaryTypes.contains($0) && !Self.pageTypes.contains($0) }
    }) {
      return content
    }
    return nodes.first { Self.types(of: $0).contains { Self.pageTypes.contains($0) } }
  }

  /// Follows a `{"@id": …}` reference to its node; other values are returned as they are.
  func resolve(_ value: JSONValue) -> JSONValue {
    if case .object(let members) = value, members.count == 1, let id = members["@id"]?.stringValue,
      let node = byID[id]
    {
      return .object(node)
    }
    return value
  }

  /// A string field, or the `name` of an object (or the first of an array) in it.
  func name(_ value: JSONValue?) -> String? {
    guard let value else { return nil }
    for element in value.elements {
      let resolved = resolve(element)
      if let text = resolved.stringValue { return text }
      if let name = resolved["name"]?.stringValue { return name }
    }
    return nil
  }

  /// Image URLs (with sizes when given) from a string, ImageObject, or array of either.
  func images(_ value: JSONValue?) -> [ImageCandidate] {
    guard let value else { return [] }
    var found: [ImageCandidate] = []
    for element in value.elements {
      let resolved = resolve(element)
      if let url = resolved.stringValue {
        found.append(ImageCandidate(url: url))
      } else if let url = (resolved["url"] ?? resolved["contentUrl"])?.stringValue {
        found.append(
          ImageCandidate(
            url: url, width: resolved["width"].flatMap(Self.integer),
            height: resolved["height"].flatMap(Self.integer),
            alt: resolved["caption"]?.stringValue))
      }
    }
    return found
  }

  /// A positive integer from a number, a numeric string, or a QuantitativeValue.
  static func integer(_ value: JSONValue) -> Int? {
    if case .number(let number) = value, number >= 1, number < 1e6 { return Int(number) }
    if let text = value["value"]?.stringValue ?? value.stringValue { return Self.leadingInteger(text) }
    return nil
  }

  /// The digits a string starts with (`"1200px"` → 1200), when positive.
  static func leadingInteger(_ text: String) -> Int? {
    let trimmed = ASCII.trimmed(text)
    // Byte by byte, the usual case; a non-ASCII byte right after the digits may be a combining
    // mark that makes the last digit a Character that is no number, so it takes the Character path.
    var digitCount = 0
    var value = 0
    for byte in trimmed.utf8 {
      guard ASCII.isDigit(byte) else {
        if byte >= 0x80 && digitCount > 0 { return leadingIntegerByCharacter(trimmed) }
        break
      }
      digitCount += 1
      if digitCount < 7 { value = value * 10 + Int(byte - UInt8(ascii: "0")) }
    }
    guard digitCount > 0, digitCount < 7, value > 0 else { return nil }
    return value
  }

  private static func leadingIntegerByCharacter(_ trimmed: String) -> Int? {
    let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, digits.count < 7, let value = Int(digits), value > 0 else { return nil }
    return value
  }

  /// The first value of `key` in the primary node, else in any node.
  func first(_ key: String) -> JSONValue? {
    if let value = primary?[key] { return value }
    return nodes.lazy.compactMap { $0[key] }.first
  }
}
