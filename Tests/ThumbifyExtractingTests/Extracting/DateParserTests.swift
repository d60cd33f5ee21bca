import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyExtracting

/// The clock the date tests run at: 2026-12-03T09:45:00Z.
let dateTestNow: Int64 = 1_796_291_100

@Suite("Date parser", .offThePool)
struct DateParserTests {
  private func read(_ text: String) -> String? { DateParser.rfc3339(text, now: dateTestNow) }

  @Test func clockConstantIsTheDateItSays() {
    #expect(DateParser.rfc3339(timestamp: Double(dateTestNow), now: dateTestNow) == "2026-12-03T09:45:00Z")
  }

  @Test(arguments: [
    // ISO 8601 / RFC 3339 spellings.
    ("2021-05-13T18:01:31Z", "2021-05-13T18:01:31Z"),
    ("2021-05-13t18:01:31z", "2021-05-13T18:01:31Z"),
    ("2021-05-13T14:01:31-04:00", "2021-05-13T14:01:31-04:00"),
    ("2021-05-13T14:01:31-0400", "2021-05-13T14:01:31-04:00"),
    ("2021-05-13T14:01:31-04", "2021-05-13T14:01:31-04:00"),
    ("2021-05-13T19:31:31+05:30", "2021-05-13T19:31:31+05:30"),
    ("2021-05-13T18:01:31+00:00", "2021-05-13T18:01:31Z"),
    ("2021-05-13T18:01:31.123Z", "2021-05-13T18:01:31.123Z"),
    ("2024-03-05T07:30:12.000Z", "2024-03-05T07:30:12.000Z"),
    ("2021-05-13T18:01:31,5Z", "2021-05-13T18:01:31.5Z"),
    ("2021-05-13T18:01Z", "2021-05-13T18:01:00Z"),
    ("2021-05-13 18:01:31Z", "2021-05-13T18:01:31Z"),
    ("2021-05-13 18:01:31 UTC", "2021-05-13T18:01:31Z"),
    ("2021-05-13 14:01:31 -0400 EDT", "2021-05-13T14:01:31-04:00"),
    ("2021-05-13 18:01:31 +0000 UTC", "2021-05-13T18:01:31Z"),
    ("2016-05-24", "2016-05-24"),
    ("  2016-05-24\n", "2016-05-24"),
    ("20160524", "2016-05-24"),
    // A time without a zone: only the date is certain.
    ("2021-05-13T14:01:31", "2021-05-13"),
    ("2021-05-13 14:01", "2021-05-13"),
    // RFC 1123, RFC 850, asctime, JavaScript's Date.toString().
    ("Tue, 24 May 2016 05:55:00 GMT", "2016-05-24T05:55:00Z"),
    ("Tue, 24 May 2016 05:55:00 +0200", "2016-05-24T05:55:00+02:00"),
    ("Tuesday, 24-May-16 05:55:00 GMT", "2016-05-24T05:55:00Z"),
    ("Tue May 24 05:55:00 2016", "2016-05-24"),
    ("Thu May 13 2021 14:01:31 GMT-0400 (Eastern Daylight Time)", "2021-05-13T14:01:31-04:00"),
    // English month names, with or without weekday, time, am/pm and zone.
    ("Thu, May 13 2021 14:01:31 EDT", "2021-05-13T14:01:31-04:00"),
    ("June 04, 2020 1:32 pm", "2020-06-04"),
    ("June 04, 2020 1:32 pm PDT", "2020-06-04T13:32:00-07:00"),
    ("June 4, 2020 12:05 a.m. EST", "2020-06-04T00:05:00-05:00"),
    ("June 4, 2020 12:05 PM CST", "2020-06-04T12:05:00-06:00"),
    ("June 4, 2020 at 3 pm BST", "2020-06-04T15:00:00+01:00"),
    ("4 June 2020", "2020-06-04"),
    ("4th June 2020", "2020-06-04"),
    ("June 4th, 2020", "2020-06-04"),
    ("Sept. 9, 2019", "2019-09-09"),
    ("Published on Monday, March 2, 2020", "2020-03-02"),
    ("Updated: 2 Mar 2020 10:00 CET", "2020-03-02T10:00:00+01:00"),
    ("2 Mar 2020 10:00 CEST", "2020-03-02T10:00:00+02:00"),
    ("2 Mar 2020 10:00 IST", "2020-03-02T10:00:00+05:30"),
    ("2 Mar 2020 10:00 JST", "2020-03-02T10:00:00+09:00"),
    ("2 Mar 2020 10:00 KST", "2020-03-02T10:00:00+09:00"),
    ("2 Mar 2020 10:00 AEST", "2020-03-02T10:00:00+10:00"),
    ("2 Mar 2020 10:00 AEDT", "2020-03-02T10:00:00+11:00"),
    ("2 Mar 2020 10:00 MST", "2020-03-02T10:00:00-07:00"),
    ("2 Mar 2020 10:00 MDT", "2020-03-02T10:00:00-06:00"),
    ("2 Mar 2020 10:00 PST", "2020-03-02T10:00:00-08:00"),
    ("2 Mar 2020 10:00 CDT", "2020-03-02T10:00:00-05:00"),
    ("2 Mar 2020 10:00 UTC+2", "2020-03-02T10:00:00+02:00"),
    ("MAY 13, 2021", "2021-05-13"),
    // Numeric forms that say which part is which.
    ("2016/05/24", "2016-05-24"),
    ("2016/5/4", "2016-05-04"),
    ("2016.05.24", "2016-05-24"),
    ("24.05.2016", "2016-05-24"),
    ("24.05.2016 14:30", "2016-05-24"),
    ("24/05/2016", "2016-05-24"),
    ("5/24/2016", "2016-05-24"),
    ("5/24/2016 3:00 PM EDT", "2016-05-24T15:00:00-04:00"),
    ("4/4/2016", "2016-04-04"),
    ("24-05-2016", "2016-05-24"),
    // Unix time as text.
    ("1620928891", "2021-05-13T18:01:31Z"),
    ("1620928891000", "2021-05-13T18:01:31Z"),
    // Leap day.
    ("2020-02-29", "2020-02-29"),
  ])
  func readsSpelling(_ text: String, _ expected: String) {
    #expect(read(text) == expected)
  }

