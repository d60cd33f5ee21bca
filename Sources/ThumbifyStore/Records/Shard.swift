import ThumbifyExtracting
import ThumbifySystem

/// One of `count` parts of a URL list (`thumbify crawl --shard K/N`): the URLs whose shard key hashes
/// to `index` modulo `count`.
///
/// The key groups what must be crawled by one process: a URL's registrable domain
/// (`PublicSuffixList`: `a.example.co.uk` and `b.example.co.uk` → `example.co.uk`), so a host — its
/// robots.txt, crawl delay and per-host limit — and its sibling hosts live in one shard; the host itself
/// where it has none (`localhost`, a host that is a public suffix); host and port for IP literals
/// (`127.0.0.1:8081`), so that a test web of one address and many ports still spreads.
///
/// The hash is the first 8 bytes of the SHA-256 of the key's UTF-8, big-endian, modulo `count`: the
/// same on every run and machine (never Swift's seeded `Hasher`), and easy to compute elsewhere:
/// `int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") % count` in Python.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
  /// `0 ..< count`.
  public let index: Int
  /// At least 1.
  public let count: Int

  /// `nil` unless `0 <= index < count`.
  public init?(index: Int, count: Int) {
    guard count >= 1, index >= 0, index < count else { return nil }
    self.index = index
    self.count = count
  }

  /// Parses `K/N` (`--shard 2/4`).
  public init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
    self.init(index: index, count: count)
  }

  /// `K/N`.
  public var description: String { "\(index)/\(count)" }

  /// Whether the URL (normalized, `URLNormalization`) belongs to this shard.
  public func contains(normalizedURL url: String) -> Bool {
    count == 1 || Self.index(ofNormalizedURL: url, count: count) == index
  }

  /// The shard of a normalized URL among `count`.
  public static func index(ofNormalizedURL url: String, count: Int) -> Int {
    index(ofKey: key(ofNormalizedURL: url), count: count)
  }

  /// The shard of a shard key among `count`.
  public static func index(ofKey key: String, count: Int) -> Int {
    let digest = SHA256Digest.bytes(of: Array(key.utf8))
    let prefix = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return Int(prefix % UInt64(max(count, 1)))
  }

  /// What a normalized URL is sharded by: its registrable domain, else its host (without a trailing
  /// dot), or `host:port` for an IP literal (the port as the URL has it: none when it is the default).
  public static func key(ofNormalizedURL url: String) -> String {
    // On the UTF-8 view: Foundation's `range(of:)` and Character properties cost microseconds a line,
    // and every shard does this for every line of the list.
    let bytes = url.utf8
    var start = bytes.startIndex
    if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8) {
      start = bytes.index(colon, offsetBy: 3)
    }
    let end =
      bytes[start...].firstIndex {
        $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
      } ?? bytes.endIndex
    if let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")) { start = bytes.index(after: at) }
    let hostPort = url[start..<end]
    if hostPort.utf8.first == UInt8(ascii: "[") { return String(hostPort) }  // IPv6, with its port
    let host = hostPort.utf8.firstIndex(of: UInt8(ascii: ":")).map { hostPort[..<$0] } ?? hostPort
    if isIPv4(host) { return String(hostPort) }
    let name = host.utf8.last == UInt8(ascii: ".") ? String(host.dropLast()) : String(host)
    return PublicSuffixList.registrableDomain(of: name) ?? name
  }

  /// Dotted decimal, the only IPv4 form a normalized URL has.
  private static func isIPv4(_ host: Substring) -> Bool {
    var dots = 0
    var digits = 0
    for byte in host.utf8 {
      if byte == UInt8(ascii: ".") {
        guard digits > 0 else { return false }
        dots += 1
        digits = 0
      } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
        digits += 1
      } else {
        return false
      }
    }
    return dots == 3 && digits > 0
  }
}
