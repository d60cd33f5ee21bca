/// The rules of one robots.txt file for one crawler, parsed per RFC 9309.
///
/// The groups naming the crawler's product token (`thumbify`) apply, merged; when none
/// does, the `*` groups apply; when there are none either, everything is allowed. The
/// longest matching `Allow`/`Disallow` pattern wins, `Allow` on a tie; patterns support
/// `*` (any run of characters) and a trailing `$` (end of the path).
///
/// ```swift
/// let rules = RobotsRules(parsing: "User-agent: *\nDisallow: /private\n")
/// rules.allows("/private/a")  // false
/// ```
package struct RobotsRules: Sendable, Equatable {
  /// One `Allow` or `Disallow` line.
  struct Rule: Sendable, Equatable {
    var allows: Bool
    var pattern: [UInt8]
  }

  private enum Verdict: Sendable, Equatable {
    case allowAll
    case disallowAll
    case rules([Rule])
  }

  private let verdict: Verdict
  /// The `Crawl-delay` of the matching group in seconds, if it gave one.
  package let crawlDelay: Double?

  /// Allows every path (robots.txt missing or 4xx).
  package static let allowAll = RobotsRules(verdict: .allowAll, crawlDelay: nil)
  /// Disallows every path (robots.txt 5xx or unreachable, for this run).
  package static let disallowAll = RobotsRules(verdict: .disallowAll, crawlDelay: nil)

  private init(verdict: Verdict, crawlDelay: Double?) {
    self.verdict = verdict
    self.crawlDelay = crawlDelay
  }

  /// Parses `text` for the crawler whose product token is `userAgent`.
  package init(parsing text: String, userAgent: String = "thumbify") {
    let token = userAgent.lowercased()
    var groups: [(agents: [String], rules: [Rule], crawlDelay: Double?)] = []
    var collectingAgents = false
    for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
      let line = rawLine.prefix { $0 != "#" }
      guard let colon = line.firstIndex(of: ":") else { continue }
      let key = line[..<colon].trimmingSpaces().lowercased()
      let value = line[line.index(after: colon)...].trimmingSpaces()
      switch key {
      case "user-agent":
        let product = value.prefix { $0 != " " && $0 != "/" && $0 != "\t" }.lowercased()
        if collectingAgents, !groups.isEmpty {
          groups[groups.count - 1].agents.append(product)
        } else {
          groups.append(([product], [], nil))
        }
        collectingAgents = true
      case "allow", "disallow":
        collectingAgents = false
        guard !groups.isEmpty, !value.isEmpty else { continue }
        groups[groups.count - 1].rules.append(Rule(allows: key == "allow", pattern: Array(value.utf8)))
      case "crawl-delay":
        collectingAgents = false
        guard !groups.isEmpty, let seconds = Double(value), seconds.isFinite, seconds >= 0 else { continue }
        groups[groups.count - 1].crawlDelay = seconds
      default:
        continue  // sitemap and unknown lines do not end a group
      }
    }
    var matching = groups.filter { $0.agents.contains(token) }
    if matching.isEmpty { matching = groups.filter { $0.agents.contains("*") } }
    guard !matching.isEmpty else {
      self.init(verdict: .allowAll, crawlDelay: nil)
      return
    }
    self.init(
      verdict: .rules(matching.flatMap(\.rules)), crawlDelay: matching.compactMap(\.crawlDelay).first)
  }

  /// True when the crawler may fetch `path` (path and query of the URL).
  package func allows(_ path: String) -> Bool {
    if path == "/robots.txt" { return true }
    switch verdict {
    case .allowAll: return true
    case .disallowAll: return false
    case .rules(let rules):
      let bytes = Array(path.utf8)
      var best: Rule?
      for rule in rules where Self.matches(rule.pattern, bytes) {
        guard let current = best else {
          best = rule
          continue
        }
        if rule.pattern.count > current.pattern.count
          || (rule.pattern.count == current.pattern.count && rule.allows && !current.allows)
        {
          best = rule
        }
      }
      return best?.allows ?? true
    }
  }

  /// Matches a pattern with `*` wildcards and an optional trailing `$` against a path.
  static func matches(_ pattern: [UInt8], _ path: [UInt8]) -> Bool {
    let anchored = pattern.last == UInt8(ascii: "$")
    let body = anchored ? pattern.dropLast() : pattern[...]
    let parts = body.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false)
    guard let first = parts.first, path.starts(with: first) else { return false }
    var index = first.count
    if parts.count == 1 { return !anchored || index == path.count }
    for part in parts.dropFirst().dropLast() {
      guard let found = firstRange(of: part, in: path, from: index) else { return false }
      index = found
    }
    let last = parts[parts.count - 1]
    if anchored { return path.count - index >= last.count && path.suffix(last.count).elementsEqual(last) }
    return last.isEmpty || firstRange(of: last, in: path, from: index) != nil
  }

  /// The index just past the first occurrence of `needle` in `haystack[from...]`.
  private static func firstRange(of needle: ArraySlice<UInt8>, in haystack: [UInt8], from start: Int) -> Int?
  {
    guard !needle.isEmpty else { return start }
    guard haystack.count - start >= needle.count else { return nil }
    for offset in start...(haystack.count - needle.count)
    where haystack[offset..<offset + needle.count].elementsEqual(needle) {
      return offset + needle.count
    }
    return nil
  }
}

extension Substring {
  /// The substring without leading and trailing spaces and tabs.
  fileprivate func trimmingSpaces() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
