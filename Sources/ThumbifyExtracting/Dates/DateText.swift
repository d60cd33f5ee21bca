/// Finds the date expressions in a run of visible text (`DateSearch`), in the forms pages write
/// them in: `2019-04-03`, `03.04.2019`, `3/4/2019` (only where the numbers or the page's language
/// tell day from month), `3. April 2019`, `3 avril 2019`, `3 de abril de 2019`, `April 3rd, 2019`,
/// with month names in English, German, French, Spanish, Italian, Portuguese, Dutch, Polish,
/// Russian, Turkish, Swedish, Danish, Norwegian, Finnish and Czech, and `2020年7月3日` /
/// `2020년 7월 3일` (Chinese, Japanese, Korean).
///
/// It looks only where a digit stands, so text without numbers costs one pass of byte compares,
/// and it makes no string unless a digit run could start or end a date.
enum DateText {
  /// A date found: its parts and the byte range of its text.
  struct Found: Equatable {
    var year: Int
    var month: Int
    var day: Int
    var start: Int
    var end: Int
    /// A dotted day-first date with a two-digit year (`31.10.23`): a page's own stamp in a byline
    /// or a date element, but too like a version number in running text.
    var hasShortYear = false
  }

  /// Which of day and month comes first in an all-numeric date with `/` or `-` whose numbers do not
  /// tell: `true` day first, `false` month first, `nil` unknown (such a date is left out).
  static func dayFirst(language: String?) -> Bool? {
    guard let language = language.map(ASCII.lowercased), !language.isEmpty else { return nil }
    // Plain `en` is any English: `4/6/2020` is June in London and April in New York, so it is left
    // out unless one number is above 12.
    if language.hasPrefix("en-us") || language.hasPrefix("en_us") { return false }
    if language.hasPrefix("en") { return language.count > 2 ? true : nil }
    return true
  }

