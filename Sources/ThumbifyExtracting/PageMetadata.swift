/// What a page says about itself: the fields of a link card.
///
/// Every field is optional and omitted from JSON when unknown. Precedence rules
/// for each field are documented in `docs/metadata.md`; the JSON shape is
/// `docs/metadata.schema.json`, the same in `extract`'s output and in manifest records. What the page
/// was asked as and where it ended up (`originalURL`, `url`) are facts of the fetch, not of the page:
/// they sit next to this object (`CrawlRecord`, `LinkMetadataProvider.Preview`), not in it.
package struct PageMetadata: Sendable, Codable, Equatable {
  package var title: String?
  package var description: String?
  /// The canonical URL the page declares (`<link rel=canonical>`, else `og:url`), resolved, on any
  /// host, credentials removed: what de-duplication and analytics key on. A link to the page goes to
  /// `canonicalURL(onHostOf:)` instead, which a page cannot point at another site.
  package var canonicalURL: String?
  package var siteName: String?
  package var type: String?
  package var lang: String?
  package var image: ImageCandidate?
  /// Every image candidate, best first.
  package var images: [ImageCandidate]?
  package var icon: IconCandidate?
  /// Every icon candidate, best first.
  package var icons: [IconCandidate]?
  package var video: VideoCandidate?
  /// The page's audio (`og:audio`, JSON-LD, `<audio>`): a podcast episode, a song, a recording.
  package var audio: AudioCandidate?
  /// The discovered oEmbed endpoint URL.
  package var oembed: String?
  /// The player the page's oEmbed endpoint offers, reduced to one https `<iframe src>` (filled by a
  /// crawl or `extract <url>` that fetched the endpoint, `PageMetadata.filledIn(fromOEmbed:endpoint:)`).
  package var embed: Embed?
  package var author: String?
  /// RFC 3339: `2021-05-13T14:01:31-04:00` (the page's offset; UTC as `Z`), or a date alone.
  package var publishedTime: String?
  /// The publication date as the page wrote it, when it could not be converted in full
  /// (ambiguous, impossible, in the future, or a time without a zone), or the structured UTC time
  /// whose day the page's local date replaced (docs/metadata.md, "The date search").
  package var publishedTimeText: String?
  /// Where `publishedTime` came from, so a frontend can weigh it: `meta`, `json-ld`, `microdata`
  /// (the structured sources), else the whole-page search's `time-element`, `url`, `abbr` or `text`
  /// (docs/metadata.md, Dates).
  package var publishedTimeSource: String?
  /// RFC 3339, like `publishedTime`.
  package var modifiedTime: String?
  /// The modification date as written, when it could not be converted in full.
  package var modifiedTimeText: String?
  package var themeColor: String?
  package var twitterCard: String?

  package init() {}
}

extension PageMetadata {
  // Every property must be listed here: a property left out is dropped whenever a record is read
  // back from the state database (JSONWriterTests holds a record with every property to its trip).
  //
  // Manifest records of schema 1, which the state database may still hold, had `url` (the canonical
  // URL, else the page URL) and `originalURL` (the page URL) in here instead of `canonicalURL`.
  private enum LegacyKeys: String, CodingKey { case url, originalURL }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    title = try container.decodeIfPresent(String.self, forKey: .title)
    description = try container.decodeIfPresent(String.self, forKey: .description)
    canonicalURL = try container.decodeIfPresent(String.self, forKey: .canonicalURL)
    siteName = try container.decodeIfPresent(String.self, forKey: .siteName)
    type = try container.decodeIfPresent(String.self, forKey: .type)
    lang = try container.decodeIfPresent(String.self, forKey: .lang)
    image = try container.decodeIfPresent(ImageCandidate.self, forKey: .image)
    images = try container.decodeIfPresent([ImageCandidate].self, forKey: .images)
    icon = try container.decodeIfPresent(IconCandidate.self, forKey: .icon)
    icons = try container.decodeIfPresent([IconCandidate].self, forKey: .icons)
    video = try container.decodeIfPresent(VideoCandidate.self, forKey: .video)
    audio = try container.decodeIfPresent(AudioCandidate.self, forKey: .audio)
    oembed = try container.decodeIfPresent(String.self, forKey: .oembed)
    embed = try container.decodeIfPresent(Embed.self, forKey: .embed)
    author = try container.decodeIfPresent(String.self, forKey: .author)
    publishedTime = try container.decodeIfPresent(String.self, forKey: .publishedTime)
    publishedTimeText = try container.decodeIfPresent(String.self, forKey: .publishedTimeText)
    publishedTimeSource = try container.decodeIfPresent(String.self, forKey: .publishedTimeSource)
    modifiedTime = try container.decodeIfPresent(String.self, forKey: .modifiedTime)
    modifiedTimeText = try container.decodeIfPresent(String.self, forKey: .modifiedTimeText)
    themeColor = try container.decodeIfPresent(String.self, forKey: .themeColor)
    twitterCard = try container.decodeIfPresent(String.self, forKey: .twitterCard)
    if canonicalURL == nil {
      // The old `url` was the page URL when the page declared no usable canonical URL.
      let legacy = try decoder.container(keyedBy: LegacyKeys.self)
      let url = try legacy.decodeIfPresent(String.self, forKey: .url)
      if let url, url != (try legacy.decodeIfPresent(String.self, forKey: .originalURL)) {
        canonicalURL = url
      }
    }
  }
}

