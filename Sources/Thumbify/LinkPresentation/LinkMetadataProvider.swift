import Foundation
import ThumbifySystem

/// Fetches one page and reads its link preview: thumbify's counterpart of LinkPresentation's
/// `LPMetadataProvider`, for server programs.
///
/// ```swift
/// let provider = try LinkMetadataProvider()
/// let metadata = try await provider.metadata(for: URL(string: "https://example.com/article")!)
/// print(metadata.title ?? "-", metadata.url?.absoluteString ?? "-")
/// let thumbnails = try await metadata.imageThumbnails([.card])
/// ```
///
/// ## One provider for the whole server
///
/// LinkPresentation wants one `LPMetadataProvider` per request. A thumbify provider is meant to be
/// **shared**: make one when the server starts and call it from every request handler. It holds the
/// fetcher (one libcurl multi loop and its connection pool, per-host politeness), the CPU pool its
/// thumbnails are made on, and the cache, all of which are worth sharing; its calls run
/// concurrently.
///
/// ## Cancelling one call
///
/// Cancel one request by cancelling its task: that call ends with `metadataFetchCancelled` (its
/// transfer is removed from libcurl at once), and the calls of other tasks on the same provider go
/// on. ``cancel()`` cancels every call this instance has in flight at that moment, whoever made it
/// (a shutting-down server's), not calls made after it.
///
/// ```swift
/// let request = Task { try await provider.metadata(for: link) }
/// request.cancel()  // this call only
/// ```
///
/// Errors are typed: a ``LinkPreviewError``, whose `code` is LinkPresentation's (`LPError.Code`) and
/// whose `cause` is thumbify's (`FetchError`, `ThumbnailError`). Whole corpora go through `CrawlJob`.
public final class LinkMetadataProvider: Sendable {
  /// One page's metadata and the HTTP facts of its fetch, under a crawl record's keys and with their
  /// meanings (docs/metadata.md, "URLs"): what `thumbify extract` prints, in both its forms.
  package struct Preview: Sendable, Codable, Equatable {
    /// The version of this shape: a manifest record's (`CrawlRecord.schemaVersion`), whose first
    /// fields these are.
    package var schema: Int
    /// Where the link leads: the page's canonical URL when it is on the page's host, else the URL
    /// after redirects. The canonical URL on any host is `metadata.canonicalURL`.
    package var url: String
    /// The URL asked for, as given.
    package var originalURL: String
    /// Absent for a page that was not fetched (`extract --html`).
    package var fetch: FetchFacts?
    package var metadata: PageMetadata
    /// Set when the page was rendered in headless Chromium: why, and which fields came from it.
    package var render: RenderFacts?
    /// Why the page could not be rendered (its metadata is the served HTML's).
    package var renderError: RecordError?
    /// Why the page's oEmbed endpoint added nothing (as in a manifest record).
    package var oembedError: RecordError?
    /// `true` when the page was not rendered and looks like an app shell that needs it (as in a
    /// manifest record); absent otherwise.
    package var needsRendering: Bool?

    /// The preview of a page read from `pageURL` (after redirects), asked for as `originalURL`.
    package init(
      originalURL: String, pageURL: String, fetch: FetchFacts?, metadata: PageMetadata,
      render: RenderFacts? = nil, renderError: RecordError? = nil, oembedError: RecordError? = nil,
      needsRendering: Bool? = nil
    ) {
      self.schema = CrawlRecord.schemaVersion
      self.url = metadata.canonicalURL(onHostOf: pageURL) ?? pageURL
      self.originalURL = originalURL
      self.fetch = fetch
      self.metadata = metadata
      self.render = render
      self.renderError = renderError
      self.oembedError = oembedError
      self.needsRendering = needsRendering
    }
  }

  /// What `metadata(for:timeout:)` waits at most when the call gives no timeout: 30 s, as
  /// `LPMetadataProvider.timeout`.
  public static let defaultTimeout: Duration = .seconds(30)

