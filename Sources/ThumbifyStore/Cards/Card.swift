import ThumbifyExtracting

/// Everything a web frontend needs to draw one link card, as written to `cards/<key>.json`.
///
/// A card is derived from a `CrawlRecord` and holds only what drawing needs: no fetch timings or
/// validators, so a card file changes only when what it shows changes (a CDN sees no churn).
/// The schema is `docs/cards.schema.json`; fields are omitted when unknown.
public struct Card: Sendable, Codable, Equatable {
  /// The version written in `schema` (docs/cards.schema.json).
  public static let schemaVersion = 1
  /// Text fields longer than this many characters are cut (a hostile page cannot bloat every card).
  public static let maximumTextLength = 1_000

  /// How the card came to be.
  public enum State: String, Sendable, Codable {
    /// Fetched in this run, or unchanged since the last one.
    case ok
    /// This run failed; the card shows the last good data (see `error`).
    case stale
    /// This run failed and there is no earlier card: only `error`, `url` and `domain` are set.
    case failed
  }

  /// One picture (card image or icon) and its prerendered sizes.
  public struct Picture: Sendable, Codable, Equatable {
    /// The source image's URL, where its thumbnails were made from (absent in cards written by
    /// earlier versions, which did not record it).
    public var url: String?
    /// The source image's full size, for the aspect ratio; absent when unknown (a picture the page
    /// named but nothing has thumbnailed yet, without size hints: `LinkMetadata` from
    /// `LinkMetadataProvider`). A crawl's cards always have it.
    public var width: Int?
    /// The source image's full height, upright (like `width`).
    public var height: Int?
    /// ThumbHash, base64: a blurred preview to draw until a variant has loaded.
    public var placeholder: String?
    /// Dominant colour, `#rrggbb`: the flat placeholder when ThumbHash is not drawn.
    public var color: String?
    /// Alternative text from the page, when it gave one.
    public var alt: String?
    /// The prerendered variants, narrowest first: `srcset` candidates.
    public var variants: [Variant]

    package init(
      url: String?, width: Int?, height: Int?, placeholder: String? = nil, color: String? = nil,
      alt: String? = nil, variants: [Variant] = []
    ) {
      self.url = url
      self.width = width
      self.height = height
      self.placeholder = placeholder
      self.color = color
      self.alt = alt
      self.variants = variants
    }
  }

  /// One prerendered size of a picture.
  public struct Variant: Sendable, Codable, Equatable {
    /// `card`, `card2x`, `icon`, or a `--variant` name.
    public var name: String
    /// Relative to the directory holding `manifest.jsonl` and `cards/`: `blobs/ab/cd/<sha256>.webp`.
    public var path: String
    /// The thumbnail's width in pixels.
    public var width: Int
    /// The thumbnail's height in pixels.
    public var height: Int
    /// `webp`, `jpeg`, `png` or `avif`.
    public var format: String
  }

  /// The video the page declares: a playable file (`kind` `file`, `type` its MIME type) or a
  /// player page to show in an iframe (`kind` `player`, `type` `text/html`).
  public struct Video: Sendable, Codable, Equatable {
    /// An http or https URL.
    public var url: String
    /// The MIME type the page gives (`video/mp4`, `text/html` for a player).
    public var type: String?
    /// The width the page gives, in CSS pixels.
    public var width: Int?
    /// The height the page gives, in CSS pixels.
    public var height: Int?
    /// `file` or `player`; absent when neither the page's type nor the URL says.
    public var kind: MediaKind?
    /// The running time in whole seconds.
    public var duration: Int?
  }

  /// The audio the page declares: a playable file or stream, or a player page, like `Video`.
  public struct Audio: Sendable, Codable, Equatable {
    /// An http or https URL.
    public var url: String
    /// The MIME type the page gives (`audio/mpeg`, `text/html` for a player).
    public var type: String?
    /// `file` or `player`, as for a video.
    public var kind: MediaKind?
    /// The running time in whole seconds.
    public var duration: Int?
  }

  /// Why the last run failed for this URL.
  public struct Failure: Sendable, Codable, Equatable {
    /// The stable error code (docs/errors.md: `dns`, `httpStatus`, `timedOut`, …).
    public var code: String
    /// A sentence for people.
    public var message: String
    /// Where it failed: `fetch`, `render`, `image`, … (absent in cards of earlier versions).
    public var stage: String?
  }

  /// The card schema's version (`schemaVersion`).
  public var schema: Int
  /// The card key: SHA-256 of `normalizedURL`, hex.
  public var key: String
  /// The URL to link to: the canonical URL when it is on the page's host, else the final URL, else
  /// the normalized URL. Always http or https; absent when none of them is.
  public var url: String?
  /// The canonical URL the page declares, on any host (`PageMetadata.canonicalURL`): for
  /// de-duplication and analytics, not for display. Always http or https; absent otherwise.
  public var canonicalURL: String?
  /// The URL as the crawl normalized it (what `key` hashes).
  public var normalizedURL: String
  /// The URL as asked for (LinkPresentation's `originalURL`): as written in the crawl's list, or as
  /// given to `LinkMetadataProvider`. Absent in cards written by earlier versions.
  public var originalURL: String?
  /// The link's host for display, lower-case, without a leading `www.`.
  public var domain: String?
  /// How the card came to be: fetched now, unchanged, or kept from an earlier run.
  public var state: State
  /// `true` when `state` is `stale`: the frontend may mark the card as out of date.
  public var stale: Bool
  /// The page's title (OpenGraph, Twitter, JSON-LD or `<title>`), cut to `maximumTextLength`.
  public var title: String?
  /// The page's summary, cut to `maximumTextLength`.
  public var description: String?
  /// The site's name (`og:site_name`, JSON-LD publisher, or the domain's).
  public var siteName: String?
  /// The page's language (`lang`), for `lang` attributes.
  public var lang: String?
  /// When the page says it was published (`PageMetadata.publishedTime`): RFC 3339, or a date alone.
  public var publishedTime: String?
  /// Where `publishedTime` came from (`PageMetadata.publishedTimeSource`): `meta`, `json-ld`,
  /// `microdata`, `time-element`, `abbr`, `url` or `text`.
  public var publishedTimeSource: String?
  /// When the page says it was last modified (`PageMetadata.modifiedTime`), like `publishedTime`.
  public var modifiedTime: String?
  /// The card image and its thumbnails.
  public var image: Picture?
  /// The site icon and its thumbnails.
  public var icon: Picture?
  /// The video the page declares.
  public var video: Video?
  /// The audio the page declares.
  public var audio: Audio?
  /// The provider's player from the page's oEmbed: one https iframe (`PageMetadata.embed`).
  public var embed: Embed?
  /// `true` when the page looks like a script-built app shell that was not rendered: its card is
  /// empty, and `crawl --render auto` would fill it. Absent otherwise.
  public var needsRendering: Bool?
  /// Why the last run failed for this URL (`state` `failed`, or `stale` with the last good card).
  public var error: Failure?
  /// Why the card has no image although the page named one (every candidate failed to load or
  /// decode); the page itself succeeded.
  public var imageError: Failure?
  /// The parts a stopped crawl did not finish (`CrawlRecord.incomplete`: `render`, `oembed`, `image`,
  /// `icon`): the frontend may draw the card as it is; the next run completes it. Absent when complete.
  public var incomplete: [String]?
}
