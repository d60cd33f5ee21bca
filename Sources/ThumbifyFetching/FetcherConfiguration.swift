import ThumbifySystem

/// Everything `CurlFetcher` can be tuned with; the defaults are the documented ones.
///
/// ```swift
/// var configuration = FetcherConfiguration()
/// configuration.timeout = .seconds(10)
/// configuration.contactURL = "https://example.org/bot"
/// let fetcher = try CurlFetcher(configuration: configuration)
/// ```
public struct FetcherConfiguration: Sendable {
  /// Transfers handed to curl at once, over all hosts.
  public var maxConcurrentTransfers = 64
  /// Transfers handed to curl at once for one host (the host of the requested URL).
  public var maxTransfersPerHost = 2
  /// Minimum time between the starts of two transfers to one host.
  /// `Crawl-delay` from robots.txt raises it per host, up to `maxCrawlDelay`.
  public var perHostDelay: Duration = .zero
  /// The deadline of one fetch: its transfers, redirect hops, failed attempts and the waits between
  /// retries together (time waiting in a host's queue excluded). LinkPresentation's default, 30 s.
  /// A retry is made only when its wait leaves at least a second of it.
  public var timeout: Duration = .seconds(30)
  /// Time the TCP and TLS handshakes may take.
  public var connectTimeout: Duration = .seconds(10)
  /// A transfer slower than `lowSpeedLimit` bytes/s for `lowSpeedTime` is aborted as timed out.
  public var lowSpeedLimit = 100
  /// How long a transfer may stay under `lowSpeedLimit`.
  public var lowSpeedTime: Duration = .seconds(10)
  /// Decoded-body caps per kind, in bytes.
  public var bodyLimits: [ResourceKind: Int] = [
    .page: 2 << 20, .image: 10 << 20, .robots: 500 << 10, .subresource: 2 << 20, .oembed: 256 << 10,
  ]
  /// Redirects followed before `FetchError.tooManyRedirects`.
  public var maxRedirects = 5
  /// The URL in the `User-Agent` where site owners learn about the crawler.
  public var contactURL: String?
  /// A PEM bundle of trusted CAs instead of the system's (`--cacert`).
  public var caFile: String?
  /// Lifts the SSRF guard: connections to private, loopback and reserved addresses are allowed.
  public var allowsPrivateNetwork = false
  /// Addresses exempt from the SSRF guard while it is on, in `inet_pton` form (for example one
  /// trusted internal host, or a loopback test server whose redirects must still be checked).
  public var exemptAddresses: Set<String> = []
  /// Skips robots.txt entirely (`--ignore-robots`).
  public var ignoresRobots = false
  /// The largest `Crawl-delay` honoured; larger values are clamped to it.
  public var maxCrawlDelay: Duration = .seconds(10)
  /// How failed transfers are retried and when a host is given up.
  public var retry = RetryPolicy()
  /// Fixed name resolutions in curl's `--resolve` form, `host:port:address` (tests, demos).
  public var resolve: [String] = []

  /// Creates the default configuration.
  public init() {}

  /// The cap for `kind`'s decoded body.
  public func bodyLimit(for kind: ResourceKind) -> Int {
    bodyLimits[kind] ?? (10 << 20)
  }

  /// `thumbify/<version>`, plus ` (+<contact URL>)` when one is configured.
  public var userAgent: String {
    let product = "thumbify/\(ThumbifyVersion.current)"
    guard let contactURL, !contactURL.isEmpty else { return product }
    return "\(product) (+\(contactURL))"
  }

  /// Whether `text` can be the contact URL: `http`, `https` or `mailto`, with no whitespace or
  /// parentheses (it goes inside the `User-Agent`'s comment).
  public static func isValidContactURL(_ text: String) -> Bool {
    (text.hasPrefix("http://") || text.hasPrefix("https://") || text.hasPrefix("mailto:"))
      && !text.contains(where: { $0.isWhitespace || $0 == "(" || $0 == ")" })
  }
}
