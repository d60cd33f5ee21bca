/// Why a text has no normalized form (`URLNormalization.normalize(_:)`, `CardKey(url:)`): it is not an
/// absolute http(s) URL.
///
/// Its codes and sentences are those of the same two cases of `FetchError`, which the crawl records
/// (`FetchError(_:)` maps one to the other where a fetch's error is reported), so a manifest, a card
/// and `thumbify card-key` say the same about an invalid URL wherever it was found.
package enum URLNormalizationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The text is not an absolute http(s) URL with a valid host and port (the text as given).
  case invalidURL(String)
  /// The URL's scheme is not `http` or `https` (the scheme, lower-cased).
  case unsupportedScheme(String)

  /// A stable machine-readable code: `invalidURL` or `unsupportedScheme`.
  package var code: String {
    switch self {
    case .invalidURL: "invalidURL"
    case .unsupportedScheme: "unsupportedScheme"
    }
  }

  package var description: String {
    switch self {
    case .invalidURL(let url): "The URL '\(url)' is not valid."
    case .unsupportedScheme(let scheme): "The scheme '\(scheme)' is not supported; only http and https are."
    }
  }
}
