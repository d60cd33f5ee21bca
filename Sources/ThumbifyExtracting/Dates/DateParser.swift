/// Reads the dates pages write — ISO 8601 and its common spellings, RFC 1123/850, asctime,
/// JavaScript's `Date.toString()`, English month-name forms with or without weekday, time and am/pm,
/// unambiguous numeric forms, Unix seconds and milliseconds — and writes them as RFC 3339.
///
/// Pure Swift on bytes: Foundation's `DateFormatter` leaks and traps on some non-ASCII input on
/// Linux, and every date here comes from untrusted pages. The calendar arithmetic is Howard
/// Hinnant's days-from-civil (proleptic Gregorian).
///
/// It never guesses (docs/metadata.md, Dates): a text that is ambiguous (`4/6/2016`), impossible
/// (month 13, 31 April, a weekday that does not match), before `minimumYear` or more than a day after
/// `now` gives `nil`.
enum DateParser {
  /// Dates before this year are taken for misreadings (or birth dates), not for web pages.
  static let minimumYear = 1990
  /// Allowance for clocks and time zones: a date up to a day after the extraction's clock is kept.
  static let futureAllowance: Int64 = 86_400
  /// Longer texts are no date; the cap also bounds the work on hostile input.
  static let maximumLength = 200

  /// A date as read, before it is written out.
  struct Parsed: Equatable {
    var year: Int
    var month: Int
    var day: Int
    /// Hour, minute, second and the fraction's digits as written; `nil` for a date alone.
    var time: (hour: Int, minute: Int, second: Int, fraction: String)?
    /// Minutes east of UTC when the text states a zone.
    var offset: Int?

    static func == (lhs: Parsed, rhs: Parsed) -> Bool {
      lhs.year == rhs.year && lhs.month == rhs.month && lhs.day == rhs.day && lhs.offset == rhs.offset
        && lhs.time?.hour == rhs.time?.hour && lhs.time?.minute == rhs.time?.minute
        && lhs.time?.second == rhs.time?.second && lhs.time?.fraction == rhs.time?.fraction
    }
  }

  /// The RFC 3339 form of `text`, or `nil` when it is no date, an ambiguous or impossible one,
  /// or too far in the future of `now` (Unix seconds).
  ///
  /// A time with a zone keeps the page's offset (`2021-05-13T14:01:31-04:00`; UTC as `Z`); a time
  /// without a zone cannot be placed on the time line, so only its date is kept (`2020-06-04`).
  static func rfc3339(_ text: String, now: Int64) -> String? {
    read(text, now: now)?.rfc3339
  }

  /// The RFC 3339 form of `text` and whether it says all the text said: `false` when a time of day
  /// was dropped for want of a zone.
  static func read(_ text: String, now: Int64) -> (rfc3339: String, isComplete: Bool)? {
    guard let parsed = parse(text), isPlausible(parsed, now: now) else { return nil }
    return (format(parsed), parsed.time == nil || parsed.offset != nil)
  }

  /// The RFC 3339 form of a Unix time in seconds, or milliseconds when it is that large.
  static func rfc3339(timestamp: Double, now: Int64) -> String? {
    guard let parsed = fromTimestamp(timestamp), isPlausible(parsed, now: now) else { return nil }
    return format(parsed)
  }

  // MARK: - Validation and output

  static func isPlausible(_ date: Parsed, now: Int64) -> Bool {
    guard date.year >= minimumYear, date.year <= 9999, (1...12).contains(date.month),
      (1...daysInMonth(date.year, date.month)).contains(date.day)
    else { return false }
    var seconds = daysFromCivil(date.year, date.month, date.day) * 86_400
    if let time = date.time {
      guard time.hour < 24, time.minute < 60, time.second < 60 else { return false }
      // A time without a zone is checked as its date: the day it starts.
      if let offset = date.offset {
        seconds += Int64(time.hour * 3600 + time.minute * 60 + time.second) - Int64(offset * 60)
      }
    }
    return seconds <= now + futureAllowance
  }

