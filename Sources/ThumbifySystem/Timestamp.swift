import Foundation

/// ISO 8601 UTC timestamps (`2026-11-29T21:51:12Z`) for manifests.
package enum Timestamp {
  package static func iso8601(_ secondsSince1970: Double) -> String {
    var time = time_t(secondsSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&time, &parts)
    // Digits by hand: `String(format:)` went through CoreFoundation and was 1.2 % of a crawl's CPU
    // (one timestamp per page).
    var text = ""
    text.reserveCapacity(20)
    func append(_ value: Int32, width: Int) {
      let digits = String(value)
      if digits.utf8.count < width { text += String(repeating: "0", count: width - digits.utf8.count) }
      text += digits
    }
    append(parts.tm_year + 1900, width: 4)
    text += "-"
    append(parts.tm_mon + 1, width: 2)
    text += "-"
    append(parts.tm_mday, width: 2)
    text += "T"
    append(parts.tm_hour, width: 2)
    text += ":"
    append(parts.tm_min, width: 2)
    text += ":"
    append(parts.tm_sec, width: 2)
    text += "Z"
    return text
  }

  /// `2026-11-29T21:51:12.345Z`: with milliseconds, for log lines (several a second).
  package static func iso8601Milliseconds(_ secondsSince1970: Double) -> String {
    let whole = secondsSince1970.rounded(.down)
    let milliseconds = min(999, Int((secondsSince1970 - whole) * 1000))
    let digits = String(milliseconds)
    var text = iso8601(whole)
    text.removeLast()  // the Z
    return text + "." + String(repeating: "0", count: 3 - digits.utf8.count) + digits + "Z"
  }
}
