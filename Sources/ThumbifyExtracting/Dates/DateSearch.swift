/// The whole-page date search: when no structured source (docs/metadata.md, Dates) gives a
/// publication date, a second, bounded pass of the tokenizer over the page scores every date it
/// states and keeps the best. The sources and scores (docs/metadata.md, "The date search"):
///
/// | source | score |
/// | --- | --- |
/// | `url`: `/2019/04/03/`, `/20190403/`, `/2019-04-03-`, `?date=` | 100 |
/// | `time-element`: `<time datetime>` | 50 |
/// | `abbr`: `<abbr class=published title>` | 50 |
/// | `text` inside an element whose class or id names a date, or a `<time>` without `datetime` | 40 |
/// | `text` after published/posted/veröffentlicht/publié/… | 45 |
/// | `text` after on/am/le/el/il/op/dnia/от/vom/du/del | 30 |
/// | `text` anywhere else in the visible text | 10 |
///
/// plus 20 for a date alone in its run of text (a stamp, not a sentence), plus 10 inside `<article>`,
/// `<header>` or `<main>`, plus 20 inside an `<h1>` or within the first text after it, minus 30 inside
/// `<footer>`, `<nav>` or `<aside>` (other pages' dates) or a date element whose class names a
/// comment or reply, minus 25 for an update (updated/aktualisiert/mis à jour/… or a class naming one:
/// the original publication wins when both stand), minus 30 after the year of the page's copyright
/// line. Dates before 1995 or after the clock are left out. The highest score wins; on a tie, the
/// first in the page. `localDate(for:url:)` checks a structured date in UTC against the page's own.
struct DateSearch: HTMLTokenSink {
  /// The visible text read at most; the pass stops there.
  static let maximumTextBytes = 512 * 1024
  /// The earliest year a page's date is taken from.
  static let minimumYear = 1995

  enum Source: String {
    case url
    case timeElement = "time-element"
    case abbr, text
  }

  struct Candidate: Equatable {
    var date: DateParser.Parsed
    var score: Int
    var source: Source
  }

  let now: Int64
  let dayFirst: Bool?
  private(set) var textBytes = 0
  private var copyrightYear: Int?
  /// Candidates from the copyright line's page, kept until the end (the bound may come later).
  private var candidates: [Candidate] = []
  static let maximumCandidates = 256

  private var blockDepth = 0  // article, header, main
  private var asideDepth = 0  // footer, nav, aside
  /// Text bytes left in which a date counts as near the title (after `</h1>`).
  private var nearTitle = 0
  private var inH1 = false

  /// An element whose class names a date, or a `<time>`: its text is collected until `tagsLeft`
  /// tags have passed or the buffer is full.
  private var hint: (isUpdate: Bool, isComment: Bool, tagsLeft: Int)?
  private var hintText: [UInt8] = []
  static let maximumHintBytes = 160
  private var scratch: [UInt8] = []

  init(now: Int64, language: String?) {
    self.now = now
    self.dayFirst = DateText.dayFirst(language: language)
    hintText.reserveCapacity(Self.maximumHintBytes)
  }

  var wantsText: Bool { true }
  var isFinished: Bool { textBytes >= Self.maximumTextBytes }

  // MARK: - Hints

  /// Whether a `class` or `id` value names a date (`date`, `time`, `publish`, `posted`, `byline`,
  /// `meta`, `datum`, `fecha`, `data`, …): the tokenizer then reads that tag's attributes.
  static func isDateHint(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
    hintWords.contains { contains($0, in: value) }
  }

  static func isDateHint(_ value: String) -> Bool {
    var value = value
    return value.withUTF8 { isDateHint($0) }
  }

  static let hintWords: [StaticString] = [
    "date", "time", "publish", "posted", "byline", "meta", "datum", "fecha", "data", "updated", "modified",
  ]

