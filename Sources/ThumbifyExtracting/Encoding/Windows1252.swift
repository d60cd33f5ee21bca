/// The WHATWG windows-1252 decoder, which is also what the labels `iso-8859-1`,
/// `latin1` and `ascii` mean on the web.
///
/// Bytes 0x80–0x9F map through `highControls`; every other byte is its own code point.
/// The same table replaces numeric character references in 0x80–0x9F.
enum Windows1252 {
  /// The code points of bytes 0x80–0x9F (unassigned bytes keep their C1 value, as WHATWG says).
  static let highControls: [UInt32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
    0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
  ]

  /// The code point one windows-1252 byte stands for.
  @inline(__always)
  static func codePoint(_ byte: UInt8) -> UInt32 {
    (byte >= 0x80 && byte < 0xA0) ? highControls[Int(byte - 0x80)] : UInt32(byte)
  }

  /// Decodes windows-1252 bytes to UTF-8 bytes.
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + bytes.count / 8)
    for byte in bytes {
      if byte < 0x80 {
        output.append(byte)
      } else {
        UTF8Writer.append(codePoint(byte), to: &output)
      }
    }
    return output
  }
}
