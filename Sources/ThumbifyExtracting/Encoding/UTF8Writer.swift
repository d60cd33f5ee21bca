/// Appends code points to UTF-8 byte arrays.
enum UTF8Writer {
  /// Appends `scalar` as UTF-8; surrogates and values past U+10FFFF become U+FFFD.
  @inline(__always)
  static func append(_ scalar: UInt32, to output: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      output.append(UInt8(scalar))
    case 0x80..<0x800:
      output.append(UInt8(0xC0 | (scalar >> 6)))
      output.append(UInt8(0x80 | (scalar & 0x3F)))
    case 0xD800..<0xE000, 0x110000...:
      output.append(contentsOf: [0xEF, 0xBF, 0xBD])
    case 0x800..<0x10000:
      output.append(UInt8(0xE0 | (scalar >> 12)))
      output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      output.append(UInt8(0x80 | (scalar & 0x3F)))
    default:
      output.append(UInt8(0xF0 | (scalar >> 18)))
      output.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
      output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      output.append(UInt8(0x80 | (scalar & 0x3F)))
    }
  }
}