  @Test(arguments: [
    "4/6/2016",  // April 6 or 4 June
    "06/04/2020 1:32 pm",
    "2016-13-01",  // month 13
    "2016-04-31",  // 31 April
    "2019-02-29",  // not a leap year
    "2100-02-29",
    "0001-01-01",  // year 1
    "1989-12-31",  // before the floor
    "2026-12-05",  // more than a day after the clock
    "2030-01-01T00:00:00Z",
    "Wed, 24 May 2016 05:55:00 GMT",  // 24 May 2016 was a Tuesday
    "2016-05-24T25:00:00Z",
    "2016-05-24T10:61:00Z",
    "2016-05-24T10:00:00+15:00",
    "June 13 pm 2020",
    "13:32 pm June 4 2020",
    "2016-05",  // a month, not a date
    "May 2016",
    "June 4",
    "2016",
    "yesterday",
    "3 days ago",
    "",
    "   ",
    "2021年5月13日",
    "Thu, May 13 2021 14:01:31 XYZ",
    "May 13 2021 May 14 2021",
    "2021-05-13T14:01:31-04:00 (garbage",
    "12345",
    "99999999999999",
  ])
  func leavesOut(_ text: String) {
    #expect(read(text) == nil)
  }

  @Test func theFutureAllowanceIsOneDay() {
    #expect(read("2026-12-04") == "2026-12-04")
    #expect(read("2026-12-04T09:44:00Z") == "2026-12-04T09:44:00Z")
    #expect(read("2026-12-04T09:46:00Z") == nil)
    // The same instant written with an offset is judged as that instant.
    #expect(read("2026-12-04T05:44:00-04:00") == "2026-12-04T05:44:00-04:00")
    #expect(read("2026-12-04T05:46:00-04:00") == nil)
  }

  @Test func droppedTimesAreReported() {
    #expect(DateParser.read("2021-05-13T14:01:31", now: dateTestNow)?.isComplete == false)
    #expect(DateParser.read("2021-05-13T14:01:31Z", now: dateTestNow)?.isComplete == true)
    #expect(DateParser.read("2021-05-13", now: dateTestNow)?.isComplete == true)
  }

