// libFuzzer entry point for the HTML tokenizer and metadata extractor.
// Built by `scripts/fuzz extract` together with Sources/ThumbifyExtracting/**/*.swift.

/// Feeds one input to every byte-level parser of the extracting stage.
///
/// The first byte picks the Content-Type header variant so the charset paths (iconv,
/// windows-1252, UTF-16) are fuzzed too; a first byte that is 0 modulo 8 (a space, as in the
/// `late-charset.html` seed) means no header, where uchardet's guess and a declaration past the
/// prescan (decoding again) come in. The whole input is also tried as a URL, as JSON-LD and as
/// text with character references.
@_cdecl("LLVMFuzzerTestOneInput")
public func extractFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let contentTypes: [String?] = [
    nil, "text/html; charset=utf-8", "text/html; charset=shift_jis", "text/html; charset=gbk",
    "text/html; charset=iso-2022-jp", "text/html; charset=windows-1252", "text/html; charset=utf-16le",
    "text/html; charset=euc-kr",
  ]
  let contentType = size > 0 ? contentTypes[Int(bytes[0]) % contentTypes.count] : nil
  let metadata = MetadataExtractor(iconTargetSize: 64).extract(
    bytes: bytes, pageURL: "https://www.example.com/a/b/page.html?q=1", contentType: contentType)
  check(metadata.canonicalURL.map { WebURL($0) != nil } ?? true, "a canonical URL that is not http(s)")
  if let title = metadata.title { check(title.count <= TextNormalizer.titleLimit, "a title over the limit") }
  if let description = metadata.description {
    check(description.count <= TextNormalizer.descriptionLimit, "a description over the limit")
  }

  let base = WebURL("https://www.example.com/a/b/page.html")
  if let url = WebURL(String(decoding: bytes.prefix(4096), as: UTF8.self), relativeTo: base) {
    // A serialized URL parses back to itself.
    check(WebURL(url.description) == url, "round trip failed for \(url)")
  }
  _ = LenientJSONParser.parseAll(bytes)
  _ = CharacterReferences.decode(bytes, isAttribute: size % 2 == 0)
  return 0
}

/// Traps (a crash libFuzzer reports with this input) when a promise is broken; unlike
/// `precondition`, `fatalError` keeps its message in an `-O` build.
private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("broken promise: \(message())") }
}