extension PageMetadata {
  /// `canonicalURL` when it is on the host of `pageURL` (a leading `www.` ignored on both sides),
  /// else `nil`: where a link to the page leads (the `url` of `extract`, manifest records, cards and
  /// `LinkMetadataProvider.Preview`, the page URL when this is `nil`). A page declaring another
  /// site's URL canonical — an AMP cache, a syndicated copy, or a page passing itself off as
  /// another — does not move the link off the host it was read from.
  ///
  /// - Parameter pageURL: the URL the page was read from, after redirects.
  package func canonicalURL(onHostOf pageURL: String) -> String? {
    guard let canonicalURL, let canonical = WebURL(canonicalURL), let page = WebURL(pageURL),
      Self.isSameSite(canonical.host, page.host)
    else { return nil }
    return canonicalURL
  }

  /// Whether two hosts are equal once a leading `www.` is ignored.
  static func isSameSite(_ first: String, _ second: String) -> Bool {
    func strip(_ host: String) -> Substring { host.hasPrefix("www.") ? host.dropFirst(4) : Substring(host) }
    return strip(first) == strip(second)
  }
}

package struct ImageCandidate: Sendable, Codable, Equatable {
  package var url: String
  package var width: Int?
  package var height: Int?
  package var alt: String?
  package var type: String?

  package init(url: String, width: Int? = nil, height: Int? = nil, alt: String? = nil, type: String? = nil) {
    self.url = url
    self.width = width
    self.height = height
    self.alt = alt
    self.type = type
  }
}

package struct IconCandidate: Sendable, Codable, Equatable {
  package var url: String
  /// The `sizes` attribute as written (`"32x32"`, `"any"`), when present.
  package var sizes: String?
  package var type: String?

  package init(url: String, sizes: String? = nil, type: String? = nil) {
    self.url = url
    self.sizes = sizes
    self.type = type
  }
}

/// What a video or audio URL is: a file or stream a `<video>`/`<audio>` element plays, or a page
/// made to be shown in an `<iframe>` (a provider's player).
public enum MediaKind: String, Sendable, Codable, Equatable {
  /// A playable file or stream (`video/mp4`, `audio/mpeg`, an HLS playlist): its `type` says which.
  case file
  /// An embeddable player page (`text/html`).
  case player
}

package struct VideoCandidate: Sendable, Codable, Equatable {
  package var url: String
  /// The MIME type: as the page gives it, else from the URL's extension (`.mp4` → `video/mp4`);
  /// `text/html` for a player page.
  package var type: String?
  package var width: Int?
  package var height: Int?
  /// A playable file or a player page; `nil` when neither the type nor the URL says.
  package var kind: MediaKind?
  /// The running time in whole seconds (a JSON-LD VideoObject's `duration`).
  package var duration: Int?

  package init(
    url: String, type: String? = nil, width: Int? = nil, height: Int? = nil, kind: MediaKind? = nil,
    duration: Int? = nil
  ) {
    self.url = url
    self.type = type
    self.width = width
    self.height = height
    self.kind = kind
    self.duration = duration
  }
}

package struct AudioCandidate: Sendable, Codable, Equatable {
  package var url: String
  /// The MIME type the page gives (`og:audio:type`), as written: `audio/mpeg`; else from the
  /// URL's extension.
  package var type: String?
  /// A playable file or a player page; `nil` when neither the type nor the URL says.
  package var kind: MediaKind?
  /// The running time in whole seconds (JSON-LD `duration`).
  package var duration: Int?

  package init(url: String, type: String? = nil, kind: MediaKind? = nil, duration: Int? = nil) {
    self.url = url
    self.type = type
    self.kind = kind
    self.duration = duration
  }
}

/// A provider's player from oEmbed, reduced to what is safe to draw: one https iframe on the
/// endpoint's or the provider's registrable domain (`OEmbedResponse.iframeURL`), never the raw `html`.
public struct Embed: Sendable, Codable, Equatable {
  /// The provider's name (`provider_name`).
  public var provider: String?
  /// oEmbed's `type`: `video` or `rich`.
  public var type: String
  /// The player's width in CSS pixels, as the provider gives it.
  public var width: Int?
  /// The player's height in CSS pixels, as the provider gives it.
  public var height: Int?
  /// The `src` of the single `<iframe>` of the oEmbed `html`.
  public var iframeURL: String

  package init(provider: String?, type: String, width: Int? = nil, height: Int? = nil, iframeURL: String) {
    self.provider = provider
    self.type = type
    self.width = width
    self.height = height
    self.iframeURL = iframeURL
  }
}

/// Reads a page's metadata from its bytes. Pure: no network, no shared state.
package protocol MetadataExtracting: Sendable {
  /// - Parameters:
  ///   - html: the page's bytes as received (any charset).
  ///   - pageURL: the URL the page was fetched from (after redirects); relative URLs resolve against it.
  ///   - contentType: the HTTP `Content-Type` header value, whose charset takes precedence over the page's own.
  func extract(html: [UInt8], pageURL: String, contentType: String?) -> PageMetadata

  /// The same for a page fetched over HTTP: its `Last-Modified` header, when it has one, bounds
  /// the page's dates as the clock does (a date more than a day after it is left out).
  func extract(html: [UInt8], pageURL: String, contentType: String?, lastModified: String?) -> PageMetadata
}

extension MetadataExtracting {
  /// Extractors without a date bound of their own ignore `lastModified`.
  package func extract(html: [UInt8], pageURL: String, contentType: String?, lastModified: String?)
    -> PageMetadata
  {
    extract(html: html, pageURL: pageURL, contentType: contentType)
  }
}
