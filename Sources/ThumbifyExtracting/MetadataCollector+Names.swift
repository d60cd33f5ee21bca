/// Authors and publishers named by elements other than `<meta>`: microdata `itemprop=author` and
/// `itemprop=publisher` (the element's `content`, its text, or — with `itemscope` — the nested
/// `itemprop=name`) and `<a rel=author>` (its text and `href`). `AuthorRules` and `SiteNameRules`
/// read them.
extension MetadataCollector {
  /// A name one element gives.
  struct ItemName: Equatable {
    enum Property: Equatable {
      /// `itemprop=author`.
      case author
      /// `itemprop=publisher`.
      case publisher
      /// `<a rel=author>`'s text.
      case relAuthor
    }
    var property: Property
    var value: String
  }

  /// A microdata item (`itemprop=author itemscope`) whose nested `itemprop=name` is awaited.
  struct ItemScope {
    var property: ItemName.Property
    /// Elements open inside the item; its own end tag takes this below zero.
    var depth = 0
    /// Tags still looked at: without a tree, an element whose end tag is missing (or a void element
    /// such as `<img>`, which has none) would otherwise keep the item open to the end of the page.
    var tagsLeft = 64
  }

  static let maximumItemNames = 64
  static let maximumAuthorLinks = 16

  /// Called for every start tag while an item is open, and for tags with attributes otherwise.
  mutating func names(_ name: HTMLTagName, attributes: [HTMLAttribute], isSelfClosing: Bool) {
    if var scope = itemScope {
      let itemprop = attributes.first { $0.known == .itemprop }.map { Self.relTokens($0.value) } ?? []
      if itemprop.contains("name") {
        itemScope = nil
        take(scope.property, attributes: attributes, isSelfClosing: isSelfClosing || name == .meta)
        return
      }
      scope.tagsLeft -= 1
      if !isSelfClosing && name != .meta && name != .link && name != .base { scope.depth += 1 }
      itemScope = scope.tagsLeft > 0 ? scope : nil
    }
    guard name != .meta, name != .link, itemNames.count < Self.maximumItemNames else { return }
    var properties: [ItemName.Property] = []
    if let itemprop = attributes.first(where: { $0.known == .itemprop }) {
      let tokens = Self.relTokens(itemprop.value)
      for (token, property) in [("author", ItemName.Property.author), ("publisher", .publisher)]
      where tokens.contains(token) {
        if attributes.contains(where: { $0.known == .itemscope }) {
          if !isSelfClosing { itemScope = ItemScope(property: property) }
        } else {
          properties.append(property)
        }
      }
    }
    if let rel = attributes.first(where: { $0.known == .rel }), Self.relTokens(rel.value).contains("author") {
      if let href = attributes.first(where: { $0.known == .href })?.value,
        authorLinks.count < Self.maximumAuthorLinks
      {
        authorLinks.append(href)
      }
      properties.append(.relAuthor)
    }
    if !properties.isEmpty { take(properties, attributes: attributes, isSelfClosing: isSelfClosing) }
  }

  /// The element's `content`, else its text up to the first end tag.
  private mutating func take(
    _ properties: [ItemName.Property], attributes: [HTMLAttribute], isSelfClosing: Bool
  ) {
    if let content = attributes.first(where: { $0.known == .content })?.value, !ASCII.isBlank(content) {
      for property in properties { itemNames.append(ItemName(property: property, value: content)) }
    } else if !isSelfClosing {
      startText(.names(properties))
    }
  }

  private mutating func take(_ property: ItemName.Property, attributes: [HTMLAttribute], isSelfClosing: Bool)
  {
    take([property], attributes: attributes, isSelfClosing: isSelfClosing)
  }

  /// An end tag while an item is open.
  mutating func endTagInItem() {
    guard var scope = itemScope else { return }
    scope.depth -= 1
    itemScope = scope.depth < 0 ? nil : scope
  }
}