  @Test func timestampsInSecondsAndMilliseconds() {
    #expect(DateParser.rfc3339(timestamp: 1_620_928_891, now: dateTestNow) == "2021-05-13T18:01:31Z")
    #expect(DateParser.rfc3339(timestamp: 1_620_928_891_500, now: dateTestNow) == "2021-05-13T18:01:31Z")
    #expect(DateParser.rfc3339(timestamp: 0, now: dateTestNow) == nil)
    #expect(DateParser.rfc3339(timestamp: -5, now: dateTestNow) == nil)
    #expect(DateParser.rfc3339(timestamp: .infinity, now: dateTestNow) == nil)
    #expect(DateParser.rfc3339(timestamp: .nan, now: dateTestNow) == nil)
    #expect(DateParser.rfc3339(timestamp: 1e20, now: dateTestNow) == nil)
    #expect(DateParser.rfc3339(timestamp: 4_000_000_000, now: dateTestNow) == nil)
  }

  /// Every day from 1990 to 2100 goes to a day count and back, and its weekday steps by one.
  @Test func calendarArithmeticRoundTrips() {
    let start = DateParser.daysFromCivil(1990, 1, 1)
    #expect(DateParser.weekday(1990, 1, 1) == 1)  // a Monday
    var days = start
    for year in 1990...2100 {
      for month in 1...12 {
        for day in 1...DateParser.daysInMonth(year, month) {
          #expect(DateParser.daysFromCivil(year, month, day) == days)
          let back = DateParser.civilFromDays(days)
          if back.year != year || back.month != month || back.day != day {
            Issue.record("\(year)-\(month)-\(day) came back as \(back)")
            return
          }
          days += 1
        }
      }
    }
    #expect(days - start == 40_542)
  }

  /// What the parser writes, it reads back as the same text (the output is a fixed point).
  @Test(arguments: [
    "2021-05-13T18:01:31Z", "2021-05-13T14:01:31-04:00", "2021-05-13T19:31:31+05:30", "2016-05-24",
    "2021-05-13T18:01:31.123456789Z",
  ])
  func outputReadsBackToItself(_ text: String) {
    #expect(read(text) == text)
  }

  /// Random bytes and random mixes of date pieces never trap, and whatever is accepted is well formed.
  @Test func garbageNeverTraps() {
    var generator = SplitMix(seed: 19)
    let pieces = [
      "2021", "-", "05", "13", "T", ":", "Z", "+", "14", "pm", "a.m.", "May", "Tue", ",", ".", "/", "(", ")",
      " ", "GMT", "EDT", "99", "0", "999999999999999999999", "th", "é", "\u{0}", "24", "12", "1620928891",
    ]
    for round in 0..<20_000 {
      let text: String
      if round % 2 == 0 {
        let count = Int(generator.next() % 40)
        let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        text = String(decoding: bytes, as: UTF8.self)
      } else {
        let count = Int(generator.next() % 12)
        text = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
      }
      if let output = read(text) {
        #expect(read(output) == output, "\(text.debugDescription) → \(output)")
      }
    }
  }

  /// The ISO 8601 fast path reads what the general reader reads, or leaves the text to it: over
  /// random mixes of ISO pieces (most well formed, some one piece off), it never gives another
  /// answer, and it does take the well-formed ones (else it would be dead code).
  @Test func theISOFastPathAgreesWithTheGeneralReader() {
    var generator = SplitMix(seed: 2024)
    func pick(_ choices: [String]) -> String { choices[Int(generator.next() % UInt64(choices.count))] }
    var taken = 0
    for _ in 0..<20_000 {
      var text = pick(["2021", "1999", "2024", "0001", "9999", "202"]) + pick(["-", "-", "-", "/"])
      text += pick(["05", "12", "13", "00", "5"]) + "-" + pick(["13", "31", "01", "7", "32"])
      if generator.next() % 4 != 0 {
        text +=
          pick(["T", "t", " ", "T", "_"]) + pick(["18", "00", "23", "24", "7"]) + ":"
          + pick(["01", "59", "60"])
        if generator.next() % 3 != 0 { text += ":" + pick(["31", "00", "61", "5"]) }
        if generator.next() % 3 == 0 {
          text += pick([".", ","]) + pick(["1", "123", "000", "123456789", "1234567890"])
        }
        text += pick([
          "", "Z", "z", "+00:00", "-04:00", "+0530", "-04", "+14:00", "+14:01", "+05:60", " UTC", "+", "ZZ",
        ])
      }
      let fast = DateParser.isoDateTime(text)
      if let fast {
        taken += 1
        #expect(fast == DateParser.parseGenerally(text), "\(text.debugDescription)")
      }
    }
    #expect(taken > 2_000)
  }
}
