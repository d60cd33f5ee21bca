/// Why a fetch failed. Each case carries curl's own message where curl reported it.
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The text is not a URL thumbify can fetch (WHATWG URL parsing failed); the text says why.
  case invalidURL(String)
  /// The URL's scheme is not `http` or `https` (the scheme).
  case unsupportedScheme(String)
  /// The host name could not be resolved (curl's message).
  case dns(String)
  /// No connection could be made to the host (refused, unreachable; curl's message).
  case connect(String)
  /// The TLS handshake or the certificate check failed (curl's message).
  case tls(String)
  /// The connection broke after it was made (reset, truncated body, bad encoding, HTTP/2 error).
  case transfer(String)
  /// The fetch passed its deadline or went slower than the low-speed limit (curl's message).
  case timedOut(String)
  /// The decoded body passed its cap for the resource kind (`FetcherConfiguration.bodyLimits`), in bytes.
  case tooLarge(limit: Int)
  /// The server answered with this status (4xx or 5xx; a 304 is no error).
  case httpStatus(Int)
  /// More redirects than `FetcherConfiguration.maxRedirects` (the limit).
  case tooManyRedirects(Int)
  /// The site's robots.txt disallows the URL for thumbify's user agent (the URL).
  case blockedByRobots(String)
  /// The URL or a redirect led to a private, loopback or reserved address: the SSRF guard refused to
  /// connect (the address range).
  case blockedPrivateAddress(String)
  /// The host (`host:port`) failed repeatedly earlier in this run and is skipped.
  case hostSkipped(String)
  /// The fetch was cancelled (its task, or the provider's `cancel()`).
  case cancelled
  /// The fetcher was told to start no new request (`Fetching.stopStartingRequests()`, a crawl's stop)
  /// before this one was sent: it never left the machine.
  case stopped
  /// Any other failure libcurl reported (its message).
  case other(String)

  /// LinkPresentation's error family (`LPError.Code`).
  public enum Family: String, Sendable {
    /// `LPError.Code.metadataFetchCancelled`.
    case cancelled
    /// `LPError.Code.metadataFetchFailed`.
    case failed
    /// `LPError.Code.metadataFetchTimedOut`.
    case timedOut
    /// `LPError.Code.unknown`.
    case unknown
  }

  /// The LinkPresentation family of this error.
  public var family: Family {
    switch self {
    case .cancelled, .stopped: .cancelled
    case .timedOut: .timedOut
    case .other: .unknown
    default: .failed
    }
  }

  /// A stable machine-readable code for manifests.
  public var code: String {
    switch self {
    case .invalidURL: "invalidURL"
    case .unsupportedScheme: "unsupportedScheme"
    case .dns: "dns"
    case .connect: "connect"
    case .tls: "tls"
    case .transfer: "transfer"
    case .timedOut: "timedOut"
    case .tooLarge: "tooLarge"
    case .httpStatus: "httpStatus"
    case .tooManyRedirects: "tooManyRedirects"
    case .blockedByRobots: "blockedByRobots"
    case .blockedPrivateAddress: "blockedPrivateAddress"
    case .hostSkipped: "hostSkipped"
    case .cancelled: "cancelled"
    case .stopped: "stopped"
    case .other: "unknown"
    }
  }

  public var description: String {
    switch self {
    case .invalidURL(let url): "The URL '\(url)' is not valid."
    case .unsupportedScheme(let scheme): "The scheme '\(scheme)' is not supported; only http and https are."
    case .dns(let message): "The host name could not be resolved: \(message)"
    case .connect(let message): "Could not connect: \(message)"
    case .tls(let message): "The TLS handshake failed: \(message)"
    case .transfer(let message): "The connection failed during the transfer: \(message)"
    case .timedOut(let message): "The request timed out: \(message)"
    case .tooLarge(let limit): "The body is larger than the limit of \(limit) bytes."
    case .httpStatus(let status): "The server answered HTTP \(status)."
    case .tooManyRedirects(let limit): "More than \(limit) redirects."
    case .blockedByRobots(let url): "robots.txt disallows '\(url)'."
    case .blockedPrivateAddress(let address):
      "Refused to connect to the private or reserved address \(address)."
    case .hostSkipped(let host): "The host \(host) failed repeatedly and is skipped for this run."
    case .cancelled: "The request was cancelled."
    case .stopped: "The crawl was stopped before this request was sent."
    case .other(let message): "The request failed: \(message)"
    }
  }
}
