/// Byte classes for the tokenizer's inner loops, one table lookup instead of several compares.
enum ByteClass {
  static let whitespace: UInt8 = 1
  static let slash: UInt8 = 2
  static let greaterThan: UInt8 = 4
  static let equals: UInt8 = 8
  static let endsTagName = whitespace | slash | greaterThan
  static let endsAttributeName = whitespace | slash | greaterThan | equals
  static let endsUnquotedValue = whitespace | greaterThan

  /// The class bits of every byte value; allocated once and never freed.
  // Immutable after initialization: written only inside this lazy initializer, then only read.
  nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    table.initialize(repeating: 0, count: 256)
    for byte in [0x09, 0x0A, 0x0C, 0x0D, 0x20] { table[byte] = whitespace }
    table[Int(UInt8(ascii: "/"))] = slash
    table[Int(UInt8(ascii: ">"))] = greaterThan
    table[Int(UInt8(ascii: "="))] = equals
    return UnsafePointer(table)
  }()
}
