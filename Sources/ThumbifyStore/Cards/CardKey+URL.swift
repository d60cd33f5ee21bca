import ThumbifyExtracting

extension CardKey {
  /// The key of any spelling of a URL: normalized as the crawl does, then hashed.
  ///
  /// - Throws: `URLNormalizationError.invalidURL` or `.unsupportedScheme` when `url` is not an http(s)
  ///   URL.
  package init(url: String) throws(URLNormalizationError) {
    self.init(normalizedURL: try URLNormalization.normalize(url))
  }
}
