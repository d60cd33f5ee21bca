import Foundation
import ThumbifySystem

/// When and how long to wait before trying a failed transfer again.
///
/// Connect errors, timeouts and HTTP 429, 502, 503 and 504 are retried with jittered
/// exponential backoff; a `Retry-After` header replaces the backoff, up to `maxRetryAfter`.
/// After `hostFailureLimit` consecutive failed attempts a host is skipped for the run.
public struct RetryPolicy: Sendable {
  /// Attempts per request, the first included (1 disables retries).
  public var maxAttempts = 3
  /// The backoff before the second attempt; it doubles for each later one.
  public var baseDelay: Duration = .milliseconds(500)
  /// The longest backoff.
  public var maxDelay: Duration = .seconds(8)
  /// The longest `Retry-After` honoured; longer ones are clamped to it.
  public var maxRetryAfter: Duration = .seconds(30)
  /// Consecutive failed attempts after which a host is skipped for the rest of the run.
  public var hostFailureLimit = 8
  /// How long a host stays skipped; `nil` (a crawl's default) for the rest of the run. A long-running
  /// process (`thumbify serve`) forgives a host after this, or a site down for a minute would stay
  /// unreachable until a restart.
  public var hostSkipDuration: Duration?

  /// Creates the default policy.
  public init() {}

  /// HTTP statuses worth retrying.
  public static let retryableStatuses: Set<Int> = [429, 502, 503, 504]

  /// True when `error` is transient (connect, timeout, DNS-free network trouble, retryable status).
  public static func isRetryable(_ error: FetchError) -> Bool {
    switch error {
    case .connect, .timedOut, .transfer: true
    case .httpStatus(let status): retryableStatuses.contains(status)
    default: false
    }
  }

  /// The wait before attempt `attempt + 1` (attempt counts from 1): `Retry-After` when given,
  /// else `baseDelay · 2^(attempt-1)` capped at `maxDelay`, with ±50 % jitter.
  public func delay(afterAttempt attempt: Int, retryAfter: Duration?) -> Duration {
    if let retryAfter { return min(retryAfter, maxRetryAfter) }
    let exponent = min(max(attempt - 1, 0), 20)
    let backoff = min(baseDelay * (1 << exponent), maxDelay)
    return backoff * Double.random(in: 0.5...1.5)
  }

  /// Parses `Retry-After`: delta-seconds or an HTTP date, relative to `now`.
  public static func parseRetryAfter(_ value: String, now: Date = Date()) -> Duration? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if let seconds = Int(trimmed) { return seconds >= 0 ? .seconds(seconds) : nil }
    // An HTTP-date is ASCII; Foundation's DateFormatter traps on some non-ASCII strings
    // ("Incorrect range CFRange"), so they never reach it (found by scripts/fuzz headers).
    guard trimmed.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: trimmed) else { return nil }
    // Checked (docs/errors.md, "Untrusted numbers"): the date is the server's, however far off.
    return .milliseconds(Int(clamping: date.timeIntervalSince(now) * 1000, in: 0...Int.max))
  }
}
