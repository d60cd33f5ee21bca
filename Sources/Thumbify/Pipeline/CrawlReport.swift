import ThumbifyStore

/// What a crawl's run report tells beyond the outcome counts: errors by code, outcomes by host, and
/// which URLs failed or lack an image or icon, and why (`CrawlJob.Summary.report`).
///
/// Memory is bounded whatever the length of the list: the lists keep their first `maxListed`
/// entries (with a total), and hosts are counted one by one up to `maxHosts`, the rest together
/// under `otherHosts`.
public struct CrawlReport: Sendable, Equatable {
  /// Entries kept in each list (`failures`, `withoutImage`, the pruned URLs).
  public static let maxListed = 1_000
  /// Hosts counted one by one.
  public static let maxHosts = 10_000
  /// The name under which hosts beyond `maxHosts` are counted.
  public static let otherHosts = "(other hosts)"

  /// One problem of one URL or line.
  public struct Problem: Sendable, Equatable {
    /// The normalized URL, or the text of an invalid line.
    public var url: String
    /// The line number, for invalid lines (records are named by their URL).
    public var line: Int?
    /// `failed`, `stale`, `invalid`, or the outcome of a record whose image or icon failed.
    public var outcome: String
    /// What failed: `page`, `image`, `icon` or `line`.
    public var kind: String
    /// The stable error code (docs/errors.md).
    public var code: String
    /// A sentence for people.
    public var message: String
  }

  /// The outcomes of one host's URLs.
  public struct HostCounts: Sendable, Equatable {
    /// The host, lower-case.
    public var host: String
    /// The host's URLs in the run.
    public var urls = 0
    /// Its URLs fetched and processed.
    public var ok = 0
    /// Its URLs that answered 304.
    public var notModified = 0
    /// Its URLs that failed and kept an earlier card.
    public var stale = 0
    /// Its URLs that failed without an earlier card.
    public var failed = 0
    /// Records whose image or icon failed.
    public var withoutImage = 0

    /// URLs whose page failed (`failed` or `stale`).
    public var failures: Int { failed + stale }
  }

  /// Counts per kind (`page`, `image`, `icon`, `line`) and error code.
  public var byCode: [String: [String: Int]] = [:]
  /// Counts per host (see `maxHosts`); `topHosts(_:)` ranks them.
  public var hosts: [String: HostCounts] = [:]
  /// The first `maxListed` page failures and invalid lines, in list order.
  public var failures: [Problem] = []
  /// All page failures and invalid lines (`failures` lists the first ones).
  public var failureTotal = 0
  /// The first `maxListed` image and icon problems of records whose page succeeded or is stale.
  public var withoutImage: [Problem] = []
  /// All image and icon problems (`withoutImage` lists the first ones).
  public var withoutImageTotal = 0

  /// An empty report.
  public init() {}

  /// Counts an invalid line.
  mutating func addInvalidLine(_ line: Int, text: String, code: String, message: String) {
    byCode["line", default: [:]][code, default: 0] += 1
    failureTotal += 1
    if failures.count < Self.maxListed {
      failures.append(
        Problem(url: text, line: line, outcome: "invalid", kind: "line", code: code, message: message))
    }
  }

  /// Counts one record of the manifest. `record` (decoded by the caller only when the page failed or
  /// an image or icon did: most records need nothing decoded) gives the errors' codes and messages.
  mutating func add(
    normalizedURL url: String, outcome: CrawlRecord.Outcome, hasImageFailure: Bool, record: CrawlRecord?
  ) {
    let host = Self.host(of: url)
    let key = hosts[host] != nil || hosts.count < Self.maxHosts ? host : Self.otherHosts
    var counts = hosts[key] ?? HostCounts(host: key)
    counts.urls += 1
    switch outcome {
    case .ok: counts.ok += 1
    case .notModified: counts.notModified += 1
    case .stale: counts.stale += 1
    case .failed: counts.failed += 1
    }
    if hasImageFailure { counts.withoutImage += 1 }
    hosts[key] = counts
    guard let record else { return }
    if let error = record.error {
      byCode["page", default: [:]][error.code, default: 0] += 1
      failureTotal += 1
      if failures.count < Self.maxListed {
        failures.append(
          Problem(
            url: url, outcome: outcome.rawValue, kind: "page", code: error.code, message: error.message))
      }
    }
    for (kind, error) in [("image", record.imageError), ("icon", record.iconError)] {
      guard let error else { continue }
      byCode[kind, default: [:]][error.code, default: 0] += 1
    }
    if record.imageError != nil || record.iconError != nil {
      withoutImageTotal += 1
      for (kind, error) in [("image", record.imageError), ("icon", record.iconError)] {
        guard let error, withoutImage.count < Self.maxListed else { continue }
        withoutImage.append(
          Problem(url: url, outcome: outcome.rawValue, kind: kind, code: error.code, message: error.message))
      }
    }
  }

  /// The `count` hosts with the most failed or stale URLs, then the most cards without an image or
  /// icon, then the most URLs (ties by name, so the order is stable).
  public func topHosts(_ count: Int = 10) -> [HostCounts] {
    let ranked = hosts.values.sorted {
      ($0.failures, $0.withoutImage, $0.urls) != ($1.failures, $1.withoutImage, $1.urls)
        ? ($0.failures, $0.withoutImage, $0.urls) > ($1.failures, $1.withoutImage, $1.urls)
        : $0.host < $1.host
    }
    return Array(ranked.prefix(count))
  }

  /// The authority of a normalized URL (`scheme://[user@]host[:port]/…`) without its user info.
  static func host(of url: String) -> String {
    guard let schemeEnd = url.range(of: "://") else { return url }
    let rest = url[schemeEnd.upperBound...]
    let authority = rest[..<(rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex)]
    guard let at = authority.lastIndex(of: "@") else { return String(authority) }
    return String(authority[authority.index(after: at)...])
  }
}