  static func format(_ date: Parsed) -> String {
    // Written byte by byte: one allocation, where string concatenation made one per part.
    var text: [UInt8] = []
    text.reserveCapacity(32)
    append(date.year, width: 4, to: &text)
    text.append(UInt8(ascii: "-"))
    append(date.month, width: 2, to: &text)
    text.append(UInt8(ascii: "-"))
    append(date.day, width: 2, to: &text)
    if let time = date.time, let offset = date.offset {
      text.append(UInt8(ascii: "T"))
      append(time.hour, width: 2, to: &text)
      text.append(UInt8(ascii: ":"))
      append(time.minute, width: 2, to: &text)
      text.append(UInt8(ascii: ":"))
      append(time.second, width: 2, to: &text)
      if !time.fraction.isEmpty {
        text.append(UInt8(ascii: "."))
        text += time.fraction.utf8
      }
      if offset == 0 {
        text.append(UInt8(ascii: "Z"))
      } else {
        let magnitude = abs(offset)
        text.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        append(magnitude / 60, width: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        append(magnitude % 60, width: 2, to: &text)
      }
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// Appends a non-negative `value` (a checked date's part: at most 9999) in decimal, zero-padded
  /// to `width` digits.
  private static func append(_ value: Int, width: Int, to text: inout [UInt8]) {
    var place = 1
    var count = 1
    while count < width || value / place >= 10 {
      place *= 10
      count += 1
    }
    while place > 0 {
      text.append(UInt8(ascii: "0") + UInt8(value / place % 10))
      place /= 10
    }
  }

  // MARK: - Calendar

  static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

  static func daysInMonth(_ year: Int, _ month: Int) -> Int {
    switch month {
    case 2: return isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's `days_from_civil`).
  static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let m = Int64(month)
    let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of a day count since 1970-01-01 (Hinnant's `civil_from_days`).
  static func civilFromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
    let month = Int(mp < 10 ? mp + 3 : mp - 9)
    let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  /// 0 for Sunday … 6 for Saturday (1970-01-01 was a Thursday).
  static func weekday(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let days = daysFromCivil(year, month, day)
    return Int(((days + 4) % 7 + 7) % 7)
  }

  // MARK: - Timestamps

  /// Seconds, or milliseconds from 10^11 on (year 5138 in seconds, 1973 in milliseconds).
  static func fromTimestamp(_ value: Double) -> Parsed? {
    guard value.isFinite, value > 0, value < 1e14 else { return nil }
    let seconds = Int64(value >= 1e11 ? value / 1000 : value)
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let (year, month, day) = civilFromDays(days)
    let inDay = Int(seconds - days * 86_400)
    return Parsed(
      year: year, month: month, day: day, time: (inDay / 3600, inDay / 60 % 60, inDay % 60, ""), offset: 0)
  }

  // MARK: - Parsing

  /// One piece of a date text.
  enum Token: Equatable {
    /// A run of digits: its value (capped) and its length.
    case number(Int, digits: Int)
    /// A run of ASCII letters, lower-cased.
    case word(String)
    /// One punctuation byte; `spaced` when whitespace came before it.
    case mark(UInt8, spaced: Bool)
  }

  /// Splits a text into numbers, words and marks; `nil` for any byte no date uses (non-ASCII,
  /// control bytes) and for texts longer than `maximumLength`.
  static func tokens(_ text: String) -> [Token]? {
    let bytes = Array(text.utf8)
    guard bytes.count <= maximumLength else { return nil }
    var tokens: [Token] = []
    var index = 0
    var spaced = false
    while index < bytes.count {
      let byte = bytes[index]
      if ASCII.isWhitespace(byte) {
        spaced = true
        index += 1
      } else if ASCII.isDigit(byte) {
        var value = 0
        let start = index
        while index < bytes.count, ASCII.isDigit(bytes[index]) {
          if index - start < 15 { value = value * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
          index += 1
        }
        tokens.append(.number(value, digits: index - start))
        spaced = false
      } else if ASCII.isAlpha(byte) {
        let start = index
        while index < bytes.count, ASCII.isAlpha(bytes[index]) { index += 1 }
        tokens.append(.word(String(decoding: bytes[start..<index].map(ASCII.lower), as: UTF8.self)))
        spaced = false
      } else if byte >= 0x21 && byte < 0x7F {
        tokens.append(.mark(byte, spaced: spaced))
        spaced = false
        index += 1
      } else {
        return nil
      }
    }
    return tokens
  }

  /// Reads a date text into its parts without checking the calendar (`isPlausible` does).
  static func parse(_ text: String) -> Parsed? {
    isoDateTime(text) ?? parseGenerally(text)
  }

  /// What `parse` reads without the ISO 8601 fast path (the tests compare the two).
  static func parseGenerally(_ text: String) -> Parsed? {
    guard let tokens = tokens(text), !tokens.isEmpty else { return nil }
    // A bare number is a Unix time (10 digits: seconds, 13: milliseconds) or a compact ISO date.
    if tokens.count == 1, case .number(let value, let count) = tokens[0] {
      switch count {
      case 8:
        return Parsed(
          year: value / 10_000, month: value / 100 % 100, day: value % 100, time: nil, offset: nil)
      case 9, 10, 12, 13: return fromTimestamp(Double(value))
      default: return nil
      }
    }
    var reader = Reader(tokens: tokens)
    return reader.read()
  }

  /// The form most pages use (`article:published_time`, JSON-LD): `2024-05-01`, optionally
  /// followed by `T` or a space, `HH:MM`, `:SS`, `.fraction` (1–9 digits) and `Z` or `±HH:MM` /
  /// `±HHMM` — read straight from the bytes, as the general reader would read it. `nil` for
  /// anything else, which the general reader then reads (or refuses).
  static func isoDateTime(_ text: String) -> Parsed? {
    var text = text
    return text.withUTF8 { bytes -> Parsed? in
      var index = 0
      func number(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + count] {
          guard ASCII.isDigit(byte) else { return nil }
          value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += count
        return value
      }
      func skip(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
      }
      var atEnd: Bool { index == bytes.count }
      guard let year = number(4), skip(UInt8(ascii: "-")), let month = number(2), skip(UInt8(ascii: "-")),
        let day = number(2)
      else { return nil }
      var date = Parsed(year: year, month: month, day: day, time: nil, offset: nil)
      if atEnd { return date }
      guard skip(UInt8(ascii: "T")) || skip(UInt8(ascii: "t")) || skip(UInt8(ascii: " ")),
        let hour = number(2), skip(UInt8(ascii: ":")), let minute = number(2)
      else { return nil }
      var second = 0
      var fraction = ""
      if skip(UInt8(ascii: ":")) {
        guard let seconds = number(2) else { return nil }
        second = seconds
        if skip(UInt8(ascii: ".")) {
          let start = index
          while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
          guard (1...9).contains(index - start) else { return nil }
          fraction = String(decoding: bytes[start..<index], as: UTF8.self)
        }
      }
      date.time = (hour, minute, second, fraction)
      if atEnd { return date }
      if skip(UInt8(ascii: "Z")) || skip(UInt8(ascii: "z")) {
        date.offset = 0
      } else {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
        else { return nil }
        let negative = bytes[index] == UInt8(ascii: "-")
        index += 1
        guard let hours = number(2) else { return nil }
        _ = skip(UInt8(ascii: ":"))
        guard let minutes = number(2), minutes < 60, hours * 60 + minutes <= 14 * 60 else { return nil }
        date.offset = negative ? -(hours * 60 + minutes) : hours * 60 + minutes
      }
      return atEnd ? date : nil
    }
  }

  /// Walks the tokens once, collecting each part at most once; anything it does not know fails.
  struct Reader {
    let tokens: [Token]
    var index = 0
    var year: Int?
    var month: Int?
    var day: Int?
    /// Numbers standing alone (day or year of a month-name form).
    var loose: [(value: Int, digits: Int)] = []
    var time: (hour: Int, minute: Int, second: Int, fraction: String)?
    var meridiem: Int?  // 0 am, 12 pm
    var offset: Int?
    var weekday: Int?

    init(tokens: [Token]) { self.tokens = tokens }

    private func token(_ at: Int) -> Token? { at < tokens.count ? tokens[at] : nil }

    private func number(_ at: Int) -> (value: Int, digits: Int)? {
      if case .number(let value, let digits) = token(at) { return (value, digits) }
      return nil
    }

    private func mark(_ at: Int) -> UInt8? {
      if case .mark(let byte, _) = token(at) { return byte }
      return nil
    }

    private func word(_ at: Int) -> String? {
      if case .word(let word) = token(at) { return word }
      return nil
    }

    mutating func read() -> Parsed? {
      while index < tokens.count {
        switch tokens[index] {
        case .number:
          guard readNumber() else { return nil }
        case .word(let word):
          guard readWord(word) else { return nil }
        case .mark(let byte, let spaced):
          guard readMark(byte, spaced: spaced) else { return nil }
        }
      }
      return assemble()
    }

    /// A time (`14:01`, `14:01:31.123`), a numeric date (`2016-05-24`, `24.05.2016`), RFC 850's
    /// `24-May-16`, an hour before am/pm (`1 pm`), or a loose number.
    private mutating func readNumber() -> Bool {
      guard let first = number(index) else { return false }
      if mark(index + 1) == UInt8(ascii: ":") { return readTime() }
      if let separator = mark(index + 1),
        separator == UInt8(ascii: "-") || separator == UInt8(ascii: "/") || separator == UInt8(ascii: "."),
        let second = number(index + 2), mark(index + 3) == separator, let third = number(index + 4)
      {
        guard year == nil, month == nil else { return false }
        index += 5
        return numericDate(first, second, third, separator: separator)
      }
      if mark(index + 1) == UInt8(ascii: "-"), let name = word(index + 2), let month = Self.months[name],
        mark(index + 3) == UInt8(ascii: "-"), let last = number(index + 4)
      {
        guard self.month == nil, first.digits <= 2, last.digits == 2 || last.digits == 4 else { return false }
        self.month = month
        day = first.value
        // RFC 850's two-digit year: the floor (1990) rejects what would be read as 19xx anyway.
        year = last.digits == 4 ? last.value : 2000 + last.value
        index += 5
        return true
      }
      if time == nil, first.digits <= 2, let next = word(index + 1), Self.meridiemWords[next] != nil {
        time = (first.value, 0, 0, "")
        index += 1
        return true
      }
      // Ordinals: `4th`, `1st`.
      if let suffix = word(index + 1), ["st", "nd", "rd", "th"].contains(suffix), first.digits <= 2 {
        index += 1
      }
      loose.append(first)
      index += 1
      return loose.count <= 2
    }

    private mutating func numericDate(
      _ first: (value: Int, digits: Int), _ second: (value: Int, digits: Int),
      _ third: (value: Int, digits: Int), separator: UInt8
    ) -> Bool {
      if first.digits == 4, second.digits <= 2, third.digits <= 2 {
        // Year first is always year-month-day (ISO 8601, `2016/05/24`, `2016.05.24`).
        (year, month, day) = (first.value, second.value, third.value)
        return true
      }
      guard third.digits == 4, first.digits <= 2, second.digits <= 2 else { return false }
      year = third.value
      if separator == UInt8(ascii: ".") {
        // Dots are the day-first European and Russian form; US dates never use them.
        (day, month) = (first.value, second.value)
      } else if first.value > 12 && second.value <= 12 {
        (day, month) = (first.value, second.value)
      } else if second.value > 12 && first.value <= 12 {
        (month, day) = (first.value, second.value)
      } else if first.value == second.value {
        (month, day) = (first.value, second.value)
      } else {
        return false  // `4/6/2016`: April 6 in the US, 4 June elsewhere.
      }
      return true
    }

    /// `H:MM`, `H:MM:SS`, `H:MM:SS.fraction` (also `,fraction`).
    private mutating func readTime() -> Bool {
      guard time == nil, let hour = number(index), hour.digits <= 2, let minute = number(index + 2),
        minute.digits == 2
      else { return false }
      index += 3
      var second = 0
      var fraction = ""
      if mark(index) == UInt8(ascii: ":"), let seconds = number(index + 1), seconds.digits == 2 {
        second = seconds.value
        index += 2
        if let comma = mark(index), comma == UInt8(ascii: ".") || comma == UInt8(ascii: ","),
          let digits = number(index + 1), !(word(index + 2).map { Self.meridiemWords[$0] != nil } ?? false)
        {
          guard digits.digits <= 9 else { return false }
          fraction = Self.digits(digits.value, digits.digits)
          index += 2
        }
      }
      time = (hour.value, minute.value, second, fraction)
      return true
    }

    private static func digits(_ value: Int, _ count: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, count - text.count)) + text
    }

    private mutating func readWord(_ word: String) -> Bool {
      index += 1
      if let month = Self.months[word] {
        guard self.month == nil else { return false }
        self.month = month
        if mark(index) == UInt8(ascii: ".") { index += 1 }  // `Sept.`
        return true
      }
      if let day = Self.weekdays[word] {
        guard weekday == nil else { return false }
        weekday = day
        return true
      }
      if let value = Self.meridiemWords[word] {
        guard meridiem == nil, time != nil else { return false }
        meridiem = value
        // `a.m.` / `p.m.`
        if word.count == 1, mark(index) == UInt8(ascii: "."), self.word(index + 1) == "m" {
          index += 2
          if mark(index) == UInt8(ascii: ".") { index += 1 }
        }
        return true
      }
      if word == "t", year != nil, time == nil, number(index) != nil { return true }  // ISO's `T`.
      if let zone = Self.zones[word] {
        // Go's `+0000 UTC` and `-0400 EDT` name the offset just stated: fine when they agree.
        if let offset { return offset == zone }
        offset = zone
        // `GMT+0200`, `UTC-4`: an offset from the named zone.
        if zone == 0, let sign = mark(index), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
          index += 1
          guard let stated = readOffset(negative: sign == UInt8(ascii: "-")) else { return false }
          offset = stated
        }
        return true
      }
      return Self.fillers.contains(word)
    }

    private mutating func readMark(_ byte: UInt8, spaced: Bool) -> Bool {
      index += 1
      switch byte {
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        // An offset follows a time; a lone dash between parts (`May 24 - 2016`) is punctuation.
        if time != nil, offset == nil, number(index) != nil {
          guard let stated = readOffset(negative: byte == UInt8(ascii: "-")) else { return false }
          offset = stated
          return true
        }
        return byte == UInt8(ascii: "-") && spaced
      case UInt8(ascii: "("):
        // `GMT-0400 (Eastern Daylight Time)`: the name in parentheses repeats the offset.
        while index < tokens.count, mark(index) != UInt8(ascii: ")") { index += 1 }
        guard index < tokens.count else { return false }
        index += 1
        return true
      case UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "|"),
        UInt8(ascii: "@"):
        return true
      default:
        return false
      }
    }

    /// `hh:mm`, `hhmm`, `hh` or `h` after a sign, in minutes east of UTC; at most ±14:00.
    private mutating func readOffset(negative: Bool) -> Int? {
      guard let first = number(index) else { return nil }
      index += 1
      var minutes: Int
      switch first.digits {
      case 1, 2:
        minutes = first.value * 60
        if mark(index) == UInt8(ascii: ":"), let second = number(index + 1), second.digits == 2 {
          guard second.value < 60 else { return nil }
          minutes += second.value
          index += 2
        }
      case 4:
        guard first.value % 100 < 60 else { return nil }
        minutes = first.value / 100 * 60 + first.value % 100
      default:
        return nil
      }
      guard minutes <= 14 * 60 else { return nil }
      return negative ? -minutes : minutes
    }

    private mutating func assemble() -> Parsed? {
      if year == nil {
        // A month-name form: one four-digit year and one day among the loose numbers.
        guard month != nil, loose.count == 2 else { return nil }
        let years = loose.filter { $0.digits == 4 }
        let days = loose.filter { $0.digits <= 2 }
        guard years.count == 1, days.count == 1 else { return nil }
        year = years[0].value
        day = days[0].value
      } else if !loose.isEmpty {
        return nil
      }
      guard let year, let month, let day else { return nil }
      if var time {
        if let meridiem {
          guard (1...12).contains(time.hour) else { return nil }
          time.hour = time.hour % 12 + meridiem
        }
        self.time = time
      }
      if let weekday, weekday != DateParser.weekday(year, month, day) { return nil }
      return Parsed(year: year, month: month, day: day, time: self.time, offset: offset)
    }

    static let months: [String: Int] = [
      "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4, "may": 5,
      "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9,
      "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
    ]
    static let weekdays: [String: Int] = [
      "sun": 0, "sunday": 0, "mon": 1, "monday": 1, "tue": 2, "tues": 2, "tuesday": 2, "wed": 3,
      "wednesday": 3, "thu": 4, "thur": 4, "thurs": 4, "thursday": 4, "fri": 5, "friday": 5, "sat": 6,
      "saturday": 6,
    ]
    static let meridiemWords: [String: Int] = ["am": 0, "a": 0, "pm": 12, "p": 12]
    /// Minutes east of UTC. CST is US Central (not China), IST India (not Ireland or Israel): the
    /// readings English-language pages mean.
    static let zones: [String: Int] = [
      "z": 0, "utc": 0, "gmt": 0, "ut": 0, "wet": 0, "west": 60, "bst": 60, "cet": 60, "cest": 120,
      "met": 60, "mest": 120, "eet": 120, "eest": 180, "msk": 180, "ist": 330, "pkt": 300, "ict": 420,
      "wib": 420, "hkt": 480, "sgt": 480, "awst": 480, "pht": 480, "jst": 540, "kst": 540, "acst": 570,
      "acdt": 630, "aest": 600, "aedt": 660, "nzst": 720, "nzdt": 780, "est": -300, "edt": -240,
      "cst": -360, "cdt": -300, "mst": -420, "mdt": -360, "pst": -480, "pdt": -420, "akst": -540,
      "akdt": -480, "hst": -600, "ast": -240, "adt": -180, "nst": -210, "ndt": -150,
    ]
    /// Words around dates that carry no part of them (`Published on June 4, 2020 at 1:32 pm`).
    static let fillers: Set<String> = [
      "at", "on", "of", "the", "published", "updated", "posted", "modified", "last", "date", "time",
    ]
  }
}