  private let fetcher: any Fetching
  private let extractor: any MetadataExtracting
  private let render: RenderStep
  private let oembed: OEmbedStep
  private let cache: (any LinkMetadataCaching)?
  private let pool: CPUPool
  private let calls = InFlightCalls()
  /// The most one call takes unless it says otherwise: the page fetch, its redirect hops, retries and
  /// their waits together (queue time excluded), as `LPMetadataProvider.timeout` is its total. A
  /// longer value than the fetcher's own deadline (`FetcherConfiguration.timeout`, 30 s) is cut to it.
  public let timeout: Duration

  /// A provider over the given stages.
  ///
  /// - Parameters:
  ///   - fetcher: usually one `CurlFetcher` for the process.
  ///   - extractor: reads a page's metadata (`MetadataExtractor`).
  ///   - cache: where fetched metadata is kept and looked up first (`MemoryLinkMetadataCache`,
  ///     `CardDirectoryCache`); `nil` fetches every time.
  ///   - cpuPool: where thumbnails are decoded, resized and encoded; one thread per core by default.
  ///   - timeout: the default for each call.
  ///   - render: which pages are rendered in headless Chromium first (docs/rendering.md): `never`
  ///     (the default), `auto` (pages whose served HTML cannot make a card), `always`. Chromium is
  ///     started by the first page that needs it, its requests all made through `fetcher`; a page
  ///     that cannot be rendered (no Chromium installed, a crash, the budget) keeps the served
  ///     HTML's metadata.
  ///   - renderBudget: what rendering one page may cost.
  ///   - oembed: whether the oEmbed endpoint a page declares is fetched, within the call's timeout
  ///     (docs/metadata.md, "oEmbed"); `discovered` by default.
  package convenience init(
    fetcher: any Fetching, extractor: any MetadataExtracting = MetadataExtractor(),
    cache: (any LinkMetadataCaching)? = nil, cpuPool: CPUPool? = nil, timeout: Duration = defaultTimeout,
    render: RenderMode = .never, renderBudget: RenderBudget = RenderBudget(), oembed: OEmbedMode = .discovered
  ) {
    self.init(
      fetcher: fetcher, extractor: extractor, cache: cache, cpuPool: cpuPool, timeout: timeout,
      render: RenderStep.chromium(mode: render, fetcher: fetcher, budget: renderBudget), oembed: oembed)
  }

  /// A provider whose pages go through `render` (tests give a double renderer).
  package init(
    fetcher: any Fetching, extractor: any MetadataExtracting = MetadataExtractor(),
    cache: (any LinkMetadataCaching)? = nil, cpuPool: CPUPool? = nil, timeout: Duration = defaultTimeout,
    render: RenderStep, oembed: OEmbedMode = .discovered
  ) {
    self.fetcher = fetcher
    self.extractor = extractor
    self.render = render
    self.oembed = OEmbedStep(mode: oembed, fetcher: fetcher)
    self.cache = cache
    self.pool = cpuPool ?? CPUPool(width: ProcessInfo.processInfo.activeProcessorCount)
    self.timeout = timeout
  }

  /// A provider over a new `CurlFetcher` with `configuration` (public addresses only, robots.txt
  /// honoured, by default).
  ///
  /// - Throws: `LinkPreviewError` with code `unknown` when libcurl cannot be initialised.
  public convenience init(
    configuration: FetcherConfiguration = FetcherConfiguration(), cache: (any LinkMetadataCaching)? = nil,
    timeout: Duration = defaultTimeout, render: RenderMode = .never
  ) throws(LinkPreviewError) {
    let fetcher: CurlFetcher
    do {
      fetcher = try CurlFetcher(configuration: configuration)
    } catch {
      throw LinkPreviewError(.fetch(error))
    }
    self.init(fetcher: fetcher, cache: cache, timeout: timeout, render: render)
  }

