/// Finds a page's character encoding and turns its bytes into UTF-8.
///
/// The order is the one browsers use (docs/metadata.md, "Charset"): a byte order mark, the HTTP
/// `Content-Type` charset, the `<meta>` prescan of the first 1024 bytes, UTF-8 when the bytes are
/// valid UTF-8, a statistical guess (`CharsetDetector`), else windows-1252. Only the first two are
/// certain; any other answer is tentative, and a different declaration the tokenizer meets later in
/// `<head>` replaces it (`changingEncoding(of:to:bytes:)`). A declared encoding that is plainly
/// wrong — the bytes fail to decode in it but are valid UTF-8, or it is a single-byte encoding and
/// the bytes are valid UTF-8 with multi-byte sequences — is replaced by UTF-8.
enum DocumentDecoder {
  /// Where the encoding came from.
  enum Source: String, Sendable {
    case byteOrderMark, httpHeader, metaPrescan, utf8Validity, detected, fallback, mislabelled
    /// A `<meta>` declaration in `<head>` that the prescan did not see (`changingEncoding`).
    case lateDeclaration
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
    /// The encoding a later declaration must differ from to change the decoding; `nil` when the
    /// encoding is certain (a byte order mark, the HTTP header, or already changed once). It is
    /// the declared one when that was replaced by UTF-8 as mislabelled, so that the same
    /// declaration met again by the tokenizer changes nothing.
    var tentative: TextEncoding?
    /// Whether the input is known to be all ASCII, which every encoding a page may declare
    /// reads alike.
    var isASCII = false

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
      var decoded = decode(bytes, declared: encoding, source: .httpHeader)
      decoded.tentative = nil
      return decoded
    }
    if let encoding = CharsetPrescan.encoding(in: bytes) {
      return decode(bytes, declared: encoding, source: .metaPrescan)
    }
    let validity = UTF8Validator.validate(bytes)
    if validity.isValid {
      return Decoded(encoding: .utf8, source: .utf8Validity, tentative: .utf8, isASCII: !validity.hasNonASCII)
    }
    if let encoding = CharsetDetector.encoding(of: bytes) {
      return decode(bytes, declared: encoding, source: .detected)
    }
    return Decoded(
      converted: Windows1252.decode(bytes), encoding: .windows1252, source: .fallback, tentative: .windows1252
    )
  }

  /// The WHATWG "change the encoding" algorithm, for a `<meta>` declaration the tokenizer met in
  /// `<head>`: the decoding in `declared`, or `nil` when it stays as it is — the encoding is
  /// certain, the declaration names the encoding in use (UTF-16 means UTF-8, x-user-defined
  /// windows-1252), or the input is ASCII, which reads alike in every encoding a page may declare
  /// (ISO-2022-JP, whose escapes are ASCII, is the exception). The new decoding is certain, so a
  /// page is decoded again at most once.
  static func changingEncoding(
    of decoded: Decoded, to declared: TextEncoding, bytes: UnsafeBufferPointer<UInt8>
  ) -> Decoded? {
    guard let tentative = decoded.tentative else { return nil }
    let encoding = declared == .utf16LE || declared == .utf16BE ? TextEncoding.utf8 : declared
    guard encoding != tentative, encoding != decoded.encoding,
      !decoded.isASCII || encoding.name == "ISO-2022-JP"
    else { return nil }
    var changed = decode(bytes, declared: encoding, source: .lateDeclaration)
    changed.tentative = nil
    return changed
  }

  /// Decodes in a declared encoding, falling back to UTF-8 when the declaration is plainly wrong.
  /// The result is tentative; the caller makes a certain source certain.
  private static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, declared encoding: TextEncoding, source: Source
  ) -> Decoded {
    if encoding == .utf8 || encoding == .utf16LE || encoding == .utf16BE {
      // A document cannot declare UTF-16 in itself; a header naming UTF-16 without a BOM is read as UTF-8.
      return Decoded(encoding: .utf8, source: source, tentative: .utf8)
    }
    let validity = UTF8Validator.validate(bytes)
    let isASCII = !validity.hasNonASCII
    let mislabelled = Decoded(encoding: .utf8, source: .mislabelled, tentative: encoding, isASCII: isASCII)
    if encoding.isSingleByte, validity.isValid, validity.hasNonASCII { return mislabelled }
    if encoding == .windows1252 {
      return Decoded(
        converted: Windows1252.decode(bytes), encoding: encoding, source: source, tentative: encoding,
        isASCII: isASCII)
    }
    guard let iconvName = encoding.iconvName, let converted = IconvConverter.convert(bytes, from: iconvName)
    else {
      if validity.isValid { return mislabelled }
      return Decoded(
        converted: Windows1252.decode(bytes), encoding: .windows1252, source: .fallback, tentative: encoding)
    }
    if converted.hadInvalidBytes, validity.isValid { return mislabelled }
    return Decoded(
      converted: converted.bytes, encoding: encoding, source: source, tentative: encoding, isASCII: isASCII)
  }

  /// The encoding a byte order mark names and the mark's length.
  private static func byteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> (TextEncoding, Int)? {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return (.utf8, 3) }
    if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { return (.utf16BE, 2) }
    if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return (.utf16LE, 2) }
    return nil
  }
}
