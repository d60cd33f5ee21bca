// libFuzzer entry point for the date parser the extractor runs on every date text a page states
// (metas, JSON-LD, microdata, <time>, the URL path). Built by `scripts/fuzz dates` with
// Sources/ThumbifyExtracting/**/*.swift compiled into the fuzzer's own module (internal API).

/// Feeds one input to `DateParser` as a page's date text, as a URL path and, from its first eight
/// bytes, as a Unix timestamp; checks the promises docs/metadata.md ("Dates") makes:
///
/// - the output is RFC 3339 (`YYYY-MM-DD`, or with a time and a zone) and reads back as itself, so a
///   card's date is stable when it is extracted again;
/// - it is never before `DateParser.minimumYear` nor more than a day after the clock.
@_cdecl("LLVMFuzzerTestOneInput")
public func dateFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let text = String(decoding: bytes, as: UTF8.self)
  // A fixed clock (2026-12-01T00:00:00Z), so that a failure reproduces.
  let now: Int64 = 1_796_083_200

  if let date = DateParser.rfc3339(text, now: now) { checkDate(date, from: text, now: now) }
  // The input as a page URL's path and query (`DateSearch.urlDate`: `/2019/04/03/`, `?date=`):
  // what the whole-page date search takes from the URL.
  if let url = WebURL("https://example.test/" + text), let parsed = DateSearch.urlDate(url),
    DateParser.isPlausible(parsed, now: now)
  {
    let date = DateParser.format(parsed)
    check(date.utf8.count == 10, "URL date \(date) from \(text.debugDescription) is not a date alone")
    checkDate(date, from: text, now: now)
  }
  if size >= 8 {
    var bits: UInt64 = 0
    for byte in bytes.prefix(8) { bits = bits << 8 | UInt64(byte) }
    let timestamp = Double(bitPattern: bits)
    if let date = DateParser.rfc3339(timestamp: timestamp, now: now) {
      checkDate(date, from: "timestamp \(timestamp)", now: now)
    }
  }
  return 0
}

/// The promises every date written out keeps.
private func checkDate(_ date: String, from input: String, now: Int64) {
  let bytes = Array(date.utf8)
  let isDigit = { (index: Int) in index < bytes.count && (0x30...0x39).contains(bytes[index]) }
  check(
    bytes.count >= 10 && (0..<4).allSatisfy(isDigit) && bytes[4] == 0x2D && isDigit(5) && isDigit(6)
      && bytes[7] == 0x2D && isDigit(8) && isDigit(9),
    "\(date) from \(input.debugDescription) does not start YYYY-MM-DD")
  check(
    bytes.count == 10
      || (bytes[10] == 0x54
        && (bytes.last == 0x5A || bytes[bytes.count - 6] == 0x2B
          || bytes[bytes.count - 6] == 0x2D)),
    "\(date) from \(input.debugDescription) has a time without a zone")
  let again = DateParser.rfc3339(date, now: now)
  check(again == date, "\(date) from \(input.debugDescription) reads back as \(again.debugDescription)")
  let number = { (range: Range<Int>) in Int(String(decoding: bytes[range], as: UTF8.self)) ?? 0 }
  let (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
  check(year >= DateParser.minimumYear, "\(date) from \(input.debugDescription) is before the minimum year")
  check(
    (1...12).contains(month) && (1...DateParser.daysInMonth(year, month)).contains(day),
    "\(date) from \(input.debugDescription) is no day of the calendar")
  // The local date may lead UTC by up to a day (a zone east of it).
  check(
    DateParser.daysFromCivil(year, month, day) * 86_400 <= now + DateParser.futureAllowance + 86_400,
    "\(date) from \(input.debugDescription) is in the future")
}

/// Traps (a crash libFuzzer reports with this input) when a promise is broken; unlike
/// `precondition`, `fatalError` keeps its message in an `-O` build.
private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("broken promise: \(message())") }
}