  /// Every date in `bytes`, in order.
  static func find(
    in bytes: UnsafeBufferPointer<UInt8>, dayFirst: Bool?, _ visit: (Found) -> Void
  ) {
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      guard ASCII.isDigit(byte), index == 0 || !ASCII.isAlphanumeric(bytes[index - 1]) else {
        index += 1
        continue
      }
      let (value, end) = number(bytes, index)
      let digits = end - index
      if let found = dateAt(bytes, index, value: value, digits: digits, end: end, dayFirst: dayFirst) {
        visit(found)
        index = found.end
      } else {
        index = end
      }
    }
  }

  private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> (Int, Int) {
    var value = 0
    var index = start
    while index < bytes.count, ASCII.isDigit(bytes[index]) {
      if index - start < 9 { value = value * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
      index += 1
    }
    return (value, index)
  }

  private static func dateAt(
    _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, value: Int, digits: Int, end: Int, dayFirst: Bool?
  ) -> Found? {
    let count = bytes.count
    guard digits <= 4 else { return nil }
    if digits == 4, let found = cjkDate(bytes, start, year: value, end: end) { return found }
    // All-numeric forms: the same separator twice.
    if end + 1 < count, [UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: ".")].contains(bytes[end]),
      ASCII.isDigit(bytes[end + 1])
    {
      let separator = bytes[end]
      let (second, secondEnd) = number(bytes, end + 1)
      if secondEnd - end - 1 <= 2, secondEnd + 1 < count, bytes[secondEnd] == separator,
        ASCII.isDigit(bytes[secondEnd + 1])
      {
        let (third, thirdEnd) = number(bytes, secondEnd + 1)
        let thirdDigits = thirdEnd - secondEnd - 1
        let ends = thirdEnd == count || !ASCII.isAlphanumeric(bytes[thirdEnd])
        if ends, digits == 4, thirdDigits <= 2 {
          return Found(year: value, month: second, day: third, start: start, end: thirdEnd)
        }
        // `31.10.23`: dotted, day first, a two-digit year read as 19yy from 95 on, else 20yy.
        if ends, digits <= 2, thirdDigits == 2, separator == UInt8(ascii: "."), secondEnd - end - 1 == 2,
          (1...12).contains(second), (1...31).contains(value),
          thirdEnd == count || bytes[thirdEnd] != UInt8(ascii: ".") || thirdEnd + 1 == count
            || !ASCII.isDigit(bytes[thirdEnd + 1])
        {
          return Found(
            year: third >= 95 ? 1900 + third : 2000 + third, month: second, day: value, start: start,
            end: thirdEnd, hasShortYear: true)
        }
        if ends, digits <= 2, thirdDigits == 4 {
          let dayFirstHere: Bool
          if separator == UInt8(ascii: ".") || value > 12 {
            dayFirstHere = true
          } else if second > 12 {
            dayFirstHere = false
          } else if value == second {
            dayFirstHere = true
          } else if let dayFirst {
            dayFirstHere = dayFirst
          } else {
            return nil
          }
          return Found(
            year: third, month: dayFirstHere ? second : value, day: dayFirstHere ? value : second,
            start: start,
            end: thirdEnd)
        }
      }
      return nil
    }
    guard digits <= 2 else { return nil }
    // Day, then a month name, then the year: `3. April 2019`, `3 de abril de 2019`, `3rd June 2019`.
    var index = skipOrdinal(bytes, end)
    index = skipSpace(bytes, index)
    index = skipWord(bytes, index, ["de"])  // `4 de junio de 2020`, `4 de junho de 2020`
    if let (month, afterMonth) = monthWord(bytes, index) {
      var next = skipSpace(bytes, afterMonth)
      if next < count, bytes[next] == UInt8(ascii: ",") { next = skipSpace(bytes, next + 1) }
      next = skipWord(bytes, next, ["de", "del"])
      if let (year, yearEnd) = year(bytes, next) {
        return Found(year: year, month: month, day: value, start: start, end: yearEnd)
      }
      return nil
    }
    // A month name, then the day, then the year: `April 3, 2019`, `Apr. 3rd 2019`.
    if let (month, monthStart) = monthBefore(bytes, start) {
      var next = skipOrdinal(bytes, end)
      if next < count, bytes[next] == UInt8(ascii: ",") { next += 1 }
      next = skipSpace(bytes, next)
      if next < count, bytes[next] == UInt8(ascii: ",") { next = skipSpace(bytes, next + 1) }
      if let (year, yearEnd) = year(bytes, next) {
        // The date starts at its month name: the word before it is the one that says what it is
        // (`on April 3, 2019`).
        return Found(year: year, month: month, day: value, start: monthStart, end: yearEnd)
      }
    }
    return nil
  }

  /// `2020年7月3日` (Chinese, Japanese) and `2020년 7월 3일` (Korean), the year's digits from
  /// `start` to `end`.
  private static func cjkDate(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, year: Int, end: Int)
    -> Found?
  {
    func mark(_ mark: (UInt8, UInt8, UInt8), at index: Int) -> Bool {
      index + 2 < bytes.count && bytes[index] == mark.0 && bytes[index + 1] == mark.1
        && bytes[index + 2] == mark.2
    }
    let forms: [[(UInt8, UInt8, UInt8)]] = [
      [(0xE5, 0xB9, 0xB4), (0xE6, 0x9C, 0x88), (0xE6, 0x97, 0xA5)],  // 年 月 日
      [(0xEB, 0x85, 0x84), (0xEC, 0x9B, 0x94), (0xEC, 0x9D, 0xBC)],  // 년 월 일
    ]
    for form in forms where mark(form[0], at: end) {
      let monthStart = skipSpace(bytes, end + 3)
      guard monthStart < bytes.count, ASCII.isDigit(bytes[monthStart]) else { return nil }
      let (month, monthEnd) = number(bytes, monthStart)
      guard monthEnd - monthStart <= 2, mark(form[1], at: monthEnd) else { return nil }
      let dayStart = skipSpace(bytes, monthEnd + 3)
      guard dayStart < bytes.count, ASCII.isDigit(bytes[dayStart]) else { return nil }
      let (day, dayEnd) = number(bytes, dayStart)
      guard dayEnd - dayStart <= 2, mark(form[2], at: dayEnd), (1...12).contains(month),
        (1...31).contains(day)
      else { return nil }
      return Found(year: year, month: month, day: day, start: start, end: dayEnd + 3)
    }
    return nil
  }

  /// A four-digit year at `index` not followed by a letter or digit.
  private static func year(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> (Int, Int)? {
    guard index < bytes.count, ASCII.isDigit(bytes[index]) else { return nil }
    let (value, end) = number(bytes, index)
    guard end - index == 4, end == bytes.count || !ASCII.isAlphanumeric(bytes[end]) else { return nil }
    return (value, end)
  }

  /// Past `.`, `st`/`nd`/`rd`/`th`, `º`/`°` after a day.
  private static func skipOrdinal(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
    let count = bytes.count
    guard index < count else { return index }
    if bytes[index] == UInt8(ascii: ".") { return index + 1 }
    if index + 1 < count, bytes[index] == 0xC2, bytes[index + 1] == 0xBA || bytes[index + 1] == 0xB0 {
      return index + 2
    }
    if index + 1 < count, ASCII.isAlpha(bytes[index]), ASCII.isAlpha(bytes[index + 1]),
      index + 2 == count || !ASCII.isAlpha(bytes[index + 2])
    {
      let pair = (ASCII.lower(bytes[index]), ASCII.lower(bytes[index + 1]))
      if pair == (UInt8(ascii: "s"), UInt8(ascii: "t")) || pair == (UInt8(ascii: "n"), UInt8(ascii: "d"))
        || pair == (UInt8(ascii: "r"), UInt8(ascii: "d")) || pair == (UInt8(ascii: "t"), UInt8(ascii: "h"))
      {
        return index + 2
      }
    }
    return index
  }

  /// Past spaces, tabs, line breaks and no-break spaces (U+00A0, U+202F).
  static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
    var index = index
    while index < bytes.count {
      if ASCII.isWhitespace(bytes[index]) {
        index += 1
      } else if index + 1 < bytes.count, bytes[index] == 0xC2, bytes[index + 1] == 0xA0 {
        index += 2
      } else if index + 2 < bytes.count, bytes[index] == 0xE2, bytes[index + 1] == 0x80,
        bytes[index + 2] == 0xAF
      {
        index += 3
      } else {
        break
      }
    }
    return index
  }

  /// Past one of `words` (lower-case ASCII) and the space after it, if it stands at `index`.
  private static func skipWord(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ words: [StaticString])
    -> Int
  {
    let end = wordEnd(bytes, index)
    for word in words where word.utf8CodeUnitCount == end - index {
      var same = true
      for offset in 0..<(end - index) where ASCII.lower(bytes[index + offset]) != word.utf8Start[offset] {
        same = false
      }
      if same { return skipSpace(bytes, end) }
    }
    return index
  }

  /// The end of the letters (ASCII or any non-ASCII but a no-break space) from `index`.
  static func wordEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
    var index = index
    while index < bytes.count {
      let byte = bytes[index]
      if ASCII.isAlpha(byte) {
        index += 1
      } else if byte >= 0x80 {
        if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xA0 { break }
        if byte == 0xE2 { break }  // Punctuation: dashes, quotes, U+202F.
        index += 1
      } else {
        break
      }
    }
    return index
  }

  /// The month a word at `index` names, and where it (and an abbreviation's `.`) ends.
  private static func monthWord(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> (Int, Int)? {
    let end = wordEnd(bytes, index)
    guard end - index >= 3, end - index <= 24, let month = month(bytes, index..<end) else { return nil }
    if end < bytes.count, bytes[end] == UInt8(ascii: ".") { return (month, end + 1) }
    return (month, end)
  }

  /// The month named just before `start` (`April 3`, `Apr. 3`, `April, 3`).
  private static func monthBefore(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> (Int, Int)? {
    var end = start
    var sawSpace = false
    while end > 0,
      ASCII.isWhitespace(bytes[end - 1]) || bytes[end - 1] == UInt8(ascii: ".")
        || bytes[end - 1] == UInt8(ascii: ",")
    {
      sawSpace = sawSpace || ASCII.isWhitespace(bytes[end - 1])
      end -= 1
    }
    if end >= 2, bytes[end - 2] == 0xC2, bytes[end - 1] == 0xA0 {
      end -= 2
      sawSpace = true
    }
    guard sawSpace || end == start else { return nil }
    var begin = end
    while begin > 0, ASCII.isAlpha(bytes[begin - 1]) || (bytes[begin - 1] >= 0x80 && bytes[begin - 1] != 0xA0)
    {
      begin -= 1
      if end - begin > 24 { return nil }
    }
    guard end - begin >= 3, let month = month(bytes, begin..<end) else { return nil }
    return (month, begin)
  }

  private static func month(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    var word: [UInt8] = []
    word.reserveCapacity(range.count)
    for index in range { word.append(ASCII.lower(bytes[index])) }
    // Capital letters outside ASCII that start month names: Ş, Ö, Ä, Ú and Cyrillic.
    if range.count >= 2 {
      switch (word[0], word[1]) {
      case (0xC5, 0x9E): word[1] = 0x9F  // Ş → ş
      case (0xC3, 0x96), (0xC3, 0x84), (0xC3, 0x9A): word[1] += 0x20  // Ö Ä Ú → ö ä ú
      case (0xD0, 0x90...0x9F): word[1] += 0x20  // А–П → а–п
      case (0xD0, 0xA0...0xAF): (word[0], word[1]) = (0xD1, word[1] - 0x20)  // Р–Я → р–я
      default: break
      }
    }
    return months[String(decoding: word, as: UTF8.self)]
  }

  /// Month names and their abbreviations, lower-cased, with the inflected forms dates use.
  static let months: [String: Int] = {
    let names: [[String]] = [
      // English
      [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
      ],
      ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"],
      ["", "", "", "", "", "", "", "", "sept", "", "", ""],
      // German
      [
        "januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september", "oktober",
        "november", "dezember",
      ],
      ["jänner", "feber", "mär", "", "", "", "", "", "", "okt", "", "dez"],
      ["", "", "mrz", "", "", "", "", "", "", "", "", ""],
      // French
      [
        "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
        "novembre", "décembre",
      ],
      ["janv", "févr", "", "avr", "", "", "juil", "aout", "", "", "", "déc"],
      ["", "fevrier", "", "", "", "", "", "", "", "", "", "decembre"],
      ["", "fév", "", "", "", "", "", "", "", "", "", ""],
      // Spanish
      [
        "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
        "noviembre", "diciembre",
      ],
      ["ene", "", "", "abr", "", "", "", "ago", "setiembre", "", "", "dic"],
      // Italian
      [
        "gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
        "ottobre", "novembre", "dicembre",
      ],
      ["gen", "", "", "", "mag", "giu", "lug", "", "set", "ott", "", ""],
      // Portuguese
      [
        "janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
        "novembro", "dezembro",
      ],
      ["", "fev", "marco", "", "", "", "", "", "", "out", "", ""],
      // Dutch
      [
        "januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
        "november", "december",
      ],
      ["", "", "mrt", "", "", "", "", "", "", "", "", ""],
      // Polish: the genitive dates use, and the nominative.
      [
        "stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września",
        "października", "listopada", "grudnia",
      ],
      [
        "styczeń", "luty", "marzec", "kwiecień", "maj", "czerwiec", "lipiec", "sierpień", "wrzesień",
        "październik", "listopad", "grudzień",
      ],
      // Russian: genitive and nominative.
      [
        "января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября",
        "ноября", "декабря",
      ],
      [
        "январь", "февраль", "март", "апрель", "май", "июнь", "июль", "август", "сентябрь", "октябрь",
        "ноябрь", "декабрь",
      ],
      // Turkish
      [
        "ocak", "şubat", "mart", "nisan", "mayıs", "haziran", "temmuz", "ağustos", "eylül", "ekim", "kasım",
        "aralık",
      ],
      // Swedish, Danish, Norwegian (the rest are spelt as in German or English).
      ["", "", "mars", "", "maj", "", "", "augusti", "", "", "", ""],
      ["", "", "marts", "", "", "", "", "", "", "", "", "desember"],
      // Finnish: partitive (dates) and nominative.
      [
        "tammikuuta", "helmikuuta", "maaliskuuta", "huhtikuuta", "toukokuuta", "kesäkuuta", "heinäkuuta",
        "elokuuta", "syyskuuta", "lokakuuta", "marraskuuta", "joulukuuta",
      ],
      [
        "tammikuu", "helmikuu", "maaliskuu", "huhtikuu", "toukokuu", "kesäkuu", "heinäkuu", "elokuu",
        "syyskuu", "lokakuu", "marraskuu", "joulukuu",
      ],
      // Czech: genitive.
      [
        "ledna", "února", "března", "dubna", "května", "června", "července", "srpna", "září", "října",
        "listopadu", "prosince",
      ],
      // Arabic: the Egyptian and Gulf names (with and without hamza, and the -يه spellings), and the
      // Levantine ones that are one word (كانون and تشرين months are two words and not read).
      [
        "يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر",
        "ديسمبر",
      ],
      ["", "", "", "ابريل", "", "يونيه", "يوليه", "اغسطس", "", "اكتوبر", "", ""],
      ["", "شباط", "آذار", "نيسان", "أيار", "حزيران", "تموز", "آب", "أيلول", "", "", ""],
      ["", "", "", "إبريل", "", "", "", "", "", "", "", ""],
    ]
    var table: [String: Int] = [:]
    for row in names {
      for (index, name) in row.enumerated() where !name.isEmpty { table[name] = index + 1 }
    }
    return table
  }()
}
