import ThumbifyExtracting

/// What happened to the URL in the run that wrote this record.
public enum CrawlOutcome: String, Sendable, Codable {
  /// Fetched and processed in this run.
  case ok
  /// The page answered 304: the previous record was kept without image work.
  case notModified
  /// This run failed and there was no earlier good card.
  case failed
  /// This run failed; the card is the last good one from an earlier run (see `error`).
  case stale
}

/// One line of a crawl's `manifest.jsonl`: everything known about one input URL.
///
/// The schema is versioned (`schema`) and documented in `docs/manifest.schema.json`.
/// Fields are only ever added within a version; readers ignore fields they do not know.
///
/// Version 2 gave `url` the meaning it has in cards and `extract` (where the link leads) and named the
/// input `originalURL`; version 1 records, which a state database may hold, decode into the same
/// value (their `url` becomes `originalURL`, their metadata's `url` its `canonicalURL`).
package struct CrawlRecord: Sendable, Codable, Equatable {
  package static let schemaVersion = 2

  /// What happened to the URL in the run that wrote this record.
  package typealias Outcome = CrawlOutcome

  package var schema: Int
  /// The URL as asked for: as written in the input (LinkPresentation's `originalURL`).
  package var originalURL: String
  /// The normalized URL used for de-duplication and card keys.
  package var normalizedURL: String
  package var outcome: Outcome
  package var fetch: FetchFacts?
  package var metadata: PageMetadata?
  /// The card image's thumbnails.
  package var image: ThumbnailSet?
  /// The site icon's thumbnails.
  package var icon: ThumbnailSet?
  /// Why this run failed for this URL (set for `failed` and `stale`).
  package var error: RecordError?
  /// Why the card has no image although the page named one (every candidate failed); the page itself
  /// succeeded, so `outcome` stays `ok`.
  package var imageError: RecordError?
  /// Why the card has no icon although candidates existed (every candidate failed).
  package var iconError: RecordError?
  /// Set when the page was rendered in headless Chromium (`--render`): why, and which metadata
  /// fields came from the rendered DOM.
  package var render: RenderFacts?
  /// Why the page could not be rendered (code `renderFailed`, stage `render`); the card is the
  /// served HTML's, and `outcome` stays `ok`.
  package var renderError: RecordError?
  /// Why the page's oEmbed endpoint added nothing (stage `oembed`: a fetch error or
  /// `oembedInvalid`); the card is the page's own, and `outcome` stays `ok`.
  package var oembedError: RecordError?
  /// `true` when the page was not rendered and looks like a script-built app shell whose served HTML
  /// makes an empty card (`RenderRule.needsRendering`): `--render auto` would render it. Absent
  /// otherwise.
  package var needsRendering: Bool?
  /// The parts of the card a stopped crawl did not finish, in the order they are made: `render`,
  /// `oembed`, `image`, `icon` (docs/crawl.md, "Stopping a crawl"). The page was fetched and read, but a
  /// stop (SIGINT, SIGTERM) kept those requests from being sent or cancelled them; their errors are
  /// absent, as nothing failed. Such a record is never the URL's last good one: the next run completes
  /// it (a resumed run makes only the missing parts from the record's metadata; a new run fetches the
  /// page again). Absent when the card is complete.
  package var incomplete: [String]?

  package init(
    originalURL: String, normalizedURL: String, outcome: Outcome, fetch: FetchFacts? = nil,
    metadata: PageMetadata? = nil, image: ThumbnailSet? = nil, icon: ThumbnailSet? = nil,
    error: RecordError? = nil, imageError: RecordError? = nil, iconError: RecordError? = nil,
    render: RenderFacts? = nil, renderError: RecordError? = nil, oembedError: RecordError? = nil,
    needsRendering: Bool? = nil, incomplete: [String]? = nil
  ) {
    self.schema = Self.schemaVersion
    self.originalURL = originalURL
    self.normalizedURL = normalizedURL
    self.outcome = outcome
    self.fetch = fetch
    self.metadata = metadata
    self.image = image
    self.icon = icon
    self.error = error
    self.imageError = imageError
    self.iconError = iconError
    self.render = render
    self.renderError = renderError
    self.oembedError = oembedError
    self.needsRendering = needsRendering
    self.incomplete = incomplete
  }
}

