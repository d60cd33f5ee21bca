// libFuzzer entry point for the whole-page date search (`DateSearch`, `DateText`) the extractor runs
// when no structured source gives a publication date, or gives one in UTC or from a generic meta.
// Built by `scripts/fuzz datesearch` with Sources/ThumbifyExtracting/**/*.swift compiled into the
// fuzzer's own module (internal API).

/// Feeds one input, as a text/HTML fragment, through the date search three ways: `DateText.find`
/// on the raw bytes (every language's day order), the search's tokenizer pass over it as a page's
/// body, and `MetadataExtractor` on it as a page whose head states a date in UTC (the local-day
/// rule) or in a generic `date` meta. The first byte picks the page's language and URL. Checks the
/// promises docs/metadata.md ("The date search") makes:
///
/// - every date found lies inside the text it was found in, in order;
/// - a date written out is RFC 3339, a day of the calendar, reads back as itself, is not before 1995
///   nor more than a day after the (fixed) clock;
/// - the search reads at most its text budget (plus one run of text) and its source is a documented one.
@_cdecl("LLVMFuzzerTestOneInput")
public func dateSearchFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  // A fixed clock (2026-12-01T00:00:00Z), so that a failure reproduces.
  let now: Int64 = 1_796_083_200
  let languages: [String?] = [nil, "en", "en-US", "en-GB", "de", "fr", "ja", "ko", "ru", "tr"]
  let urls = [
    "https://news.example.test/story", "https://news.example.test/2020/06/04/story/",
    "https://news.example.test/a/20200604/b", "https://news.example.test/x?date=2020-06-04",
  ]
  let pick = size > 0 ? Int(bytes[0]) : 0
  let language = languages[pick % languages.count]
  let url = urls[(pick / languages.count) % urls.count]

  for dayFirst in [nil, true, false] as [Bool?] {
    var last = 0
    DateText.find(in: bytes, dayFirst: dayFirst) { found in
      check(
        found.start >= last && found.start < found.end && found.end <= bytes.count,
        "DateText.find range \(found.start)..<\(found.end) outside 0..<\(bytes.count) or before \(last)")
      last = found.end
    }
  }

  var search = DateSearch(now: now, language: language)
  var tokenizer = HTMLTokenizer(bytes)
  tokenizer.looksForDateHints = true
  tokenizer.run(&search)
  check(search.textBytes <= DateSearch.maximumTextBytes + bytes.count, "the text budget was overrun")
  if let found = search.result(url: WebURL(url)) {
    checkDate(DateParser.format(found.date), from: bytes, now: now)
  }

  let body = String(decoding: bytes, as: UTF8.self)
  let heads = [
    "", #"<meta property="article:published_time" content="2020-06-04T02:30:00Z">"#,
    #"<meta name="date" content="2020-06-04">"#,
  ]
  let head = heads[(pick / (languages.count * urls.count)) % heads.count]
  let lang = language.map { #" lang="\#($0)""# } ?? ""
  let page = Array("<!doctype html><html\(lang)><head>\(head)</head><body>\(body)</body></html>".utf8)
  let metadata = MetadataExtractor(now: { now }).extract(html: page, pageURL: url, contentType: nil)
  if let published = metadata.publishedTime {
    checkDate(published, from: bytes, now: now)
    let sources = ["meta", "json-ld", "microdata", "time-element", "abbr", "url", "text"]
    check(
      metadata.publishedTimeSource.map(sources.contains) == true,
      "source \(metadata.publishedTimeSource.debugDescription) is not documented")
  }
  return 0
}

/// The promises every date written out keeps.
private func checkDate(_ date: String, from input: UnsafeBufferPointer<UInt8>, now: Int64) {
  let text = String(decoding: input.prefix(200), as: UTF8.self).debugDescription
  let bytes = Array(date.utf8)
  let isDigit = { (index: Int) in index < bytes.count && (0x30...0x39).contains(bytes[index]) }
  check(
    bytes.count >= 10 && (0..<4).allSatisfy(isDigit) && bytes[4] == 0x2D && isDigit(5) && isDigit(6)
      && bytes[7] == 0x2D && isDigit(8) && isDigit(9),
    "\(date) from \(text) does not start YYYY-MM-DD")
  let again = DateParser.rfc3339(date, now: now)
  check(again == date, "\(date) from \(text) reads back as \(again.debugDescription)")
  let number = { (range: Range<Int>) in Int(String(decoding: bytes[range], as: UTF8.self)) ?? 0 }
  let (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
  check(year >= DateSearch.minimumYear, "\(date) from \(text) is before 1995")
  check(
    (1...12).contains(month) && (1...DateParser.daysInMonth(year, month)).contains(day),
    "\(date) from \(text) is no day of the calendar")
  check(
    DateParser.daysFromCivil(year, month, day) * 86_400 <= now + DateParser.futureAllowance + 86_400,
    "\(date) from \(text) is in the future")
}

/// Traps (a crash libFuzzer reports with this input) when a promise is broken; unlike
/// `precondition`, `fatalError` keeps its message in an `-O` build.
private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("broken promise: \(message())") }
}
