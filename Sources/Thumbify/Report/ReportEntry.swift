/// A card as the report page embeds it: the fields the page draws, nothing else.
///
/// The same field names and shapes as a card file, so code that draws card files draws these too;
/// `schema`, `key` and `stale` are left out to keep a 100,000-card page small.
struct ReportEntry: Encodable {
  var card: Card

  private enum CodingKeys: String, CodingKey {
    case url, normalizedURL, domain, state, title, description, siteName, lang, image, icon, video, error,
      imageError, needsRendering
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(card.url, forKey: .url)
    if card.url == nil { try container.encode(card.normalizedURL, forKey: .normalizedURL) }
    try container.encodeIfPresent(card.domain, forKey: .domain)
    try container.encode(card.state, forKey: .state)
    try container.encodeIfPresent(card.title, forKey: .title)
    try container.encodeIfPresent(card.description, forKey: .description)
    try container.encodeIfPresent(card.siteName, forKey: .siteName)
    try container.encodeIfPresent(card.lang, forKey: .lang)
    try container.encodeIfPresent(card.image, forKey: .image)
    try container.encodeIfPresent(card.icon, forKey: .icon)
    try container.encodeIfPresent(card.video, forKey: .video)
    try container.encodeIfPresent(card.error, forKey: .error)
    try container.encodeIfPresent(card.imageError, forKey: .imageError)
    try container.encodeIfPresent(card.needsRendering, forKey: .needsRendering)
  }
}