  private static func contains(_ word: StaticString, in value: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = word.utf8CodeUnitCount
    guard value.count >= count else { return false }
    let first = word.utf8Start[0]
    for start in 0...(value.count - count) where ASCII.lower(value[start]) == first {
      var offset = 1
      while offset < count, ASCII.lower(value[start + offset]) == word.utf8Start[offset] { offset += 1 }
      if offset == count { return true }
    }
    return false
  }

  private static func contains(_ word: StaticString, in text: String) -> Bool {
    var text = text
    return text.withUTF8 { contains(word, in: $0) }
  }

  // MARK: - Events

  mutating func startTag(_ name: HTMLTagName, attributes: [HTMLAttribute], isSelfClosing: Bool) {
    countTag()
    switch name {
    case .article, .header, .main: if !isSelfClosing { blockDepth += 1 }
    case .footer, .nav, .aside: if !isSelfClosing { asideDepth += 1 }
    case .h1: inH1 = true
    default: break
    }
    let classes = attributes.lazy.filter { $0.known == .other && ($0.name == "class" || $0.name == "id") }
      .map(\.value)
    let isUpdate = classes.contains { Self.contains("updat", in: $0) || Self.contains("modif", in: $0) }
    let isComment = classes.contains { Self.contains("comment", in: $0) || Self.contains("reply", in: $0) }
    if name == .time {
      if let datetime = attributes.first(where: { $0.known == .datetime })?.value,
        let parsed = DateParser.parse(datetime)
      {
        offer(parsed, score: 50 + (isUpdate ? -25 : 0), source: .timeElement)
      } else if !isSelfClosing {
        startHint(isUpdate: isUpdate, isComment: isComment)
      }
      return
    }
    if name == .abbr,
      classes.contains(where: { Self.contains("publish", in: $0) || Self.contains("updated", in: $0) }),
      let title = attributes.first(where: { $0.name == "title" })?.value, let parsed = DateParser.parse(title)
    {
      offer(parsed, score: 50 + (isUpdate ? -25 : 0), source: .abbr)
      return
    }
    if !isSelfClosing, classes.contains(where: { Self.isDateHint($0) }) {
      startHint(isUpdate: isUpdate, isComment: isComment)
    }
  }

  mutating func endTag(_ name: HTMLTagName) {
    countTag()
    switch name {
    case .article, .header, .main: blockDepth = max(0, blockDepth - 1)
    case .footer, .nav, .aside: asideDepth = max(0, asideDepth - 1)
    case .h1:
      if inH1 { nearTitle = 600 }
      inH1 = false
    default: break
    }
  }

  mutating func rawText(of name: HTMLTagName, _ bytes: UnsafeBufferPointer<UInt8>) {}

  private mutating func startHint(isUpdate: Bool, isComment: Bool) {
    finishHint()
    hint = (isUpdate, isComment, 8)
  }

  private mutating func countTag() {
    guard let current = hint else { return }
    if current.tagsLeft <= 1 {
      finishHint()
    } else {
      hint = (current.isUpdate, current.isComment, current.tagsLeft - 1)
    }
  }

  private mutating func finishHint() {
    guard let current = hint else { return }
    hint = nil
    defer { hintText.removeAll(keepingCapacity: true) }
    guard !hintText.isEmpty else { return }
    hintText.withUnsafeBufferPointer { buffer in
      var found: [DateText.Found] = []
      DateText.find(in: buffer, dayFirst: dayFirst) { found.append($0) }
      for date in found.prefix(2) {
        offer(
          DateParser.Parsed(year: date.year, month: date.month, day: date.day, time: nil, offset: nil),
          score: 40 + (current.isUpdate || isUpdate(before: date.start, in: buffer) ? -25 : 0)
            + (current.isComment ? -30 : 0), source: .text)
      }
    }
  }

