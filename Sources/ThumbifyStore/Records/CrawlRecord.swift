import ThumbifyExtracting

/// One line of a crawl's `manifest.jsonl`: everything known about one input URL.
///
/// The schema is versioned (`schema`) and documented in `docs/manifest.schema.json`.
/// Fields are only ever added within a version; readers ignore fields they do not know.
public struct CrawlRecord: Sendable, Codable, Equatable {
  public static let schemaVersion = 1

  /// What happened to the URL in the run that wrote this record.
  public enum Outcome: String, Sendable, Codable {
    /// Fetched and processed in this run.
    case ok
    /// The page answered 304: the previous record was kept without image work.
    case notModified
    /// This run failed and there was no earlier good card.
    case failed
    /// This run failed; the card is the last good one from an earlier run (see `error`).
    case stale
  }

  public var schema: Int
  /// The URL as written in the input.
  public var url: String
  /// The normalized URL used for de-duplication and card keys.
  public var normalizedURL: String
  public var outcome: Outcome
  public var fetch: FetchFacts?
  public var metadata: PageMetadata?
  /// The card image's thumbnails.
  public var image: ThumbnailSet?
  /// The site icon's thumbnails.
  public var icon: ThumbnailSet?
  /// Why this run failed for this URL (set for `failed` and `stale`).
  public var error: RecordError?
  /// Why the card has no image although the page named one (every candidate failed); the page itself
  /// succeeded, so `outcome` stays `ok`.
  public var imageError: RecordError?
  /// Why the card has no icon although candidates existed (every candidate failed).
  public var iconError: RecordError?

  public init(
    url: String, normalizedURL: String, outcome: Outcome, fetch: FetchFacts? = nil,
    metadata: PageMetadata? = nil, image: ThumbnailSet? = nil, icon: ThumbnailSet? = nil,
    error: RecordError? = nil, imageError: RecordError? = nil, iconError: RecordError? = nil
  ) {
    self.schema = Self.schemaVersion
    self.url = url
    self.normalizedURL = normalizedURL
    self.outcome = outcome
    self.fetch = fetch
    self.metadata = metadata
    self.image = image
    self.icon = icon
    self.error = error
    self.imageError = imageError
    self.iconError = iconError
  }
}

/// HTTP facts about the page fetch.
public struct FetchFacts: Sendable, Codable, Equatable {
  public var finalURL: String
  public var status: Int
  public var redirects: [String]?
  public var etag: String?
  public var lastModified: String?
  /// When the page was last fetched with a 2xx, ISO 8601 UTC.
  public var fetchedAt: String
  /// Seconds the page transfer took.
  public var duration: Double?

  public init(
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
  public var message: String
  /// The stage that failed: `fetch`, `extract`, `image`, `icon`, `store`.
  public var stage: String?

  public init(code: String, message: String, stage: String? = nil) {
    self.code = code
    self.message = message
    self.stage = stage
  }
}

extension CrawlRecord {
  /// Every blob this record references (image and icon variants), relative to the output directory.
  public var blobPaths: [String] {
    (image?.variants ?? []).map(\.path) + (icon?.variants ?? []).map(\.path)
  }
}
