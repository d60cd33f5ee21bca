/// The parsing half of `WebURL`: the WHATWG "basic URL parser" states that http(s) uses.
enum WebURLParser {
  private static let slash = UInt8(ascii: "/")
  private static let backslash = UInt8(ascii: "\\")
  private static let question = UInt8(ascii: "?")
  private static let hash = UInt8(ascii: "#")

  static func parse(_ raw: [UInt8], base: WebURL?) -> WebURL? {
    WebURLFastPath.parse(raw, base: base) ?? parseFully(raw, base: base)
  }

  /// The full parser, without the fast path (tests compare the two).
  static func parseFully(_ raw: [UInt8], base: WebURL?) -> WebURL? {
    var input = raw[...]
    while let first = input.first, first <= 0x20 { input = input.dropFirst() }
    while let last = input.last, last <= 0x20 { input = input.dropLast() }
    let cleaned = input.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    var rest = cleaned[...]

    if let (scheme, afterColon) = splitScheme(cleaned) {
      guard scheme == "http" || scheme == "https" else { return nil }
      rest = afterColon
      let startsWithTwoSlashes =
        rest.count >= 2 && isSlash(rest[rest.startIndex]) && isSlash(rest[rest.startIndex + 1])
      if let base, base.scheme == scheme, !startsWithTwoSlashes {
        // "http:foo" and "http:/foo" against an http base are relative references.
        return relative(rest, base: base)
      }
      while let first = rest.first, isSlash(first) { rest = rest.dropFirst() }
      return authority(rest, scheme: scheme)
    }
    guard let base else { return nil }
    return relative(rest, base: base)
  }

  @inline(__always)
  private static func isSlash(_ byte: UInt8) -> Bool { byte == slash || byte == backslash }

