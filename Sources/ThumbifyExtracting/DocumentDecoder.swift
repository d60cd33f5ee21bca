/// Finds a page's character encoding and turns its bytes into UTF-8.
///
/// The order is the one browsers use (docs/metadata.md, "Charset"): a byte order mark, the HTTP
/// `Content-Type` charset, the `<meta>` prescan of the first 1024 bytes, UTF-8 when the bytes are
/// valid UTF-8, a statistical guess (`CharsetDetector`), else windows-1252. A declared encoding that is plainly wrong — the
/// bytes fail to decode in it but are valid UTF-8, or it is a single-byte encoding and the
/// bytes are valid UTF-8 with multi-byte sequences — is replaced by UTF-8.
enum DocumentDecoder {
  /// Where the encoding came from.
  enum Source: String, Sendable {
    case byteOrderMark, httpHeader, metaPrescan, utf8Validity, detected, fallback, mislabelled
  }

  /// A page as UTF-8 and how it was decoded.
  struct Decoded {
    /// The converted text as UTF-8 bytes, or `nil` when the input bytes are already UTF-8 and
    /// are used as they are (invalid UTF-8 is left for string creation to replace).
    var converted: [UInt8]?
    /// How many leading bytes of the input to skip (a UTF-8 byte order mark) when `converted` is `nil`.
    var skip = 0
    var encoding: TextEncoding
    var source: Source

    /// Calls `body` with the UTF-8 text, given the input the decoding was made from.
    func withUTF8<Result>(
      input: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
      if let converted { return converted.withUnsafeBufferPointer(body) }
      return body(UnsafeBufferPointer(rebasing: input[skip...]))
    }
  }

  /// Decodes `bytes` given the HTTP `Content-Type` header value, if any.
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, contentType: String?) -> Decoded {
    if let (encoding, length) = byteOrderMark(bytes) {
      let body = UnsafeBufferPointer(rebasing: bytes[length...])
      if encoding == .utf8 { return Decoded(skip: length, encoding: .utf8, source: .byteOrderMark) }
      let converted = encoding.iconvName.flatMap { IconvConverter.convert(body, from: $0) }
      return Decoded(converted: converted?.bytes ?? Array(body), encoding: encoding, source: .byteOrderMark)
    }
    if let contentType, let label = CharsetPrescan.charset(inContent: Array(contentType.utf8)),
      let encoding = TextEncoding(label: String(decoding: label, as: UTF8.self))
    {
      return decode(bytes, declared: encoding, source: .httpHeader)
    }
    if let encoding = CharsetPrescan.encoding(in: bytes) {
      return decode(bytes, declared: encoding, source: .metaPrescan)
    }
    let validity = UTF8Validator.validate(bytes)
    if validity.isValid { return Decoded(encoding: .utf8, source: .utf8Validity) }
    if let encoding = CharsetDetector.encoding(of: bytes) {
      return decode(bytes, declared: encoding, source: .detected)
    }
    return Decoded(converted: Windows1252.decode(bytes), encoding: .windows1252, source: .fallback)
  }

  /// Decodes in a declared encoding, falling back to UTF-8 when the declaration is plainly wrong.
  private static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, declared encoding: TextEncoding, source: Source
  ) -> Decoded {
    if encoding == .utf8 || encoding == .utf16LE || encoding == .utf16BE {
      // A document cannot declare UTF-16 in itself; a header naming UTF-16 without a BOM is read as UTF-8.
      return Decoded(encoding: .utf8, source: source)
    }
    let validity = UTF8Validator.validate(bytes)
    let mislabelled = Decoded(encoding: .utf8, source: .mislabelled)
    if encoding.isSingleByte, validity.isValid, validity.hasNonASCII { return mislabelled }
    if encoding == .windows1252 {
      return Decoded(converted: Windows1252.decode(bytes), encoding: encoding, source: source)
    }
    guard let iconvName = encoding.iconvName, let converted = IconvConverter.convert(bytes, from: iconvName)
    else {
      if validity.isValid { return mislabelled }
      return Decoded(converted: Windows1252.decode(bytes), encoding: .windows1252, source: .fallback)
    }
    if converted.hadInvalidBytes, validity.isValid { return mislabelled }
    return Decoded(converted: converted.bytes, encoding: encoding, source: source)
  }

  /// The encoding a byte order mark names and the mark's length.
  private static func byteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> (TextEncoding, Int)? {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return (.utf8, 3) }
    if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { return (.utf16BE, 2) }
    if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return (.utf16LE, 2) }
    return nil
  }
}
