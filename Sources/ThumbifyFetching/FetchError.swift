/// Why a fetch failed. Each case carries curl's own message where curl reported it.
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
  case invalidURL(String)
  case unsupportedScheme(String)
  case dns(String)
  case connect(String)
  case tls(String)
  /// The connection broke after it was made (reset, truncated body, bad encoding, HTTP/2 error).
  case transfer(String)
  case timedOut(String)
  case tooLarge(limit: Int)
  case httpStatus(Int)
  case tooManyRedirects(Int)
  case blockedByRobots(String)
  case blockedPrivateAddress(String)
  /// The host (`host:port`) failed repeatedly earlier in this run and is skipped.
  case hostSkipped(String)
  case cancelled
  /// The fetcher was told to start no new request (`Fetching.stopStartingRequests()`, a crawl's stop)
  /// before this one was sent: it never left the machine.
  case stopped
  case other(String)

  /// LinkPresentation's error family (`LPError.Code`).
  public enum Family: String, Sendable { case cancelled, failed, timedOut, unknown }

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
