import Foundation
import ThumbifySystem

/// Fetches one page and reads its link-card metadata: thumbify's counterpart of
/// LinkPresentation's `LPMetadataProvider`, for server programs.
///
/// ```swift
/// let provider = LinkMetadataProvider(fetcher: try CurlFetcher())
/// let preview = try await provider.metadata(for: "https://example.com/article")
/// print(preview.metadata.title ?? "-", preview.url)
/// ```
///
/// Errors are typed: a `FetchError`, whose `family` is LinkPresentation's
/// (`cancelled`, `failed`, `timedOut`, `unknown`). Thumbnails of the card image and
/// icon are made with `Thumbnailer`; whole corpora go through `CrawlJob`.
public struct LinkMetadataProvider: Sendable {
  /// One page's metadata and the HTTP facts of its fetch, under a crawl record's keys and with their
  /// meanings (docs/metadata.md, "URLs"): what `thumbify extract` prints, in both its forms.
  public struct Preview: Sendable, Codable, Equatable {
    /// The version of this shape: a manifest record's (`CrawlRecord.schemaVersion`), whose first
    /// fields these are.
    public var schema: Int
    /// Where the link leads: the page's canonical URL when it is on the page's host, else the URL
    /// after redirects. The canonical URL on any host is `metadata.canonicalURL`.
    public var url: String
    /// The URL asked for, as given.
    public var originalURL: String
    /// Absent for a page that was not fetched (`extract --html`).
    public var fetch: FetchFacts?
    public var metadata: PageMetadata

    /// The preview of a page read from `pageURL` (after redirects), asked for as `originalURL`.
    public init(originalURL: String, pageURL: String, fetch: FetchFacts?, metadata: PageMetadata) {
      self.schema = CrawlRecord.schemaVersion
      self.url = metadata.canonicalURL(onHostOf: pageURL) ?? pageURL
      self.originalURL = originalURL
      self.fetch = fetch
      self.metadata = metadata
    }
  }

  private let fetcher: any Fetching
  private let extractor: any MetadataExtracting
  /// The most one `metadata(for:)` call takes: the page fetch, its redirect hops, retries and their
  /// waits together (queue time excluded), as `LPMetadataProvider.timeout` is its total. `nil`, the
  /// default, is the fetcher's own deadline (`FetcherConfiguration.timeout`, 30 s); a longer value
  /// is cut to it.
  public var timeout: Duration?

  public init(
    fetcher: any Fetching, extractor: any MetadataExtracting = MetadataExtractor(), timeout: Duration? = nil
  ) {
    self.fetcher = fetcher
    self.extractor = extractor
    self.timeout = timeout
  }

  /// Fetches `url` (following redirects, within the fetcher's limits and `timeout`) and extracts its
  /// metadata.
  ///
  /// `originalURL` is the URL asked for and `url` the canonical URL on the page's host, else the
  /// final URL, as in `LPLinkMetadata`; relative URLs in the page resolve against the final URL
  /// after redirects.
  /// - Throws: `FetchError` when the page cannot be fetched; `.timedOut` past `timeout`.
  public func metadata(for url: String) async throws(FetchError) -> Preview {
    let response = try await fetcher.fetch(FetchRequest(url: url, kind: .page, timeout: timeout))
    let metadata = extractor.extract(
      html: response.body, pageURL: response.finalURL, contentType: response.contentType)
    let fetchedAt = Timestamp.iso8601(Date().timeIntervalSince1970)
    return Preview(
      originalURL: response.requestedURL, pageURL: response.finalURL,
      fetch: FetchFacts(response, fetchedAt: fetchedAt), metadata: metadata)
  }
}

extension FetchFacts {
  /// The facts a manifest keeps about a successful page fetch.
  public init(_ response: FetchResponse, fetchedAt: String) {
    self.init(
      finalURL: response.finalURL, status: response.status,
      redirects: response.redirects.isEmpty ? nil : response.redirects, etag: response.etag,
      lastModified: response.lastModified, fetchedAt: fetchedAt, duration: response.duration)
  }
}
