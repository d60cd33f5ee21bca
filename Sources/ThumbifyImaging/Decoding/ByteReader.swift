/// Bounds-checked reads of little- and big-endian integers from a window of a byte array.
///
/// Every read checks its offset against the window, so a header that points
/// outside the data becomes a typed ``ImageError/corrupt(format:message:)``
/// instead of a trap. Offsets are relative to the window's start.
struct ByteReader {
  /// The bytes the window lies in.
  let bytes: [UInt8]
  /// The absolute index of the window's first byte.
  let start: Int
  /// The absolute index just past the window's last byte.
  let end: Int
  /// The format named in errors.
  let format: ImageFormat

  /// Creates a reader over `bytes[start..<end]`, clamped to the array.
  init(_ bytes: [UInt8], format: ImageFormat, start: Int = 0, end: Int? = nil) {
    self.bytes = bytes
    self.format = format
    self.start = min(max(0, start), bytes.count)
    self.end = max(self.start, min(end ?? bytes.count, bytes.count))
  }

  /// The number of bytes in the window.
  var count: Int { end - start }

  /// A copy of the window's bytes.
  var contents: [UInt8] { Array(bytes[start..<end]) }

  /// A reader over `count` bytes at `offset` of this window, or an error when they do not fit.
  func window(at offset: Int, count: Int) throws(ImageError) -> ByteReader {
    try check(offset, count)
    return ByteReader(bytes, format: format, start: start + offset, end: start + offset + count)
  }

  /// Whether `count` bytes at `offset` lie inside the window.
  func contains(_ offset: Int, count: Int) -> Bool {
    offset >= 0 && count >= 0 && offset <= self.count - count
  }

  func u8(_ offset: Int) throws(ImageError) -> UInt8 {
    try check(offset, 1)
    return bytes[start + offset]
  }

  func u16le(_ offset: Int) throws(ImageError) -> UInt16 {
    try check(offset, 2)
    let i = start + offset
    return UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
  }

  func u16be(_ offset: Int) throws(ImageError) -> UInt16 {
    try check(offset, 2)
    let i = start + offset
    return UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])
  }

  func u32le(_ offset: Int) throws(ImageError) -> UInt32 {
    try check(offset, 4)
    let i = start + offset
    return UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3])
      << 24
  }

  func u32be(_ offset: Int) throws(ImageError) -> UInt32 {
    try check(offset, 4)
    let i = start + offset
    return UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8
      | UInt32(bytes[i + 3])
  }

  func i32le(_ offset: Int) throws(ImageError) -> Int32 {
    Int32(bitPattern: try u32le(offset))
  }

  /// Whether the window holds `prefix` at `offset`.
  func matches(_ prefix: some Collection<UInt8>, at offset: Int = 0) -> Bool {
    guard contains(offset, count: prefix.count) else { return false }
    return bytes[(start + offset)..<(start + offset + prefix.count)].elementsEqual(prefix)
  }

  private func check(_ offset: Int, _ length: Int) throws(ImageError) {
    guard contains(offset, count: length) else {
      throw .corrupt(
        format: format, message: "The data ends before offset \(offset) + \(length) it refers to.")
    }
  }
}