  /// `http:` → ("http", rest) when the input starts with a scheme.
  private static func splitScheme(_ bytes: [UInt8]) -> (String, ArraySlice<UInt8>)? {
    guard let first = bytes.first, ASCII.isAlpha(first) else { return nil }
    for index in 1..<bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: ":") {
        let scheme = String(decoding: bytes[0..<index].map(ASCII.lower), as: UTF8.self)
        return (scheme, bytes[(index + 1)...])
      }
      if !(ASCII.isAlphanumeric(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
        || byte == UInt8(ascii: "."))
      {
        return nil
      }
    }
    return nil
  }

  /// The relative state: input resolved against `base`.
  private static func relative(_ input: ArraySlice<UInt8>, base: WebURL) -> WebURL? {
    var url = base
    guard let first = input.first else {
      url.fragment = nil
      return url
    }
    if isSlash(first) {
      if input.count >= 2, isSlash(input[input.startIndex + 1]) {
        var rest = input
        while let byte = rest.first, isSlash(byte) { rest = rest.dropFirst() }
        return authority(rest, scheme: base.scheme)
      }
      return pathAndAfter(input, into: url, baseSegments: [])
    }
    if first == question {
      url.fragment = nil
      return queryAndFragment(input, into: url)
    }
    if first == hash {
      url.fragment = encode(input.dropFirst(), set: .fragment)
      return url
    }
    var segments = base.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(
      String.init)
    if !segments.isEmpty { segments.removeLast() }
    return pathAndAfter(input, into: url, baseSegments: segments)
  }

  /// The authority (`user@host:port`) then path, query and fragment.
  private static func authority(_ input: ArraySlice<UInt8>, scheme: String) -> WebURL? {
    let end = input.firstIndex { isSlash($0) || $0 == question || $0 == hash } ?? input.endIndex
    var authority = input[input.startIndex..<end]
    var userinfo = ""
    if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
      let credentials = authority[authority.startIndex..<at]
      if let colon = credentials.firstIndex(of: UInt8(ascii: ":")) {
        userinfo =
          encode(credentials[credentials.startIndex..<colon], set: .userinfo) + ":"
          + encode(credentials[(colon + 1)...], set: .userinfo)
      } else {
        userinfo = encode(credentials, set: .userinfo)
      }
      authority = authority[(at + 1)...]
    }
    var hostPart = authority
    var port: Int?
    if let colon = authority.lastIndex(of: UInt8(ascii: ":")),
      !authority[colon...].contains(UInt8(ascii: "]"))
    {
      hostPart = authority[authority.startIndex..<colon]
      let digits = authority[(colon + 1)...]
      if !digits.isEmpty {
        guard digits.allSatisfy(ASCII.isDigit), digits.count <= 5,
          let value = Int(String(decoding: digits, as: UTF8.self)), value <= 65535
        else { return nil }
        port = value
      }
    }
    guard let host = WebURLHost.parse(hostPart) else { return nil }
    if (scheme == "http" && port == 80) || (scheme == "https" && port == 443) { port = nil }
    let url = WebURL(
      scheme: scheme, userinfo: userinfo, host: host, port: port, path: "/", query: nil, fragment: nil)
    return pathAndAfter(input[end...], into: url, baseSegments: [])
  }

  /// Parses a path (relative to `baseSegments`), then the query and fragment.
  private static func pathAndAfter(
    _ input: ArraySlice<UInt8>, into url: WebURL, baseSegments: [String]
  ) -> WebURL? {
    var url = url
    let end = input.firstIndex { $0 == question || $0 == hash } ?? input.endIndex
    var segments = baseSegments
    var pathInput = input[input.startIndex..<end]
    if let first = pathInput.first, isSlash(first) { pathInput = pathInput.dropFirst() }
    let parts = pathInput.split(omittingEmptySubsequences: false, whereSeparator: isSlash)
    for (index, part) in parts.enumerated() {
      let isLast = index == parts.count - 1
      if isDoubleDot(part) {
        if !segments.isEmpty { segments.removeLast() }
        if isLast { segments.append("") }
      } else if isSingleDot(part) {
        if isLast { segments.append("") }
      } else {
        segments.append(encode(part, set: .path))
      }
    }
    url.path = "/" + segments.joined(separator: "/")
    url.query = nil
    url.fragment = nil
    return queryAndFragment(input[end...], into: url)
  }

  private static func queryAndFragment(_ input: ArraySlice<UInt8>, into url: WebURL) -> WebURL? {
    var url = url
    var rest = input
    if rest.first == question {
      let end = rest.firstIndex(of: hash) ?? rest.endIndex
      url.query = encode(rest[(rest.startIndex + 1)..<end], set: .query)
      rest = rest[end...]
    }
    if rest.first == hash { url.fragment = encode(rest.dropFirst(), set: .fragment) }
    return url
  }

  private static func isSingleDot(_ part: ArraySlice<UInt8>) -> Bool {
    let text = ASCII.lowercased(String(decoding: part, as: UTF8.self))
    return text == "." || text == "%2e"
  }

  private static func isDoubleDot(_ part: ArraySlice<UInt8>) -> Bool {
    let text = ASCII.lowercased(String(decoding: part, as: UTF8.self))
    return text == ".." || text == ".%2e" || text == "%2e." || text == "%2e%2e"
  }

  /// WHATWG percent-encode sets (the C0 controls and every byte above 0x7E are always encoded).
  enum EncodeSet {
    case path, query, fragment, userinfo

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
      if byte < 0x21 || byte > 0x7E { return true }
      let (low, high) = masks
      return byte < 64 ? low & (1 << UInt64(byte)) != 0 : high & (1 << UInt64(byte - 64)) != 0
    }

    /// The set's printable ASCII members as bit masks over bytes 0–63 and 64–127.
    private var masks: (UInt64, UInt64) {
      switch self {
      case .fragment: return Self.fragmentMasks
      case .query: return Self.queryMasks
      case .path: return Self.pathMasks
      case .userinfo: return Self.userinfoMasks
      }
    }

    private static let fragmentMasks = makeMasks("\"<>`")
    private static let queryMasks = makeMasks("\"#<>'")
    private static let pathMasks = makeMasks("\"#<>?`{}")
    private static let userinfoMasks = makeMasks("\"#<>?`{}/:;=@[\\]^|")

    private static func makeMasks(_ members: String) -> (UInt64, UInt64) {
      var low: UInt64 = 0
      var high: UInt64 = 0
      for byte in members.utf8 {
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
      }
      return (low, high)
    }
  }

  /// Percent-encodes the bytes of `input` that are in `set`.
  static func encode(_ input: ArraySlice<UInt8>, set: EncodeSet) -> String {
    if !input.contains(where: set.contains) { return String(decoding: input, as: UTF8.self) }
    let hex = Array("0123456789ABCDEF".utf8)
    var output: [UInt8] = []
    output.reserveCapacity(input.count)
    for byte in input {
      if set.contains(byte) {
        output.append(UInt8(ascii: "%"))
        output.append(hex[Int(byte >> 4)])
        output.append(hex[Int(byte & 0x0F)])
      } else {
        output.append(byte)
      }
    }
    return String(decoding: output, as: UTF8.self)
  }
}
