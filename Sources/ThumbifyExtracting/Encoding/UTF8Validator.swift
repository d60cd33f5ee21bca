/// Checks whether bytes are well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF).
enum UTF8Validator {
  /// What a scan found.
  struct Result {
    var isValid: Bool
    /// Whether any byte is outside ASCII.
    var hasNonASCII: Bool
  }

  /// Validates `bytes`, skipping ASCII eight bytes at a time.
  static func validate(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
    guard let base = bytes.baseAddress else { return Result(isValid: true, hasNonASCII: false) }
    let count = bytes.count
    var index = 0
    var hasNonASCII = false
    let raw = UnsafeRawPointer(base)
    while index < count {
      if index + 8 <= count,
        raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
        continue
      }
      let byte = base[index]
      if byte < 0x80 {
        index += 1
        continue
      }
      hasNonASCII = true
      let length: Int
      var lower: UInt8 = 0x80
      var upper: UInt8 = 0xBF
      switch byte {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        lower = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        upper = 0x9F
      case 0xF0:
        length = 4
        lower = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        upper = 0x8F
      default: return Result(isValid: false, hasNonASCII: true)
      }
      guard index + length <= count else { return Result(isValid: false, hasNonASCII: true) }
      let second = base[index + 1]
      guard second >= lower, second <= upper else { return Result(isValid: false, hasNonASCII: true) }
      for offset in 2..<max(2, length) where base[index + offset] & 0xC0 != 0x80 {
        return Result(isValid: false, hasNonASCII: true)
      }
      index += length
    }
    return Result(isValid: true, hasNonASCII: hasNonASCII)
  }
}
