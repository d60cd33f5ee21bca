/// What a fetch is for; each kind has its own body cap and accepted types.
public enum ResourceKind: String, Sendable, Codable {
  case page, image, robots
}

/// One HTTP GET.
public struct FetchRequest: Sendable, Hashable {
  public var url: String
  public var kind: ResourceKind
  /// Validators from an earlier run: sent as `If-None-Match` / `If-Modified-Since`.
  public var etag: String?
  public var lastModified: String?

  public init(url: String, kind: ResourceKind, etag: String? = nil, lastModified: String? = nil) {
    self.url = url
    self.kind = kind
    self.etag = etag
    self.lastModified = lastModified
  }
}

/// The outcome of a successful fetch (2xx, or 304 when validators were sent).
public struct FetchResponse: Sendable {
  public var requestedURL: String
  public var finalURL: String
  /// Every URL redirected through, in order, excluding `finalURL`.
  public var redirects: [String]
  public var status: Int
  /// True when the server answered 304 to a conditional request; `body` is empty.
  public var isNotModified: Bool
  public var contentType: String?
  public var etag: String?
  public var lastModified: String?
  /// The decoded body (after Content-Encoding), at most the kind's cap.
  public var body: [UInt8]
  /// Seconds from handing the transfer to curl to its completion (queue time excluded).
  public var duration: Double
  /// The HTTP version of the final response: `1.0`, `1.1`, `2` or `3`.
  public var httpVersion: String?
  /// True when the body was cut at the kind's cap and kept (only robots.txt is kept so).
  public var isTruncated: Bool

  public init(
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

/// Fetches URLs. The production type is `CurlFetcher`; tests use doubles.
public protocol Fetching: Sendable {
  func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse
}
