import Foundation
import Testing
import ThumbifySystem
import ThumbifySystemTestSupport

@Suite("ISO 8601 timestamps", .offThePool)
struct TimestampTests {
  @Test func digitsMatchPrintfsZeroPaddedFields() {
    let times: [Double] = [0, 1, 59.999, 951_782_400, 1_796_116_846.76, 4_102_444_799, 253_402_300_799]
    for time in times {
      var seconds = time_t(time.rounded(.down))
      var parts = tm()
      gmtime_r(&seconds, &parts)
      let expected = String(
        format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
        Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
      #expect(Timestamp.iso8601(time) == expected)
    }
    #expect(Timestamp.iso8601(0) == "1970-01-01T00:00:00Z")
    #expect(Timestamp.iso8601(951_782_400) == "2000-02-29T00:00:00Z")
  }

  @Test func logLinesCarryMilliseconds() {
    #expect(Timestamp.iso8601Milliseconds(0) == "1970-01-01T00:00:00.000Z")
    #expect(Timestamp.iso8601Milliseconds(951_782_400.5) == "2000-02-29T00:00:00.500Z")
    #expect(
      Timestamp.iso8601Milliseconds(1_796_116_846.0071) == Timestamp.iso8601(1_796_116_846).dropLast()
        + ".007Z")
  }
}
