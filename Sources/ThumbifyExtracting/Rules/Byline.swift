/// Turns one byline as a page writes it into a name (docs/metadata.md, Authors):
/// `By Will Smale` → `Will Smale`, `Jane Doe, Staff Writer` → `Jane Doe`; URLs and e-mail
/// addresses are no names.
enum Byline {
  enum Reading: Equatable {
    case name(String)
    /// The byline is a URL: no name, but perhaps a profile URL to read one from last.
    case url(String)
  }

  /// Words that introduce a byline, always dropped (`By`, `by:`, `BY`).
  static let prefixes: Set<String> = ["by"]
  /// Words that introduce a byline in other languages and are also the start of some names
  /// (`Von Miller`): dropped only before at least two words, the first capitalized.
  static let foreignPrefixes: Set<String> = ["von", "par", "por"]
  /// Verbs dropped with a following `by` (`Written by`, `Posted by`).
  static let verbs: Set<String> = ["written", "posted", "reported", "published", "words", "story", "text"]
  /// Words that make the part after a separator a job title (`, Staff Writer`).
  static let roleWords: Set<String> = [
    "writer", "writers", "reporter", "reporters", "editor", "editors", "correspondent", "correspondents",
    "contributor", "contributors", "columnist", "journalist", "staff", "author", "photographer", "producer",
    "analyst", "critic", "intern", "freelance", "freelancer", "editorial", "redakteur", "redakteurin",
    "redaktion", "autor", "autorin", "rédacteur", "rédactrice", "journaliste", "correspondant",
    "correspondante", "periodista", "redactor", "redactora", "corresponsal",
  ]

  /// Reads one byline: decoded, whitespace collapsed, prefix and trailing role dropped.
  ///
  /// - Returns: `nil` when nothing that could be a name is left (blank, an e-mail address alone,
  ///   no letter at all).
  static func read(_ raw: String) -> Reading? {
    guard let text = TextNormalizer.cleanDecoding(raw, limit: AuthorRules.maximumLength) else { return nil }
    if looksLikeURL(text) { return .url(text) }
    if isPlainName(text) { return .name(text) }
    var words = text.split(separator: " ").map(String.init)
    // `jane@example.com (Jane Doe)`, `Jane Doe <jane@example.com>`: the name without the address.
    words.removeAll(where: isEmailAddress)
    words = droppingPrefix(words)
    guard let name = droppingRole(words.joined(separator: " ")), name.contains(where: \.isLetter) else {
      return nil
    }
    return .name(name)
  }

  /// Whether `text` is a name as it stands, the usual case, decided on its bytes without splitting
  /// it into words and Characters: ASCII with a letter, no `@`, `,`, `|`, `-`, `:`, brackets, and a
  /// first word that is no prefix or verb.
  private static func isPlainName(_ text: String) -> Bool {
    var hasLetter = false
    var firstWord: [UInt8] = []
    var isInFirstWord = true
    for byte in text.utf8 {
      switch byte {
      case 0x80...: return false
      case UInt8(ascii: "@"), UInt8(ascii: ","), UInt8(ascii: "|"), UInt8(ascii: "-"), UInt8(ascii: ":"),
        UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"):
        return false
      case UInt8(ascii: " "): isInFirstWord = false
      default:
        if ASCII.isAlpha(byte) { hasLetter = true }
        if isInFirstWord {
          guard firstWord.count < 10 else {
            isInFirstWord = false
            continue
          }
          firstWord.append(ASCII.lower(byte))
        }
      }
    }
    let first = String(decoding: firstWord, as: UTF8.self)
    return hasLetter && !prefixes.contains(first) && !foreignPrefixes.contains(first)
      && !verbs.contains(first)
  }

  /// A URL, not a name: `http://`, `https://`, `//` or `www.` at the start.
  static func looksLikeURL(_ text: String) -> Bool {
    let lower = ASCII.lowercased(ASCII.trimmed(text))
    return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("//")
      || lower.hasPrefix("www.")
  }

  /// One word of the form `local@domain.tld` (also `mailto:` and in `()`/`<>`).
  static func isEmailAddress(_ word: String) -> Bool {
    guard let at = word.firstIndex(of: "@"), at != word.startIndex else { return false }
    return word[word.index(after: at)...].contains(".")
  }

