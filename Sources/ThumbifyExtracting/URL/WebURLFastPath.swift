/// The common shapes of URLs in pages, parsed without the general machinery: an absolute
/// `http(s)://host/path` or a path-absolute `/path` whose bytes need no percent-encoding,
/// no dot-segment removal and no host mapping. Anything else returns `nil` and takes the
/// full WHATWG path in `WebURLParser`, which gives the same result for these inputs.
enum WebURLFastPath {
  static func parse(_ bytes: [UInt8], base: WebURL?) -> WebURL? {
    bytes.withUnsafeBufferPointer { buffer in
      if startsWith(buffer, "https://") { return absolute(buffer, scheme: "https", from: 8) }
      if startsWith(buffer, "http://") { return absolute(buffer, scheme: "http", from: 7) }
      guard let base, buffer.count >= 1, buffer[0] == UInt8(ascii: "/"),
        buffer.count == 1 || (buffer[1] != UInt8(ascii: "/") && buffer[1] != UInt8(ascii: "\\"))
      else { return nil }
      guard let (path, query, fragment) = rest(buffer, from: 0) else { return nil }
      var url = base
      url.path = path
      url.query = query
      url.fragment = fragment
      return url
    }
  }

  private static func startsWith(_ buffer: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
    let count = prefix.utf8CodeUnitCount
    guard buffer.count >= count else { return false }
    for offset in 0..<count where buffer[offset] != prefix.utf8Start[offset] { return false }
    return true
  }

  private static func absolute(_ buffer: UnsafeBufferPointer<UInt8>, scheme: String, from start: Int)
    -> WebURL?
  {
    var index = start
    var labelStart = start
    while index < buffer.count {
      let byte = buffer[index]
      if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
      if byte == UInt8(ascii: ".") {
        labelStart = index + 1
      } else if !((byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || ASCII.isDigit(byte)
        || byte == UInt8(ascii: "-"))
      {
        return nil
      }
      index += 1
    }
    // Empty hosts, trailing dots and numeric last labels (IPv4) take the full path.
    guard index > start, labelStart < index, !ASCII.isDigit(buffer[labelStart]), index - start <= 253 else {
      return nil
    }
    let host = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
    guard let (path, query, fragment) = rest(buffer, from: index) else { return nil }
    return WebURL(
      scheme: scheme, userinfo: "", host: host, port: nil, path: path, query: query, fragment: fragment)
  }

  /// Splits `buffer[start...]` into path, query and fragment when every byte is already canonical.
  private static func rest(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int
  ) -> (String, String?, String?)? {
    var index = start
    var queryStart: Int?
    var fragmentStart: Int?
    var previous: UInt8 = 0
    while index < buffer.count {
      let byte = buffer[index]
      guard byte > 0x20, byte < 0x7F, !isUnsafe(byte) else { return nil }
      if fragmentStart == nil {
        if byte == UInt8(ascii: "#") {
          fragmentStart = index
        } else if queryStart == nil {
          if byte == UInt8(ascii: "?") {
            queryStart = index
          } else if previous == UInt8(ascii: "/") && (byte == UInt8(ascii: ".") || byte == UInt8(ascii: "%"))
          {
            return nil  // A possible dot segment ("/.", "/%2e").
          }
        } else if byte == UInt8(ascii: "'") {
          return nil  // Encoded in special URLs' queries.
        }
      }
      previous = byte
      index += 1
    }
    let pathEnd = queryStart ?? fragmentStart ?? buffer.count
    let path = pathEnd > start ? string(buffer, start..<pathEnd) : "/"
    let query = queryStart.map { string(buffer, ($0 + 1)..<(fragmentStart ?? buffer.count)) }
    let fragment = fragmentStart.map { string(buffer, ($0 + 1)..<buffer.count) }
    return (path, query, fragment)
  }

  @inline(__always)
  private static func string(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
  }

  /// Bytes that some component would percent-encode or that need the full parser (a switch,
  /// not a `Set`: it runs for every byte of every URL).
  @inline(__always)
  private static func isUnsafe(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "`"), UInt8(ascii: "{"),
      UInt8(ascii: "}"), UInt8(ascii: "\\"):
      return true
    default:
      return false
    }
  }
}
