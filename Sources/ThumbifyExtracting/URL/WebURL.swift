/// An absolute http(s) URL parsed and serialized with WHATWG URL semantics.
///
/// Foundation's `URL` follows RFC 3986, which differs from browsers on the web's real
/// inputs; this small parser covers what metadata needs: relative references against a
/// base (`//host`, `/path`, `../`, `?q`, `#f`), backslashes as slashes, stripped tabs and
/// newlines, percent-encoding of spaces and non-ASCII, IDNA hosts to Punycode, IPv4
/// numbers in any base, default ports dropped and dot segments removed.
/// Any scheme other than http and https is rejected.
package struct WebURL: Sendable, Equatable, CustomStringConvertible {
  package var scheme: String
  var userinfo: String
  package var host: String
  package var port: Int?
  package var path: String
  package var query: String?
  package var fragment: String?

  /// The serialized URL (`https://example.com/a?b#c`).
  package var description: String {
    var text = ""
    // One allocation: the parts' lengths plus separators and a port's digits.
    text.reserveCapacity(
      scheme.utf8.count + userinfo.utf8.count + host.utf8.count + path.utf8.count
        + (query?.utf8.count ?? 0) + (fragment?.utf8.count ?? 0) + 16)
    text += scheme
    text += "://"
    if !userinfo.isEmpty { text += userinfo + "@" }
    text += host
    if let port { text += ":\(port)" }
    text += path
    if let query { text += "?" + query }
    if let fragment { text += "#" + fragment }
    return text
  }

  /// The origin's `scheme://host[:port]`.
  var origin: String {
    scheme + "://" + host + (port.map { ":\($0)" } ?? "")
  }

  /// `/favicon.ico` at the origin: where browsers look for a site's icon, the last icon candidate of
  /// every page (`IconRanking`; the crawl's `Crawler.faviconURL(for:)` gives the same string).
  var faviconURL: String { origin + "/favicon.ico" }

  /// Parses `string`, resolving it against `base` when it is relative.
  ///
  /// - Returns: `nil` for non-http(s) schemes (`data:`, `javascript:`, `mailto:` …), relative
  ///   input without a base, and invalid hosts or ports.
  package init?(_ string: String, relativeTo base: WebURL? = nil) {
    guard let parsed = WebURLParser.parse(Array(string.utf8), base: base) else { return nil }
    self = parsed
  }

  init(
    scheme: String, userinfo: String, host: String, port: Int?, path: String, query: String?,
    fragment: String?
  ) {
    self.scheme = scheme
    self.userinfo = userinfo
    self.host = host
    self.port = port
    self.path = path
    self.query = query
    self.fragment = fragment
  }
}
