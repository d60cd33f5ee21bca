/// Normalizes crawl URLs so that spellings of the same resource de-duplicate to one string.
///
/// The normalized form is what `CrawlRecord.normalizedURL` holds, what the state database and the
/// per-URL card keys (`thumbify card-key`) are keyed by. The rules, documented in `docs/crawl.md`:
///
/// - Surrounding whitespace is trimmed; only `http` and `https` are accepted; the scheme is lower-cased.
/// - The host goes through the WHATWG host parser shared with the extractor (`WebURLHost`): lower-cased,
///   percent-decoded, non-ASCII labels converted to IDNA ASCII (`xn--` Punycode, after Unicode
///   lower-casing and NFC — the full UTS #46 table is not applied), IPv4 numbers in any base written as
///   dotted decimal (`http://0x7f000001/` → `http://127.0.0.1/`). IPv6 literals keep their brackets.
///   A trailing dot is kept (`example.com.` is a different host name to DNS caches and TLS).
/// - User info (`user:pass@`) is kept, percent-encoding normalized.
/// - The port is dropped when it is the scheme's default (80 for http, 443 for https) or empty;
///   leading zeros are removed; a port above 65535 makes the URL invalid.
/// - `\` is read as `/` (as browsers do for http and https); an empty path becomes `/`; `.` and `..`
///   segments are removed (RFC 3986 §5.2.4).
/// - Percent-encoding is made consistent in the user info, path and query: escapes of unreserved
///   characters (`A–Z a–z 0–9 - . _ ~`) are decoded, other escapes get upper-case hex, and spaces,
///   controls, non-ASCII (as UTF-8) and `" < > \ ^ ` { | }` are percent-encoded. Reserved characters
///   (`/ ? & = + ; , : @ $ ! ' ( ) * [ ]`) are left exactly as written, so no URL changes meaning.
/// - The fragment is dropped; an empty query (a bare `?`) is dropped; query parameters are not reordered.
///
/// ```swift
/// try URLNormalization.normalize("HTTP://Example.COM:80/a/./b/../c#top")  // "http://example.com/a/c"
/// ```
package enum URLNormalization {
  /// Returns the normalized form of `url`.
  ///
  /// - Throws: `URLNormalizationError.unsupportedScheme` for a scheme other than http/https,
  ///   `.invalidURL` for anything that is not an absolute http(s) URL with a valid host and port.
  package static func normalize(_ url: String) throws(URLNormalizationError) -> String {
    if isAlreadyNormal(url) { return url }
    return try normalizeByRules(url)
  }

  /// `normalize(_:)` without the already-normal shortcut (`isAlreadyNormal(_:)`): every rule applied.
  static func normalizeByRules(_ url: String) throws(URLNormalizationError) -> String {
    let trimmed = url.trimmingASCIIWhitespace()
    var rest = Substring(trimmed)
    guard let colon = rest.firstIndex(of: ":"), colon != rest.startIndex else { throw .invalidURL(url) }
    let scheme = rest[..<colon].lowercased()
    guard scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
      scheme.first?.isLetter == true
    else { throw .invalidURL(url) }
    guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(scheme) }
    rest = rest[rest.index(after: colon)...]
    // Browsers accept any mix of slashes and backslashes after a special scheme.
    var slashes = 0
    while let first = rest.first, first == "/" || first == "\\" {
      rest = rest.dropFirst()
      slashes += 1
    }
    guard slashes >= 1 else { throw .invalidURL(url) }
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "\\" || $0 == "?" } ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    let afterAuthority = rest[authorityEnd...]
    let pathEnd = afterAuthority.firstIndex(of: "?") ?? afterAuthority.endIndex
    let rawPath = afterAuthority[..<pathEnd].replacingBackslashes()
    let rawQuery =
      pathEnd < afterAuthority.endIndex ? afterAuthority[afterAuthority.index(after: pathEnd)...] : nil

    var userInfo: Substring?
    var hostPort = authority
    if let at = authority.lastIndex(of: "@") {
      userInfo = authority[..<at]
      hostPort = authority[authority.index(after: at)...]
    }
    let (host, port) = try splitHostPort(hostPort, url: url)
    let normalizedHost = try normalizeHost(host, url: url)
    var result = scheme + "://"
    if let userInfo, !userInfo.isEmpty { result += normalizeEscapes(userInfo, alsoEncoding: "/?#@") + "@" }
    result += normalizedHost
    if let port, !port.isEmpty {
      guard port.allSatisfy({ $0.isASCII && $0.isNumber }), port.count <= 10, let value = Int(port),
        value <= 65_535
      else { throw .invalidURL(url) }
      let isDefault = (scheme == "http" && value == 80) || (scheme == "https" && value == 443)
      if !isDefault { result += ":\(value)" }
    }
    result += removeDotSegments(normalizeEscapes(rawPath, alsoEncoding: "?#"))
    if let rawQuery, !rawQuery.isEmpty { result += "?" + normalizeEscapes(rawQuery, alsoEncoding: "#") }
    return result
  }

  /// Splits `host[:port]`, keeping IPv6 literals (`[::1]:8080`) whole.
  private static func splitHostPort(_ text: Substring, url: String) throws(URLNormalizationError) -> (
    Substring, Substring?
  ) {
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { throw .invalidURL(url) }
      let host = text[...close]
      let after = text[text.index(after: close)...]
      if after.isEmpty { return (host, nil) }
      guard after.first == ":" else { throw .invalidURL(url) }
      return (host, after.dropFirst())
    }
    guard let colon = text.lastIndex(of: ":") else { return (text, nil) }
    return (text[..<colon], text[text.index(after: colon)...])
  }

  /// Lower-cases, percent-decodes and IDNA-encodes a host with the WHATWG host parser (`WebURLHost`),
  /// which also writes IPv4 numbers in any base (`0x7f000001`, `127.1`) as dotted decimal.
  private static func normalizeHost(_ host: Substring, url: String) throws(URLNormalizationError) -> String {
    guard let parsed = WebURLHost.parse(Array(host.utf8)[...]), parsed != "." else { throw .invalidURL(url) }
    return parsed
  }

  private static let unreserved: Set<UInt8> = Set(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
  private static let mustEncode: Set<UInt8> = Set(" \"<>\\^`{|}".utf8)

  /// Makes percent-encoding consistent without changing which characters are delimiters.
  private static func normalizeEscapes(_ text: some StringProtocol, alsoEncoding extraEncoded: String)
    -> String
  {
    let bytes = Array(text.utf8)
    let alsoEncode = Set(extraEncoded.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
        let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
      {
        let value = high << 4 | low
        if unreserved.contains(value) {
          out.append(value)
        } else {
          appendEscape(value, to: &out)
        }
        index += 3
        continue
      }
      if byte == UInt8(ascii: "%") || byte < 0x21 || byte >= 0x7F || mustEncode.contains(byte)
        || alsoEncode.contains(byte)
      {
        appendEscape(byte, to: &out)
      } else {
        out.append(byte)
      }
      index += 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
    let digits = Array("0123456789ABCDEF".utf8)
    out.append(UInt8(ascii: "%"))
    out.append(digits[Int(byte >> 4)])
    out.append(digits[Int(byte & 0x0F)])
  }

  /// The value of one hexadecimal digit (either case), or nil: for percent-escapes, here and in
  /// `thumbify serve`'s query string (`APIRequest`).
  package static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// RFC 3986 §5.2.4 on an absolute path; an empty path becomes `/`.
  private static func removeDotSegments(_ path: String) -> String {
    guard !path.isEmpty else { return "/" }
    let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    var output: [Substring] = []
    var endsWithSlash = false
    for segment in segments {
      endsWithSlash = false
      switch segment {
      case ".":
        endsWithSlash = true
      case "..":
        if !output.isEmpty { output.removeLast() }
        endsWithSlash = true
      default:
        output.append(segment)
      }
    }
    var result = "/" + output.joined(separator: "/")
    if endsWithSlash && !result.hasSuffix("/") { result += "/" }
    return result
  }
}

extension String {
  fileprivate func trimmingASCIIWhitespace() -> String {
    let scalars = unicodeScalars
    guard let start = scalars.firstIndex(where: { $0.value > 0x20 }),
      let end = scalars.lastIndex(where: { $0.value > 0x20 })
    else { return "" }
    return String(scalars[start...end])
  }
}

extension StringProtocol {
  fileprivate func replacingBackslashes() -> String {
    String(map { $0 == "\\" ? "/" : $0 })
  }
}
