// libFuzzer entry point for the URL parsers the crawl applies to untrusted URL strings. Built by
// `scripts/fuzz url` with ThumbifySystem, ThumbifyFetching and ThumbifyExtracting (which holds
// URLNormalization) as modules and Sources/ThumbifyCLI/Serving/APIRequest.swift compiled into the
// fuzzer's own module.
@testable import ThumbifyExtracting
@testable import ThumbifyFetching

/// Feeds one input, as a URL, to every URL parser a crawl runs on text from the network or a list.
///
/// - `URLNormalization.normalize` (a URL list's lines, image and icon candidates): the normal form
///   is normal (normalizing it again gives it back), and the already-normal fast path agrees with
///   the full rules on every input it accepts (URLNormalization+FastPath.swift promises both).
/// - `WebURL` (the extractor's `href`/`src` resolution against a page and a `<base>`): a serialized
///   URL parses back to itself, as in ExtractFuzzer.
/// - `APIRequest.parse` (`thumbify serve`'s request targets, `/v1/card?url=…`, with the input as the
///   query string and as the whole target): a `url` it accepts is within the length limit and has no
///   NUL, and a file path it accepts has no `..` and stays below `blobs/` or `cards/`.
/// - `FetchTarget` (curl's `curl_url` parser, which the fetcher splits every request and redirect
///   target with): only absolute http(s) URLs with a host are accepted.
@_cdecl("LLVMFuzzerTestOneInput")
public func urlFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)

  if let normalized = try? URLNormalization.normalize(text) {
    let again = try? URLNormalization.normalizeByRules(normalized)
    check(
      again == normalized,
      "not idempotent: \(text.debugDescription) → \(normalized.debugDescription) → \(again.debugDescription)")
    check(
      normalized.hasPrefix("http://") || normalized.hasPrefix("https://"), "\(normalized) is not http(s)")
  }
  if URLNormalization.isAlreadyNormal(text) {
    let byRules = try? URLNormalization.normalizeByRules(text)
    check(
      byRules == text,
      "fast path says \(text.debugDescription) is normal; the rules give \(byRules.debugDescription)")
  }

  let page = WebURL("https://www.example.com/a/b/page.html?q=1")
  let base = WebURL("../base/", relativeTo: page)
  for resolved in [WebURL(text), WebURL(text, relativeTo: page), WebURL(text, relativeTo: base)] {
    guard let url = resolved else { continue }
    check(WebURL(url.description) == url, "round trip failed for \(url)")
    // What the image stage does with a resolved candidate.
    _ = try? URLNormalization.normalize(url.description)
  }

  for target in ["/v1/card?" + text, text] {
    switch APIRequest.parse(target) {
    case .success(.card(let url, let variants)):
      check(
        url.utf8.count <= APIRequest.maxURLLength && !url.utf8.contains(0),
        "APIRequest accepted \(url.debugDescription)")
      check(
        variants?.allSatisfy { !$0.isEmpty && !$0.contains(",") } ?? true, "bad variants \(variants ?? [])")
      _ = try? URLNormalization.normalize(url)
    case .success(.blob(let path)), .success(.cardFile(let path)):
      check(
        !path.contains("..") && (path.hasPrefix("blobs/") || path.hasPrefix("cards/")),
        "APIRequest served \(path)")
    default:
      break
    }
  }

  _ = FetchTarget.scheme(of: text)
  if let target = try? FetchTarget(text) {
    check(target.scheme == "http" || target.scheme == "https", "FetchTarget accepted \(target.scheme)")
    check(!target.host.isEmpty, "FetchTarget accepted an empty host in \(text.debugDescription)")
    _ = target.origin
    _ = target.hostKey
  }
  return 0
}

/// Traps (a crash libFuzzer reports with this input) when a promise is broken; unlike
/// `precondition`, `fatalError` keeps its message in an `-O` build.
private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("broken promise: \(message())") }
}
