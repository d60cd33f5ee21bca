// The url fuzzer compiles this file into its own module (scripts/fuzz), where there is no Thumbify
// to import, only the layer of `URLNormalization`.
#if canImport(Thumbify)
  import Thumbify
#else
  import ThumbifyExtracting
#endif

/// A request target of `thumbify serve`'s API, parsed: the route and, for `/v1/card`, its query.
///
/// The query string is parsed here, not by libmicrohttpd, so that what is checked (length, one `url`,
/// known parameters, percent-escapes) is one function the fuzzers reach (`Fuzz/`).
enum APIRequest: Equatable {
  case card(url: String, variants: [String]?)
  /// `/blobs/ab/cd/<sha256>.<ext>`: the path below the directory, checked (no `..`, no other shape).
  case blob(path: String)
  /// `/cards/<key>.json`.
  case cardFile(path: String)
  case health
  case metrics
  case notFound

  /// Why a target is refused (400 unless said).
  enum Failure: Error, Equatable {
    case missingURL
    case repeatedParameter(String)
    case unknownParameter(String)
    case badEscape
    case tooLong(limit: Int)
    case badVariants
  }

  /// The most bytes of a `url` parameter (after decoding): longer ones are refused (414).
  static let maxURLLength = 8_192

  /// Parses a request target (`/v1/card?url=https%3A%2F%2Fexample.com%2F&variants=card,icon`).
  static func parse(_ target: String) -> Result<APIRequest, Failure> {
    let bytes = Array(target.utf8)
    let questionMark = bytes.firstIndex(of: UInt8(ascii: "?"))
    let path = String(decoding: bytes[..<(questionMark ?? bytes.endIndex)], as: UTF8.self)
    let query = questionMark.map { Array(bytes[($0 + 1)...]) } ?? []
    switch path {
    case "/v1/card": return parseCardQuery(query)
    case "/healthz": return .success(.health)
    case "/metrics": return .success(.metrics)
    default: break
    }
    if path.hasPrefix("/blobs/"), isBlobPath(path.dropFirst("/blobs/".count)) {
      return .success(.blob(path: String(path.dropFirst())))
    }
    if path.hasPrefix("/cards/"), isCardFileName(path.dropFirst("/cards/".count)) {
      return .success(.cardFile(path: String(path.dropFirst())))
    }
    return .success(.notFound)
  }

  private static func parseCardQuery(_ query: [UInt8]) -> Result<APIRequest, Failure> {
    var url: String?
    var variants: [String]?
    for field in query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
      let equals = field.firstIndex(of: UInt8(ascii: "="))
      guard let name = decode(field[..<(equals ?? field.endIndex)], limit: 64) else {
        return .failure(.badEscape)
      }
      let rawValue = equals.map { field[($0 + 1)...] } ?? []
      switch name {
      case "url":
        guard url == nil else { return .failure(.repeatedParameter(name)) }
        guard rawValue.count <= maxURLLength * 3 else { return .failure(.tooLong(limit: maxURLLength)) }
        guard let value = decode(rawValue, limit: maxURLLength) else {
          return .failure(rawValue.count > maxURLLength ? .tooLong(limit: maxURLLength) : .badEscape)
        }
        url = value
      case "variants":
        guard variants == nil else { return .failure(.repeatedParameter(name)) }
        guard let value = decode(rawValue, limit: 1_024) else { return .failure(.badVariants) }
        let names = value.split(separator: ",").map(String.init)
        guard !names.isEmpty, names.count <= 32,
          names.allSatisfy({ name in
            !name.isEmpty
              && name.utf8.allSatisfy {
                $0 < 0x80 && (isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_"))
              }
          })
        else { return .failure(.badVariants) }
        variants = names
      default:
        return .failure(.unknownParameter(String(name.prefix(64))))
      }
    }
    guard let url, !url.isEmpty else { return .failure(.missingURL) }
    return .success(.card(url: url, variants: variants))
  }

  /// Percent-decodes a query component (`+` is a space), refusing malformed escapes, invalid UTF-8,
  /// NUL and results longer than `limit` bytes.
  static func decode(_ bytes: some Collection<UInt8>, limit: Int) -> String? {
    var output: [UInt8] = []
    output.reserveCapacity(min(bytes.count, limit))
    var iterator = bytes.makeIterator()
    while let byte = iterator.next() {
      var decoded = byte
      if byte == UInt8(ascii: "%") {
        guard let high = iterator.next().flatMap(URLNormalization.hexValue),
          let low = iterator.next().flatMap(URLNormalization.hexValue)
        else {
          return nil
        }
        decoded = high << 4 | low
      } else if byte == UInt8(ascii: "+") {
        decoded = UInt8(ascii: " ")
      }
      guard decoded != 0, output.count < limit else { return nil }
      output.append(decoded)
    }
    return String(validating: output, as: UTF8.self)
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
  }

  private static func isLowerHex(_ text: Substring, count: Int) -> Bool {
    text.utf8.count == count
      && text.utf8.allSatisfy {
        URLNormalization.hexValue($0) != nil && !(UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0)
      }
  }

  /// `ab/cd/<64 hex>.<webp|jpg|png|avif>` whose first two pairs are the hash's first four digits.
  static func isBlobPath(_ path: Substring) -> Bool {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 3, isLowerHex(parts[0], count: 2), isLowerHex(parts[1], count: 2) else {
      return false
    }
    let file = parts[2].split(separator: ".", omittingEmptySubsequences: false)
    guard file.count == 2, isLowerHex(file[0], count: 64), ["webp", "jpg", "png", "avif"].contains(file[1])
    else { return false }
    return file[0].hasPrefix(parts[0] + parts[1])
  }

  /// `<64 hex>.json`.
  static func isCardFileName(_ name: Substring) -> Bool {
    name.hasSuffix(".json") && isLowerHex(name.dropLast(5), count: 64)
  }
}
