extension FetchError {
  /// The fetch error an invalid URL is reported as (in a record, a `LinkPreviewError`, a
  /// `CardServiceError`): the same case, so its code and sentence are the normalization error's.
  ///
  /// Normalization lives next to the URL parser in ThumbifyExtracting, which knows nothing of
  /// fetching; this is the one place its error becomes a `FetchError`.
  package init(_ error: URLNormalizationError) {
    switch error {
    case .invalidURL(let url): self = .invalidURL(url)
    case .unsupportedScheme(let scheme): self = .unsupportedScheme(scheme)
    }
  }
}
