/// The page's audio: the first `og:audio` group (grouped like `og:image` and `og:video`:
/// `og:audio`, `:url`, `:secure_url`, `:type`) whose URL resolves to http(s) — its `secure_url`
/// when that is https, else its `:url`, else the `og:audio`.
struct AudioRules {
  let rules: MetadataRules

  func audio() -> AudioCandidate? {
    // Few pages declare audio: three lookups in the first-by-key table spare the rest a pass over
    // every meta. A group resolves only through a non-blank one of these, which the table holds.
    guard rules.meta("og:audio", "og:audio:secure_url", "og:audio:url") != nil else { return nil }
    for group in ImageRules.groups("og:audio", in: rules.collector.metas) {
      guard let url = group.resolved(with: rules) else { continue }
      return AudioCandidate(
        url: url.description, type: group.type.flatMap { TextNormalizer.clean($0, limit: 100) })
    }
    return nil
  }
}