/// HTTP facts about the page fetch.
package struct FetchFacts: Sendable, Codable, Equatable {
  package var finalURL: String
  package var status: Int
  package var redirects: [String]?
  package var etag: String?
  package var lastModified: String?
  /// When the page was last fetched with a 2xx, ISO 8601 UTC.
  package var fetchedAt: String
  /// Seconds the page transfer took.
  package var duration: Double?

  package init(
    finalURL: String, status: Int, redirects: [String]? = nil, etag: String? = nil,
    lastModified: String? = nil, fetchedAt: String, duration: Double? = nil
  ) {
    self.finalURL = finalURL
    self.status = status
    self.redirects = redirects
    self.etag = etag
    self.lastModified = lastModified
    self.fetchedAt = fetchedAt
    self.duration = duration
  }
}

/// A failure as written to a manifest: a stable code and a sentence.
public struct RecordError: Sendable, Codable, Equatable, Error {
  /// A stable identifier: `dns`, `httpStatus`, `undecodableImage`, … (see docs/errors.md).
  public var code: String
  /// A sentence for people.
  public var message: String
  /// The stage that failed: `fetch`, `extract`, `image`, `icon`, `store`.
  public var stage: String?

  package init(code: String, message: String, stage: String? = nil) {
    self.code = code
    self.message = message
    self.stage = stage
  }
}

extension CrawlRecord {
  /// Where the link leads (LinkPresentation's `url`): the page's canonical URL when it is on the
  /// page's host, else the URL after redirects, else — for a page never fetched — the normalized URL.
  /// Written to the JSON, derived on reading.
  package var url: String {
    let page = fetch?.finalURL ?? normalizedURL
    return metadata?.canonicalURL(onHostOf: page) ?? page
  }

  private enum CodingKeys: String, CodingKey {
    case schema, url, originalURL, normalizedURL, outcome, fetch, metadata, image, icon, error, imageError
    case iconError, render, renderError, oembedError, needsRendering, incomplete
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let schema = try container.decode(Int.self, forKey: .schema)
    // Decoded records have the current shape, whatever version they were written in.
    self.schema = max(schema, Self.schemaVersion)
    // Version 1 had the input under `url`.
    originalURL =
      try container.decodeIfPresent(String.self, forKey: .originalURL)
      ?? container.decode(String.self, forKey: .url)
    normalizedURL = try container.decode(String.self, forKey: .normalizedURL)
    outcome = try container.decode(Outcome.self, forKey: .outcome)
    fetch = try container.decodeIfPresent(FetchFacts.self, forKey: .fetch)
    metadata = try container.decodeIfPresent(PageMetadata.self, forKey: .metadata)
    image = try container.decodeIfPresent(ThumbnailSet.self, forKey: .image)
    icon = try container.decodeIfPresent(ThumbnailSet.self, forKey: .icon)
    error = try container.decodeIfPresent(RecordError.self, forKey: .error)
    imageError = try container.decodeIfPresent(RecordError.self, forKey: .imageError)
    iconError = try container.decodeIfPresent(RecordError.self, forKey: .iconError)
    render = try container.decodeIfPresent(RenderFacts.self, forKey: .render)
    renderError = try container.decodeIfPresent(RecordError.self, forKey: .renderError)
    oembedError = try container.decodeIfPresent(RecordError.self, forKey: .oembedError)
    needsRendering = try container.decodeIfPresent(Bool.self, forKey: .needsRendering)
    incomplete = try container.decodeIfPresent([String].self, forKey: .incomplete)
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(schema, forKey: .schema)
    try container.encode(url, forKey: .url)
    try container.encode(originalURL, forKey: .originalURL)
    try container.encode(normalizedURL, forKey: .normalizedURL)
    try container.encode(outcome, forKey: .outcome)
    try container.encodeIfPresent(fetch, forKey: .fetch)
    try container.encodeIfPresent(metadata, forKey: .metadata)
    try container.encodeIfPresent(image, forKey: .image)
    try container.encodeIfPresent(icon, forKey: .icon)
    try container.encodeIfPresent(error, forKey: .error)
    try container.encodeIfPresent(imageError, forKey: .imageError)
    try container.encodeIfPresent(iconError, forKey: .iconError)
    try container.encodeIfPresent(render, forKey: .render)
    try container.encodeIfPresent(renderError, forKey: .renderError)
    try container.encodeIfPresent(oembedError, forKey: .oembedError)
    try container.encodeIfPresent(needsRendering, forKey: .needsRendering)
    try container.encodeIfPresent(incomplete, forKey: .incomplete)
  }

  /// Every blob this record references (image and icon variants), relative to the output directory.
  package var blobPaths: [String] {
    (image?.variants ?? []).map(\.path) + (icon?.variants ?? []).map(\.path)
  }
}
