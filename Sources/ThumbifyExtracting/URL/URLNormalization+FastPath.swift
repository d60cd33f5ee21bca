extension URLNormalization {
  /// Whether `url` is already in normalized form, decided from its bytes alone.
  ///
  /// Most URLs of a corpus, and every URL the crawl derives (image candidates, `/favicon.ico`), are
  /// already normal: `http(s)://`, a lower-case host that needs no mapping (an ASCII domain or a
  /// dotted-decimal IPv4 address), no default or zero-padded port, a non-empty path with no dot
  /// segments, and no byte the rules would escape, unescape or drop (`%`, `\`, `#`, spaces, non-ASCII,
  /// `" < > ^ ` { | }`, a bare `?`). `normalize(_:)` returns such a URL as it is instead of taking it
  /// apart; anything else, or anything this check is unsure of, takes the full rules, which give the
  /// same string for these inputs (URLNormalizationTests compares both on every test spelling).
  ///
  /// - Complexity: O(n) in the URL's length, no allocation.
  package static func isAlreadyNormal(_ url: String) -> Bool {
    var url = url
    return url.withUTF8 { bytes in isAlreadyNormal(bytes) }
  }

  private static func isAlreadyNormal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let start: Int
    let defaultPort: Int
    if hasPrefix(bytes, "http://") {
      (start, defaultPort) = (7, 80)
    } else if hasPrefix(bytes, "https://") {
      (start, defaultPort) = (8, 443)
    } else {
      return false
    }
    // Authority: host[:port], up to the path's `/`; a URL without a path gets one, so it is not normal.
    var index = start
    var colon: Int?
    while index < bytes.count, bytes[index] != UInt8(ascii: "/") {
      switch bytes[index] {
      case UInt8(ascii: ":"):
        guard colon == nil else { return false }
        colon = index
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"),
        UInt8(ascii: "."):
        break
      default:
        return false  // upper case, user info, `?` before the path, IPv6, escapes, non-ASCII …
      }
      index += 1
    }
    guard index < bytes.count else { return false }
    let hostEnd = colon ?? index
    guard isNormalHost(UnsafeBufferPointer(rebasing: bytes[start..<hostEnd])) else { return false }
    if let colon {
      guard isNormalPort(UnsafeBufferPointer(rebasing: bytes[(colon + 1)..<index]), default: defaultPort)
      else { return false }
    }
    return isNormalPathAndQuery(UnsafeBufferPointer(rebasing: bytes[index...]))
  }

  /// A host the WHATWG host parser returns unchanged: lower-case ASCII labels of letters, digits and
  /// hyphens, none empty and none `xn--`, whose last label does not start with a digit — or exactly
  /// four decimal numbers 0–255 without leading zeros.
  private static func isNormalHost(_ host: UnsafeBufferPointer<UInt8>) -> Bool {
    guard !host.isEmpty, host.count <= 253 else { return false }
    var labelStart = 0
    var labels = 0
    var isNumeric = true
    var isLastNumeric = false
    var index = 0
    while index <= host.count {
      if index == host.count || host[index] == UInt8(ascii: ".") {
        let label = UnsafeBufferPointer(rebasing: host[labelStart..<index])
        guard !label.isEmpty, !hasPrefix(label, "xn--") else { return false }
        labels += 1
        isLastNumeric = label.first.map(ASCII.isDigit) ?? false
        if isNumeric {
          isNumeric =
            label.allSatisfy(ASCII.isDigit) && label.count <= 3 && (label.count == 1 || label[0] != 0x30)
          if isNumeric, let value = Int(String(decoding: label, as: UTF8.self)), value > 255 {
            isNumeric = false
          }
        }
        labelStart = index + 1
      }
      index += 1
    }
    if isLastNumeric { return isNumeric && labels == 4 }
    return true
  }

  /// A port the rules keep as written: 1–5 digits, no leading zero, at most 65535, not the default.
  private static func isNormalPort(_ port: UnsafeBufferPointer<UInt8>, default defaultPort: Int) -> Bool {
    guard !port.isEmpty, port.count <= 5, port[0] != UInt8(ascii: "0"), port.allSatisfy(ASCII.isDigit) else {
      return false
    }
    let value = port.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    return value <= 65_535 && value != defaultPort
  }

  /// A path (starting with `/`) and optional non-empty query with no byte to escape, unescape or drop,
  /// and no `.` or `..` segment (any `/.` sends the URL to the full rules).
  private static func isNormalPathAndQuery(_ rest: UnsafeBufferPointer<UInt8>) -> Bool {
    var isInQuery = false
    var previous: UInt8 = 0
    for byte in rest {
      guard byte > 0x20, byte < 0x7F else { return false }
      switch byte {
      case UInt8(ascii: "%"), UInt8(ascii: "#"), UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "<"),
        UInt8(ascii: ">"), UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"),
        UInt8(ascii: "}"):
        return false
      case UInt8(ascii: "?"):
        isInQuery = true
      case UInt8(ascii: "."):
        if !isInQuery && previous == UInt8(ascii: "/") { return false }
      default:
        break
      }
      previous = byte
    }
    return previous != UInt8(ascii: "?")  // a bare `?` is dropped
  }

  private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
    let count = prefix.utf8CodeUnitCount
    guard bytes.count >= count else { return false }
    for offset in 0..<count where bytes[offset] != prefix.utf8Start[offset] { return false }
    return true
  }
}