  private static func droppingPrefix(_ words: [String]) -> [String] {
    var words = words
    // `By:Jane` is `By: Jane`.
    if let first = words.first, let colon = first.firstIndex(of: ":"),
      first.index(after: colon) < first.endIndex,
      prefixes.union(foreignPrefixes).contains(first[..<colon].lowercased())
    {
      words.replaceSubrange(
        0..<1, with: [String(first[...colon]), String(first[first.index(after: colon)...])])
    }
    func word(_ index: Int) -> String? {
      guard index < words.count else { return nil }
      let lower = words[index].lowercased()
      return lower.hasSuffix(":") ? String(lower.dropLast()) : lower
    }
    guard let first = word(0) else { return words }
    if verbs.contains(first), word(1) == "by", words.count > 2 { return Array(words.dropFirst(2)) }
    if prefixes.contains(first), words.count > 1 { return Array(words.dropFirst()) }
    if foreignPrefixes.contains(first), words.count > 2, words[1].first?.isUppercase == true {
      return Array(words.dropFirst())
    }
    return words
  }

  /// Cuts at the first separator — `,`, `|`, or a dash with a space on both sides (` - `, ` – `,
  /// ` — `, so `Mary-Jane Smith-Jones` is never cut) — whose segment (up to the next separator) holds
  /// a role word: `Jane Doe, John Roe, Staff Writers` → `Jane Doe, John Roe`. Brackets left at the
  /// ends by a dropped e-mail address go too.
  private static func droppingRole(_ text: String) -> String? {
    let characters = Array(text)
    var separators: [Int] = []
    for (index, character) in characters.enumerated() {
      let isDash = character == "-" || character == "–" || character == "—"
      if character == "," || character == "|"
        || (isDash && index > 0 && characters[index - 1] == " " && index + 1 < characters.count
          && characters[index + 1] == " ")
      {
        separators.append(index)
      }
    }
    var cut = characters.count
    for (number, separator) in separators.enumerated() {
      let segmentEnd = number + 1 < separators.count ? separators[number + 1] : characters.count
      let segment = String(characters[(separator + 1)..<segmentEnd]).lowercased()
      if segment.split(whereSeparator: { !$0.isLetter }).contains(where: { roleWords.contains(String($0)) }) {
        cut = separator
        break
      }
    }
    let trimmed = String(characters[..<cut]).trimmingCharacters(where: {
      $0 == " " || $0 == "(" || $0 == ")" || $0 == "<" || $0 == ">"
    })
    return trimmed.isEmpty ? nil : trimmed
  }

  /// Path segments after which a profile URL names its person (`/author/jane-doe/`).
  static let profileSegments: Set<String> = [
    "author", "authors", "people", "person", "profile", "profiles", "staff", "user", "users", "writer",
    "writers", "contributor", "contributors", "journalist", "journalists", "autor", "autoren", "auteur",
  ]

  /// The name in a profile URL: the segment after `author`, `people`, `profile`, … made of at least two
  /// words of letters separated by `-`, `_`, `+` or `.` (`jane-doe` → `Jane Doe`). Slugs with digits
  /// or of one word (`jdoe`, `admin`) give none: they are handles, not names.
  static func name(fromProfileURL text: String, base: WebURL?) -> String? {
    guard let url = WebURL(text, relativeTo: base) else { return nil }
    let segments = url.path.split(separator: "/")
    guard let marker = segments.firstIndex(where: { profileSegments.contains($0.lowercased()) }),
      marker + 1 < segments.count
    else { return nil }
    var slug = Substring(segments[marker + 1])
    if let dot = slug.lastIndex(of: "."),
      ["html", "htm", "php", "aspx"].contains(slug[slug.index(after: dot)...])
    {
      slug = slug[..<dot]
    }
    let words = slug.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "+" || $0 == "." })
    guard words.count >= 2, words.count <= 5,
      words.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isLetter } })
    else { return nil }
    return words.map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined(separator: " ")
  }
}

extension String {
  fileprivate func trimmingCharacters(where shouldTrim: (Character) -> Bool) -> String {
    guard let start = firstIndex(where: { !shouldTrim($0) }), let last = lastIndex(where: { !shouldTrim($0) })
    else { return "" }
    return String(self[start...last])
  }
}
