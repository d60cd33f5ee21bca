/// What a fetch is for; each kind has its own body cap and accepted types.
public enum ResourceKind: String, Sendable, Codable {
  /// An HTML page (or the document a URL names).
  case page
  /// An image: a card image or an icon.
  case image
  /// A host's robots.txt.
  case robots
  /// What a rendered page's scripts ask for (scripts, JSON, style sheets): any type
  /// (docs/rendering.md).
  case subresource
  /// A page's oEmbed endpoint (docs/metadata.md, "oEmbed"): JSON or XML, robots.txt honoured like
  /// a page, a small cap.
  case oembed
}

/// One HTTP GET.
package struct FetchRequest: Sendable, Hashable {
  package var url: String
  package var kind: ResourceKind
  /// Validators from an earlier run: sent as `If-None-Match` / `If-Modified-Since`.
  package var etag: String?
  package var lastModified: String?
  /// A deadline below the fetcher's own (`FetcherConfiguration.timeout`), counted the same way: what
  /// is left of a whole URL's budget after its page and earlier image fetches. `nil`: the fetcher's.
  package var timeout: Duration?
  /// Its place in its host's queue: lower goes first, equal ones in the order they were made
  /// (`HostQueue`). The crawler gives a page and its images the page's line number; robots.txt
  /// goes before everything.
  package var priority: Int

  package init(
    url: String, kind: ResourceKind, etag: String? = nil, lastModified: String? = nil,
    timeout: Duration? = nil, priority: Int = 0
  ) {
    self.url = url
    self.kind = kind
    self.etag = etag
    self.lastModified = lastModified
    self.timeout = timeout
    self.priority = priority
  }
}

/// The outcome of a successful fetch (2xx, or 304 when validators were sent).
package struct FetchResponse: Sendable {
  package var requestedURL: String
  package var finalURL: String
  /// Every URL redirected through, in order, excluding `finalURL`.
  package var redirects: [String]
  package var status: Int
  /// True when the server answered 304 to a conditional request; `body` is empty.
  package var isNotModified: Bool
  package var contentType: String?
  package var etag: String?
  package var lastModified: String?
  /// The decoded body (after Content-Encoding), at most the kind's cap.
  package var body: [UInt8]
  /// Seconds from handing the transfer to curl to its completion (queue time excluded).
  package var duration: Double
  /// The HTTP version of the final response: `1.0`, `1.1`, `2` or `3`.
  package var httpVersion: String?
  /// True when the body was cut at the kind's cap and kept (only robots.txt is kept so).
  package var isTruncated: Bool

  package init(
    requestedURL: String, finalURL: String, redirects: [String] = [], status: Int,
    isNotModified: Bool = false, contentType: String? = nil, etag: String? = nil,
    lastModified: String? = nil, body: [UInt8] = [], duration: Double = 0, httpVersion: String? = nil,
    isTruncated: Bool = false
  ) {
    self.requestedURL = requestedURL
    self.finalURL = finalURL
    self.redirects = redirects
    self.status = status
    self.isNotModified = isNotModified
    self.contentType = contentType
    self.etag = etag
    self.lastModified = lastModified
    self.body = body
    self.duration = duration
    self.httpVersion = httpVersion
    self.isTruncated = isTruncated
  }
}

/// A fetch's outcome and the network time it used, which is what counts against its timeout.
package struct MeasuredFetch: Sendable {
  package var result: Result<FetchResponse, FetchError>
  /// Its transfers, redirect hops, failed attempts and the waits between retries; the time spent
  /// waiting in a host's queue excluded.
  package var networkTime: Duration

  package init(result: Result<FetchResponse, FetchError>, networkTime: Duration) {
    self.result = result
    self.networkTime = networkTime
  }
}

/// Fetches URLs. The production type is `CurlFetcher`; tests use doubles.
package protocol Fetching: Sendable {
  func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse
  /// `fetch`, reporting the network time it used whether it succeeded or not, so that a caller can
  /// share one deadline among several fetches (a page and its image candidates).
  func measuredFetch(_ request: FetchRequest) async -> MeasuredFetch
  /// Sends no request from now on, for good: requests waiting in a queue (a host's limit or delay,
  /// robots.txt) and every later fetch end with `FetchError.stopped` at once; transfers already sent
  /// go on. A crawl's stop (`CrawlJob.stop`) calls it, so that nothing new leaves after a signal.
  func stopStartingRequests()
}

extension Fetching {
  /// For fetchers without queues (test doubles): nothing to stop.
  package func stopStartingRequests() {}

  /// For fetchers without queues (test doubles): the time `fetch` took.
  package func measuredFetch(_ request: FetchRequest) async -> MeasuredFetch {
    let clock = ContinuousClock()
    let start = clock.now
    do {
      let response = try await fetch(request)
      return MeasuredFetch(result: .success(response), networkTime: clock.now - start)
    } catch {
      return MeasuredFetch(result: .failure(error), networkTime: clock.now - start)
    }
  }
}

extension Duration {
  /// `2 s`, `1.5 s`, `0.25 s`: a timeout as messages name it.
  package var secondsText: String {
    let milliseconds =
      Double(components.seconds) * 1000 + Double(components.attoseconds / 1_000_000_000_000_000)
    let seconds = (milliseconds / 10).rounded() / 100
    return seconds == seconds.rounded() && abs(seconds) < 1e15 ? "\(Int(seconds)) s" : "\(seconds) s"
  }
}
