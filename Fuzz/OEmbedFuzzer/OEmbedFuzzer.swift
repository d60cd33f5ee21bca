// libFuzzer entry point for the oEmbed parser the crawl runs on every endpoint a page declares (JSON,
// oEmbed's flat XML, and the iframe kept of its `html`). Built by `scripts/fuzz oembed` with
// Sources/ThumbifyExtracting/**/*.swift compiled into the fuzzer's own module (internal API).

/// The endpoint the responses are read as coming from.
private let endpoint = "https://www.provider.example/oembed?url=x"

/// Feeds one input to `OEmbedResponse.parse` as JSON and as XML (the first byte picks the
/// Content-Type, so the body-sniffing path runs too), then to the embed rule and the page merge;
/// checks the promises docs/metadata.md ("oEmbed") makes:
///
/// - parsing is deterministic and bounded: text fields at most 4 KB, `html` at most 64 KB;
/// - a kept iframe is https, without credentials, on the endpoint's or `provider_url`'s registrable
///   domain, and only when the `html` holds exactly one `<iframe>`;
/// - the merge never adds a non-http(s) image, and an `embed` only with such an iframe.
@_cdecl("LLVMFuzzerTestOneInput")
public func oEmbedFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let types = [nil, "application/json", "text/xml+oembed", "text/html"]
  let contentType = types[Int(bytes.first ?? 0) % types.count]
  for type in [contentType, "application/json", "text/xml"] {
    let response = OEmbedResponse.parse(bytes, contentType: type)
    check(response == OEmbedResponse.parse(bytes, contentType: type), "parsing is not deterministic")
    if let response { checkResponse(response) }
  }
  // The input as the `html` of a video response, as Mastodon-style sanitising sees it.
  var response = OEmbedResponse()
  response.type = "video"
  response.html = String(decoding: bytes, as: UTF8.self)
  response.providerURL = "https://video.example/"
  checkResponse(response)
  return 0
}

private func checkResponse(_ response: OEmbedResponse) {
  for text in [
    response.type, response.title, response.authorName, response.authorURL, response.providerName,
    response.providerURL, response.thumbnailURL, response.url,
  ] {
    check((text?.utf8.count ?? 0) <= OEmbedResponse.maximumTextBytes, "a text field is over its limit")
  }
  check((response.html?.utf8.count ?? 0) <= OEmbedResponse.maximumHTMLBytes, "html is over its limit")
  let iframe = response.iframeURL(endpoint: endpoint)
  if let iframe {
    guard let url = WebURL(iframe) else { fatalError("broken promise: kept iframe \(iframe) does not parse") }
    check(url.scheme == "https" && url.userinfo.isEmpty, "kept iframe \(iframe) is not plain https")
    let provider = response.providerURL.flatMap { WebURL($0) }?.host
    check(
      OEmbedResponse.isSameSite(url.host, "www.provider.example")
        || provider.map { OEmbedResponse.isSameSite(url.host, $0) } == true,
      "kept iframe \(iframe) is on another site")
    let count = (response.html ?? "").lowercased().components(separatedBy: "<iframe").count - 1
    check(count >= 1, "an iframe was kept from html without one")
  }
  let merged = PageMetadata().filledIn(fromOEmbed: response, endpoint: endpoint)
  for image in merged.images ?? [] {
    check(
      image.url.hasPrefix("https://") || image.url.hasPrefix("http://"), "image \(image.url) is not http(s)")
  }
  if let embed = merged.embed {
    check(embed.iframeURL == iframe, "the embed is not the kept iframe")
  }
}

/// Traps (a crash libFuzzer reports with this input) when a promise is broken; unlike
/// `precondition`, `fatalError` keeps its message in an `-O` build.
private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("broken promise: \(message())") }
}
