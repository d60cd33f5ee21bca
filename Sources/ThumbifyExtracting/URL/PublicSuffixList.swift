/// Registrable domains by the Public Suffix List (publicsuffix.org), its ICANN section.
///
/// The registrable domain ("eTLD+1") is the public suffix of a host and the one label before it:
/// `www.bbc.co.uk` → `bbc.co.uk`, `a.b.example.com` → `example.com`, `x.city.kobe.jp` →
/// `city.kobe.jp` (an exception to `*.kobe.jp`). The rules are generated into `PublicSuffixRules` by
/// `scripts/generate-public-suffixes` and committed, so the answer for a host — and a crawl's shard,
/// which is derived from it — is the same on every machine whatever its installed lists.
///
/// The private section of the list (github.io, blogspot.com, …) is left out: the sites of one hosting
/// provider stay one registrable domain.
package enum PublicSuffixList {
  private struct Rules: Sendable {
    var exact: Set<Substring> = []
    var wildcards: Set<Substring> = []
    var exceptions: Set<Substring> = []
  }

  /// Parsed from the packed rules once (5,900 short strings: ~1 ms).
  private static let rules: Rules = {
    var rules = Rules()
    for rule in PublicSuffixRules.packed.split(separator: " ") {
      if rule.hasPrefix("!") {
        rules.exceptions.insert(rule.dropFirst())
      } else if rule.hasPrefix("*.") {
        rules.wildcards.insert(rule.dropFirst(2))
      } else {
        rules.exact.insert(rule)
      }
    }
    return rules
  }()

  /// The registrable domain of `host`, or `nil` when it has none: a single label (`localhost`), a host
  /// that is itself a public suffix (`co.uk`), an empty label.
  ///
  /// - Parameter host: a normalized host name: lower-case ASCII, IDNA labels as `xn--…`
  ///   (`URLNormalization`); one trailing dot is ignored. IP literals are not host names: the caller
  ///   tells them apart.
  package static func registrableDomain(of host: String) -> String? {
    var name = Substring(host)
    if name.hasSuffix(".") { name = name.dropLast() }
    let labels = name.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2, !labels.contains(where: \.isEmpty) else { return nil }
    let suffixLength = publicSuffixLength(of: name, labels: labels)
    guard labels.count > suffixLength else { return nil }
    // The suffix and one label more, as a slice of the name (no joining).
    let first = labels[labels.count - suffixLength - 1]
    return String(name[first.startIndex...])
  }

  /// The number of labels of `name`'s public suffix by the PSL algorithm: the longest matching rule,
  /// an exception before all (it removes its first label), the default rule `*` when none matches.
  private static func publicSuffixLength(of name: Substring, labels: [Substring]) -> Int {
    let rules = rules
    // From the longest candidate down, so the first match is the longest rule. Exceptions and
    // wildcards are at most one label longer than an exact rule they override, checked at the same
    // position, so an exception (`!www.ck`) wins over its wildcard (`*.ck`).
    for index in labels.indices.dropLast() {
      let candidate = name[labels[index].startIndex...]
      if rules.exceptions.contains(candidate) { return labels.count - index - 1 }
      if rules.exact.contains(candidate) { return labels.count - index }
      let parent = name[labels[index + 1].startIndex...]
      if rules.wildcards.contains(parent) { return labels.count - index }
    }
    return 1
  }
}
