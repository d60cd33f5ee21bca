import Foundation

/// ISO 8601 UTC timestamps (`2026-11-29T21:51:12Z`) for manifests.
enum Timestamp {
  static func iso8601(_ secondsSince1970: Double) -> String {
    var time = time_t(secondsSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&time, &parts)
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
      Int(parts.tm_mday),
      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
  }
}
