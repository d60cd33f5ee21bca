import CUchardet

/// Guesses the encoding of an undeclared page that is not UTF-8 from its bytes' statistics, with
/// libuchardet (Mozilla's universal charset detector).
///
/// The corresponding C functions are `uchardet_new`, `uchardet_handle_data`, `uchardet_data_end`,
/// `uchardet_get_charset` and `uchardet_delete`.
enum CharsetDetector {
  /// How many bytes the detector reads at most, so a big page costs no more than a small one.
  static let sampleLimit = 64 * 1024

  /// uchardet's names that are not WHATWG labels, mapped to the label of the same encoding:
  /// `UHC` is Microsoft's CP949, which is what the WHATWG calls EUC-KR.
  private static let uchardetNames = ["uhc": "windows-949", "mac-cyrillic": "x-mac-cyrillic"]

  /// The encoding the bytes look like, or `nil` when the detector has no answer or names an
  /// encoding thumbify does not decode.
  ///
  /// The sample starts at the first non-ASCII byte: markup and scripts before it are ASCII and
  /// tell the detector nothing, and a long `<head>` would otherwise fill the whole sample.
  /// UTF-16 is never the answer: without a byte order mark a page is not read as UTF-16.
  static func encoding(of bytes: UnsafeBufferPointer<UInt8>) -> TextEncoding? {
    guard let start = bytes.firstIndex(where: { $0 >= 0x80 }), let base = bytes.baseAddress,
      let detector = uchardet_new()
    else { return nil }
    defer { uchardet_delete(detector) }
    let count = min(bytes.count - start, sampleLimit)
    let status = UnsafeRawPointer(base + start).withMemoryRebound(to: CChar.self, capacity: count) {
      uchardet_handle_data(detector, $0, count)
    }
    guard status == 0 else { return nil }
    uchardet_data_end(detector)
    guard let name = uchardet_get_charset(detector) else { return nil }
    let answer = ASCII.lowercased(String(cString: name))
    guard let encoding = TextEncoding(label: uchardetNames[answer] ?? answer),
      encoding != .utf16LE, encoding != .utf16BE
    else { return nil }
    return encoding
  }
}
