import ThumbifySystem

/// The name of a URL's card file: the SHA-256 of its normalized URL.
///
/// A frontend finds the card of a URL without reading the manifest: it normalizes the URL the way
/// the crawl does (see `docs/cards.md`), hashes the UTF-8 bytes with SHA-256 and fetches
/// `cards/<hex>.json`. `thumbify card-key <url>` prints the same key.
///
/// The key is held as four 64-bit words so that a set of a million keys (the cards a run keeps)
/// costs 32 bytes per key, not a string each.
public struct CardKey: Hashable, Sendable, CustomStringConvertible {
  private let words: (UInt64, UInt64, UInt64, UInt64)

  /// The key of a URL that is already normalized (`CrawlRecord.normalizedURL`).
  public init(normalizedURL: String) {
    self.init(digest: SHA256Digest.bytes(of: Array(normalizedURL.utf8)))
  }

  /// The key named by 64 lower-case hex digits, or `nil` when `hex` is not such a name.
  public init?(hex: String) {
    let digits = Array(hex.utf8)
    guard digits.count == 64 else { return nil }
    var digest = [UInt8]()
    digest.reserveCapacity(32)
    var index = 0
    while index < 64 {
      guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else {
        return nil
      }
      digest.append(high << 4 | low)
      index += 2
    }
    self.init(digest: digest)
  }

  /// The key whose 32 digest bytes are `bytes` (as `bytes` returns them).
  init(digest: [UInt8]) {
    func word(_ offset: Int) -> UInt64 {
      digest[offset..<offset + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }
    words = (word(0), word(8), word(16), word(24))
  }

  /// The 32 digest bytes.
  var bytes: [UInt8] {
    var bytes = [UInt8]()
    bytes.reserveCapacity(32)
    for word in [words.0, words.1, words.2, words.3] {
      for shift in stride(from: 56, through: 0, by: -8) {
        bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
      }
    }
    return bytes
  }

  /// 64 lower-case hex digits: the card's file name without `.json`.
  public var hex: String { SHA256Digest.hex(digest: bytes) }

  public var description: String { hex }

  /// `<hex>.json`
  public var fileName: String { hex + ".json" }

  public static func == (lhs: CardKey, rhs: CardKey) -> Bool {
    lhs.words == rhs.words
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(words.0)
    hasher.combine(words.1)
    hasher.combine(words.2)
    hasher.combine(words.3)
  }

  /// Lower-case hex digits only: upper-case names are not card names.
  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