  /// Fetches `url` (following redirects, within the fetcher's limits and the timeout) and reads its
  /// link preview; answers from the cache when it has the URL.
  ///
  /// `originalURL` is the URL asked for and `url` the canonical URL on the page's host, else the
  /// final URL, as in `LPLinkMetadata`; relative URLs in the page resolve against the final URL
  /// after redirects. The call is cancelled by its task's cancellation and by ``cancel()``.
  ///
  /// - Parameters:
  ///   - url: an http or https URL.
  ///   - timeout: this call's limit; ``timeout`` (30 s unless the provider was made with another)
  ///     when `nil`.
  /// - Throws: `LinkPreviewError`: `metadataFetchTimedOut` past the timeout, `metadataFetchCancelled`
  ///   when cancelled, `metadataFetchFailed` for every other failure (its `cause` says which).
  public func metadata(for url: URL, timeout: Duration? = nil) async throws(LinkPreviewError) -> LinkMetadata
  {
    let text = url.absoluteString
    let normalizedURL: String
    do {
      normalizedURL = try URLNormalization.normalize(text)
    } catch {
      throw LinkPreviewError(.fetch(FetchError(error)))
    }
    let key = CardKey(normalizedURL: normalizedURL)
    if let cached = await cache?.metadata(for: key) { return attached(cached) }
    let deadline = timeout ?? self.timeout
    let fetched = try await calls.run { [self] () async throws(LinkPreviewError) -> Preview in
      do throws(FetchError) {
        return try await preview(for: text, timeout: deadline)
      } catch {
        throw LinkPreviewError(.fetch(error))
      }
    }
    let metadata = attached(LinkMetadata(fetched, normalizedURL: normalizedURL))
    await cache?.store(metadata, for: key)
    return metadata
  }

  /// `metadata`, with this provider as what fetches and thumbnails its pictures: for metadata decoded
  /// from an archive of your own (the provider does this for its cache's entries).
  public func attached(_ metadata: LinkMetadata) -> LinkMetadata {
    var metadata = metadata
    metadata.loader = ThumbnailLoader(
      fetcher: fetcher, pool: pool, decoder: ImageDecoder(), timeout: timeout, calls: calls)
    return metadata
  }

  /// Cancels the calls this provider has in flight, every caller's, thumbnail fetches included: each
  /// throws `metadataFetchCancelled` and its transfer is removed from curl at once. Later calls run
  /// normally. To cancel one caller's call, cancel that caller's task instead.
  public func cancel() {
    calls.cancelAll()
  }

  /// One page's metadata and fetch facts, the one fetch-and-extract path of the provider:
  /// `metadata(for:timeout:)` makes its card of it, `thumbify extract <url>` prints it.
  ///
  /// - Throws: `FetchError` when the page cannot be fetched; `.timedOut` past `timeout`.
  package func preview(for url: String, timeout: Duration? = nil) async throws(FetchError) -> Preview {
    var budget = NetworkBudget(total: timeout ?? self.timeout)
    let fetched = await fetcher.measuredFetch(FetchRequest(url: url, kind: .page, timeout: budget.remaining))
    budget.charge(fetched.networkTime)
    let response = try fetched.result.get()
    // A fetcher that ignores cancellation (a test double) still ends a cancelled call as one.
    if Task.isCancelled { throw .cancelled }
    let rendering = await render.apply(
      to: extractor.extract(
        html: response.body, pageURL: response.finalURL, contentType: response.contentType,
        lastModified: response.lastModified),
      of: response, url: response.requestedURL, extractor: extractor)
    if Task.isCancelled { throw .cancelled }
    let needsRendering =
      render.mode == .never && RenderRule.needsRendering(rendering.metadata, html: response.body)
    // The endpoint gets what the page left of the call's timeout; its failure leaves the page's card.
    let embedding = await oembed.apply(to: rendering.metadata, timeout: budget.remaining)
    if Task.isCancelled { throw .cancelled }
    let fetchedAt = Timestamp.iso8601(Date().timeIntervalSince1970)
    return Preview(
      originalURL: response.requestedURL, pageURL: response.finalURL,
      fetch: FetchFacts(response, fetchedAt: fetchedAt), metadata: embedding.metadata,
      render: rendering.facts, renderError: rendering.error, oembedError: embedding.error,
      needsRendering: needsRendering ? true : nil)
  }
}

extension FetchFacts {
  /// The facts a manifest keeps about a successful page fetch.
  package init(_ response: FetchResponse, fetchedAt: String) {
    self.init(
      finalURL: response.finalURL, status: response.status,
      redirects: response.redirects.isEmpty ? nil : response.redirects, etag: response.etag,
      lastModified: response.lastModified, fetchedAt: fetchedAt, duration: response.duration)
  }
}