  mutating func text(_ raw: UnsafeBufferPointer<UInt8>) {
    textBytes += raw.count
    guard raw.contains(where: ASCII.isDigit) else {
      if nearTitle > 0 { nearTitle -= min(nearTitle, raw.count) }
      if hint != nil { appendHint(raw) }
      return
    }
    if raw.contains(UInt8(ascii: "&")) {
      var decoded = scratch
      scratch = []
      decoded.removeAll(keepingCapacity: true)
      CharacterReferences.decode(raw, isAttribute: false, into: &decoded)
      decoded.withUnsafeBufferPointer { read($0) }
      scratch = decoded
    } else {
      read(raw)
    }
    if nearTitle > 0 { nearTitle -= min(nearTitle, raw.count) }
  }

  private mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) {
    if hint != nil { appendHint(bytes) }
    scan(bytes)
  }

  private mutating func appendHint(_ bytes: UnsafeBufferPointer<UInt8>) {
    let room = Self.maximumHintBytes - hintText.count
    guard room > 0 else { return }
    if !hintText.isEmpty { hintText.append(UInt8(ascii: " ")) }
    hintText.append(contentsOf: bytes.prefix(room))
    if hintText.count >= Self.maximumHintBytes { finishHint() }
  }

  /// The dates of one run of text, scored by the words before them.
  private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
    copyright(in: bytes)
    var found: [DateText.Found] = []
    DateText.find(in: bytes, dayFirst: dayFirst) { if found.count < 8 { found.append($0) } }
    for date in found {
      let isStamp = Self.isStamp(date, in: bytes)
      if date.hasShortYear && !isStamp { continue }
      let parsed = DateParser.Parsed(
        year: date.year, month: date.month, day: date.day, time: nil, offset: nil)
      var score = 10
      if Self.follows(Self.publishedWords, before: date.start, in: bytes) {
        score = 45
      } else if Self.followsWord(Self.prepositions, before: date.start, in: bytes) {
        score = 30
      }
      // An update in plain text is no publication date, however it stands (`Last updated on …`).
      if isUpdate(before: date.start, in: bytes) { continue }
      if isStamp { score += 20 }
      offer(parsed, score: score, source: .text)
    }
  }

  /// Whether a date stands alone in its run of text (`<em>10.11.2021</em>`, `Party, 30.10.23`,
  /// `am 20.09.2020`), as a page stamps its own date, rather than inside a sentence.
  static func isStamp(_ date: DateText.Found, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var letters = 0
    for index in 0..<bytes.count where index < date.start || index >= date.end {
      if ASCII.isAlpha(bytes[index]) || bytes[index] >= 0xC0 { letters += 1 }
    }
    return letters <= 12
  }

  private func isUpdate(before start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    Self.follows(Self.updateWords, before: start, in: bytes)
  }

  /// `© 2019`, `Copyright 2005–2019`: the last year of the line bounds the page's dates.
  private mutating func copyright(in bytes: UnsafeBufferPointer<UInt8>) {
    guard copyrightYear == nil else { return }
    var index = 0
    while index + 1 < bytes.count {
      if bytes[index] == 0xC2 && bytes[index + 1] == 0xA9 {
        var year: Int?
        var cursor = index + 2
        var scanned = 0
        while cursor < bytes.count, scanned < 24 {
          if ASCII.isDigit(bytes[cursor]) {
            var value = 0
            let start = cursor
            while cursor < bytes.count, ASCII.isDigit(bytes[cursor]) {
              // Only a four-digit run is a year: a longer one is read no further than that.
              if cursor - start < 5 { value = value * 10 + Int(bytes[cursor] - UInt8(ascii: "0")) }
              cursor += 1
            }
            if cursor - start == 4, (Self.minimumYear...2100).contains(value) { year = value }
          } else {
            cursor += 1
          }
          scanned += 1
        }
        if let year { copyrightYear = year }
        return
      }
      index += 1
    }
  }

  private mutating func offer(_ date: DateParser.Parsed, score: Int, source: Source) {
    guard date.year >= Self.minimumYear, DateParser.isPlausible(date, now: now) else { return }
    var score = score
    if source != .url {
      if blockDepth > 0 { score += 10 }
      if asideDepth > 0 { score -= 30 }
      if nearTitle > 0 || inH1 { score += 20 }
    }
    let candidate = Candidate(date: date, score: score, source: source)
    if candidates.count < Self.maximumCandidates { candidates.append(candidate) }
  }

  /// The best candidate once the page is read, the URL's date among them.
  mutating func result(url: WebURL?) -> Candidate? {
    if let url, let date = Self.urlDate(url), date.year >= Self.minimumYear,
      DateParser.isPlausible(date, now: now)
    {
      return Candidate(date: date, score: 100, source: .url)
    }
    finishHint()
    var best: Candidate?
    for var candidate in candidates {
      if let copyrightYear, candidate.date.year > copyrightYear { candidate.score -= 30 }
      // A date the page calls an update, that nothing else vouches for (below zero: plain text after
      // "Updated"), is no publication date: the page states when it changed, not when it appeared.
      if candidate.score >= 0, candidate.score > best?.score ?? Int.min { best = candidate }
    }
    return best
  }

  /// The page's own local date for a structured date stated in UTC (`2023-11-09T05:30:59Z` on a
  /// page whose readers saw 8 November): the same instant in one of the page's other statements of
  /// it (`times`: JSON-LD `datePublished` texts, `<time datetime>` values) with an offset, or a zoneless one whose clock is a whole quarter hour off it
  /// (that offset taken); else the day of the URL's date (`urlDate`), when it is the day before
  /// (UTC time before 10:00: offsets down to -10:00) or the day after (from 10:00 on: up to
  /// +14:00). `nil` when nothing on the page says the UTC day is not the local one. It reads only
  /// what the first pass collected: no second pass for the many pages that state their date in UTC.
  static func localDate(for utc: DateParser.Parsed, times: [String], url: WebURL?, now: Int64) -> Candidate? {
    guard utc.offset == 0, let time = utc.time else { return nil }
    let instant =
      DateParser.daysFromCivil(utc.year, utc.month, utc.day) * 86_400
      + Int64(time.hour * 3600 + time.minute * 60 + time.second)
    for text in times {
      // A clock the calendar has no room for (hour 25) is no statement of the instant.
      guard let date = DateParser.parse(text), let clock = date.time, DateParser.isPlausible(date, now: now)
      else { continue }
      let wall =
        DateParser.daysFromCivil(date.year, date.month, date.day) * 86_400
        + Int64(clock.hour * 3600 + clock.minute * 60 + clock.second)
      if let offset = date.offset {
        if offset != 0, wall - Int64(offset * 60) == instant {
          return Candidate(date: date, score: 50, source: .timeElement)
        }
      } else if wall != instant, (wall - instant) % 900 == 0, abs(wall - instant) <= 14 * 3600 {
        var local = date
        local.offset = Int((wall - instant) / 60)
        return Candidate(date: local, score: 50, source: .timeElement)
      }
    }
    guard let url, let date = urlDate(url) else { return nil }
    let day = DateParser.daysFromCivil(date.year, date.month, date.day)
    let utcDay = instant / 86_400
    let secondOfDay = instant - utcDay * 86_400
    guard
      (day == utcDay - 1 && secondOfDay < 10 * 3600) || (day == utcDay + 1 && secondOfDay >= 10 * 3600)
    else { return nil }
    return Candidate(date: date, score: 100, source: .url)
  }

  // MARK: - Words

  /// Whether one of `words` (lower-case) ends within 40 bytes before `start`.
  static func follows(_ words: [StaticString], before start: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    let from = max(0, start - 40)
    let window = UnsafeBufferPointer(rebasing: bytes[from..<start])
    return words.contains { contains($0, in: window) }
  }

  /// Whether the word just before `start` is one of `words`.
  static func followsWord(_ words: [StaticString], before start: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    var end = start
    while end > 0,
      ASCII.isWhitespace(bytes[end - 1]) || bytes[end - 1] == 0xA0 || bytes[end - 1] == 0xC2
        || bytes[end - 1] == UInt8(ascii: ":")
    {
      end -= 1
    }
    var begin = end
    while begin > 0, ASCII.isAlpha(bytes[begin - 1]) || bytes[begin - 1] >= 0x80 { begin -= 1 }
    guard end > begin, end - begin <= 8 else { return false }
    return words.contains { word in
      word.utf8CodeUnitCount == end - begin
        && (0..<(end - begin)).allSatisfy { ASCII.lower(bytes[begin + $0]) == word.utf8Start[$0] }
    }
  }

  static let publishedWords: [StaticString] = [
    "publi", "pubbl", "posted", "veröffentlicht", "erschienen", "opublikowan", "публикован", "yayınla",
    "julkaistu", "released", "geplaatst", "publicerad", "publiceret", "publisert", "vydáno", "written",
  ]
  static let updateWords: [StaticString] = [
    "updat", "aktualisiert", "geändert", "mis à jour", "mise à jour", "actualiz", "atualiz", "aggiorn",
    "bijgewerkt", "zaktualizow", "бновлен", "güncel", "uppdater", "opdater", "oppdater", "päivitet",
    "aktualizov", "modifi", "edited",
  ]
  static let prepositions: [StaticString] = [
    "on", "am", "le", "el", "il", "op", "dnia", "от", "vom", "du", "del", "de", "em", "den", "dne", "on:",
  ]

  // MARK: - URL

  /// The day a URL names: `/2019/04/03/`, `/20190403/`, `/2019-04-03-slug`, or a `date=` query value
  /// (its day only).
  static func urlDate(_ url: WebURL) -> DateParser.Parsed? {
    var path = url.path
    if let found = path.withUTF8({ urlDate(in: $0) }) { return found }
    guard let query = url.query else { return nil }
    for item in query.split(separator: "&") {
      let pair = item.split(separator: "=", maxSplits: 1)
      guard pair.count == 2, ASCII.lowercased(String(pair[0])).hasSuffix("date") else { continue }
      let value = String(pair[1])
      // A day, as the path's dates are: a stamp with a clock (`1244447442744`, an ISO date-time)
      // gives the day it names, so that the URL source is one kind of date whatever its form.
      if let parsed = DateParser.parse(value), parsed.year >= minimumYear {
        return DateParser.Parsed(
          year: parsed.year, month: parsed.month, day: parsed.day, time: nil, offset: nil)
      }
    }
    return nil
  }

  private static func urlDate(in bytes: UnsafeBufferPointer<UInt8>) -> DateParser.Parsed? {
    func isEdge(_ index: Int) -> Bool {
      index == bytes.count
        || [UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: ".")]
          .contains(bytes[index])
    }
    func digits(_ start: Int, _ count: Int) -> Int? {
      guard start + count <= bytes.count else { return nil }
      var value = 0
      for index in start..<start + count {
        guard ASCII.isDigit(bytes[index]) else { return nil }
        value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
      }
      return value
    }
    var index = 0
    while index < bytes.count {
      defer { index += 1 }
      guard
        bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "-")
          || bytes[index] == UInt8(ascii: "_")
      else { continue }
      let start = index + 1
      guard let year = digits(start, 4), (minimumYear...2100).contains(year) else { continue }
      if start + 10 <= bytes.count,
        bytes[start + 4] == UInt8(ascii: "/") || bytes[start + 4] == UInt8(ascii: "-"),
        bytes[start + 7] == bytes[start + 4], let month = digits(start + 5, 2),
        let day = digits(start + 8, 2),
        isEdge(start + 10)
      {
        return DateParser.Parsed(year: year, month: month, day: day, time: nil, offset: nil)
      }
      if let month = digits(start + 4, 2), let day = digits(start + 6, 2), isEdge(start + 8),
        (1...12).contains(month), (1...31).contains(day), bytes[index] == UInt8(ascii: "/")
      {
        return DateParser.Parsed(year: year, month: month, day: day, time: nil, offset: nil)
      }
    }
    return nil
  }
}
