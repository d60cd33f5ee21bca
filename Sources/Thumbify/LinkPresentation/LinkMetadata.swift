import Foundation

/// One link's preview: thumbify's `LPLinkMetadata`.
///
/// Made by ``LinkMetadataProvider/metadata(for:timeout:)``, or read back from a cache. Its `Codable`
/// encoding is the link card (`Card`, `docs/cards.schema.json`): the JSON a crawl writes to
/// `cards/<key>.json` decodes into a `LinkMetadata` and a `LinkMetadata` encodes into a card, so a
/// server can archive it the way an app archives `LPLinkMetadata`, and the format stays readable
/// across versions (fields are only added).
///
/// ```swift
/// let metadata = try await provider.metadata(for: URL(string: "https://example.com/article")!)
/// print(metadata.title ?? "-", metadata.url?.absoluteString ?? "-")
/// let thumbnails = try await metadata.imageThumbnails([.card])
/// ```
public struct LinkMetadata: Sendable, Codable, Equatable {
  /// Everything the metadata holds, as a card file does.
  public var card: Card
  /// What fetches and thumbnails the pictures: the provider that made (or read) this metadata. Not
  /// part of the value: not encoded, not compared.
  var loader: ThumbnailLoader?
  /// Set when this call rendered the page in headless Chromium (`render:` of the provider): why, and
  /// which fields came from the rendered DOM. Like the manifest's `render`; not part of the card, so
  /// not encoded or compared (a cached or decoded value has none).
  public internal(set) var render: RenderFacts?
  /// Why this call could not render the page (`renderFailed`, its message naming the cause): the
  /// metadata is then the served HTML's. Not part of the card, like ``render``.
  public internal(set) var renderError: RecordError?

  /// Metadata holding `card`. Its thumbnail accessors need a provider's loader: metadata made this
  /// way (or decoded) has none until ``LinkMetadataProvider/attached(_:)`` gives it one.
  public init(card: Card) {
    self.card = card
  }

  public init(from decoder: any Decoder) throws {
    card = try Card(from: decoder)
  }

  public func encode(to encoder: any Encoder) throws {
    try card.encode(to: encoder)
  }

  public static func == (lhs: LinkMetadata, rhs: LinkMetadata) -> Bool {
    lhs.card == rhs.card
  }
}

extension LinkMetadata {
  /// Where the link leads (`LPLinkMetadata.url`): the page's canonical URL when it is on the page's
  /// host, else the URL after redirects. Always http or https.
  public var url: URL? { card.url.flatMap { URL(string: $0) } }

  /// The URL asked for (`LPLinkMetadata.originalURL`); the normalized URL for a card that does not
  /// record it.
  public var originalURL: URL? { URL(string: card.originalURL ?? card.normalizedURL) }

  /// The canonical URL the page declares, on any host: for de-duplication, not for display.
  public var canonicalURL: URL? { card.canonicalURL.flatMap { URL(string: $0) } }

  /// The page's title (`LPLinkMetadata.title`).
  public var title: String? { card.title }

  /// The page's description (`og:description`, `<meta name=description>`, …).
  public var summary: String? { card.description }

  /// The site's name (`og:site_name`, …).
  public var siteName: String? { card.siteName }

  /// The card image: its source URL and, once thumbnailed by a crawl, its size, placeholder, colour
  /// and stored variants (`LPLinkMetadata.imageProvider`; the pixels come from ``imageThumbnails(_:)``).
  public var image: Card.Picture? { card.image }

  /// The site icon (`LPLinkMetadata.iconProvider`; the pixels come from ``iconThumbnail(_:)``).
  public var icon: Card.Picture? { card.icon }

  /// The card image's source URL (`image?.url` as a `URL`).
  public var imageURL: URL? { card.image?.url.flatMap { URL(string: $0) } }

  /// The site icon's source URL (`icon?.url` as a `URL`).
  public var iconURL: URL? { card.icon?.url.flatMap { URL(string: $0) } }

  /// The video the page declares: a playable file or a player page (`Card.Video.kind`).
  public var video: Card.Video? { card.video }

  /// The page's video when it is a playable file or stream (`LPLinkMetadata.remoteVideoURL`): what
  /// a `<video>` element or AVPlayer plays. A player page is ``embed`` or ``video`` instead.
  public var remoteVideoURL: URL? {
    guard let video = card.video, video.kind == .file else { return nil }
    return URL(string: video.url)
  }

  /// The provider of the page's video, from oEmbed (`provider_name`; LinkPresentation's
  /// `videoProvider` is the video itself, which ``embed`` and ``remoteVideoURL`` give here).
  public var videoProvider: String? { card.video == nil ? nil : card.embed?.provider }

  /// The audio the page declares: a playable file or stream, or a player page.
  public var audio: Card.Audio? { card.audio }

  /// The page's audio when it is a playable file or stream (no `LPLinkMetadata` counterpart; named
  /// like ``remoteVideoURL``).
  public var remoteAudioURL: URL? {
    guard let audio = card.audio, audio.kind == .file else { return nil }
    return URL(string: audio.url)
  }

  /// The provider's player from oEmbed: one https iframe, with its size.
  public var embed: Embed? { card.embed }

  /// Whether the page looks like an app shell that was not rendered (`render: .auto` renders it).
  public var needsRendering: Bool { card.needsRendering == true }

  /// When the page says it was published; midnight UTC for a date alone.
  public var publishedDate: Date? { card.publishedTime.flatMap(Self.date) }

  /// Where the publication date came from: `meta`, `json-ld`, `microdata` or `time-element` (the
  /// page's structured data), else `abbr`, `url` or `text` (the whole-page search, less certain).
  public var publishedDateSource: String? { card.publishedTimeSource }

  /// When the page says it was last modified; midnight UTC for a date alone.
  public var modifiedDate: Date? { card.modifiedTime.flatMap(Self.date) }

  /// An RFC 3339 date-time (with or without fractional seconds) or a date alone, as
  /// `PageMetadata.publishedTime` holds them.
  static func date(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withFullDate]
    return formatter.date(from: text)
  }
}

extension LinkMetadata {
  /// The metadata of a fetched page: the card a crawl would write for it, with its pictures named
  /// but not yet thumbnailed (`width`/`height` from the page's own hints, else absent; no variants).
  init(_ preview: LinkMetadataProvider.Preview, normalizedURL: String) {
    let record = CrawlRecord(
      originalURL: preview.originalURL, normalizedURL: normalizedURL, outcome: .ok, fetch: preview.fetch,
      metadata: preview.metadata, needsRendering: preview.needsRendering)
    var card = Card(record: record)
    let metadata = preview.metadata
    card.image = metadata.image.map {
      Card.Picture(
        url: $0.url, width: $0.width, height: $0.height, alt: Card.text($0.alt))
    }
    card.icon = metadata.icon.map { Card.Picture(url: $0.url, width: nil, height: nil) }
    self.init(card: card)
    render = preview.render
    renderError = preview.renderError
  }
}
