/// What an oEmbed response adds to a page's metadata (docs/metadata.md, "oEmbed").
extension OEmbedResponse {
  /// The `src` of the response's player, when it is safe to draw: the `html` holds exactly one
  /// `<iframe>` (scripts and all other markup are dropped, several iframes keep none), whose `src`
  /// (resolved against the endpoint, so `//host/…` takes the endpoint's scheme) is https and on the
  /// endpoint's registrable domain or the `provider_url`'s — as Mastodon keeps oEmbed iframes.
  ///
  /// - Parameter endpoint: the URL the response was fetched from (after redirects).
  package func iframeURL(endpoint: String) -> String? {
    guard let html, let endpointURL = WebURL(endpoint) else { return nil }
    var bytes = Array(html.utf8)
    let sources = bytes.withUnsafeMutableBufferPointer { buffer -> [String?] in
      var tokenizer = HTMLTokenizer(UnsafeBufferPointer(buffer))
      var finder = IframeFinder()
      tokenizer.run(&finder)
      return finder.sources
    }
    guard sources.count == 1, let src = sources[0], let url = WebURL(src, relativeTo: endpointURL),
      url.scheme == "https", url.userinfo.isEmpty
    else { return nil }
    let allowed = [endpointURL.host] + [providerURL.flatMap { WebURL($0) }?.host].compactMap { $0 }
    guard allowed.contains(where: { Self.isSameSite(url.host, $0) }) else { return nil }
    return url.description
  }

  /// Whether two hosts share a registrable domain (`player.vimeo.com`, `vimeo.com`); hosts without
  /// one (IP addresses, `localhost`) only match themselves.
  static func isSameSite(_ host: String, _ other: String) -> Bool {
    if host == other { return true }
    guard !isIPLiteral(host), !isIPLiteral(other), let domain = PublicSuffixList.registrableDomain(of: host)
    else { return false }
    return domain == PublicSuffixList.registrableDomain(of: other)
  }

  private static func isIPLiteral(_ host: String) -> Bool {
    host.hasPrefix("[") || host.utf8.allSatisfy { ASCII.isDigit($0) || $0 == UInt8(ascii: ".") }
  }

  /// Every `<iframe>` start tag's `src` (`nil` for one without), in order; at most a few are kept,
  /// enough to tell one from several.
  private struct IframeFinder: HTMLTokenSink {
    var sources: [String?] = []
    var isFinished: Bool { sources.count > 1 }
    var wantsOtherTags: Bool { false }

    mutating func startTag(_ name: HTMLTagName, attributes: [HTMLAttribute], isSelfClosing: Bool) {
      guard name == .iframe else { return }
      sources.append(
        attributes.first { $0.known == .src }.flatMap { ASCII.isBlank($0.value) ? nil : $0.value })
    }
    mutating func endTag(_ name: HTMLTagName) {}
    mutating func rawText(of name: HTMLTagName, _ bytes: UnsafeBufferPointer<UInt8>) {}
  }
}

extension PageMetadata {
  /// The page's metadata with an oEmbed response filling what the page lacks: the page's own
  /// OpenGraph, Twitter, JSON-LD and HTML win wherever they gave a field. `title`, `author`
  /// (`author_name`), `siteName` (`provider_name`) fill empty fields; the photo (`url` of a `photo`)
  /// and `thumbnail_url` join the image candidates after the page's own; a `video` or `rich` response
  /// with a safe iframe (`OEmbedResponse.iframeURL(endpoint:)`) sets `embed`, and a `video` one the
  /// `video` too when the page named none.
  ///
  /// - Parameter endpoint: the URL the response was fetched from (after redirects): relative URLs
  ///   resolve against it, and the iframe must be on its site (or the provider's).
  package func filledIn(fromOEmbed response: OEmbedResponse, endpoint: String) -> PageMetadata {
    var merged = self
    let base = WebURL(endpoint)
    func resolved(_ text: String?) -> String? {
      guard let text, let url = WebURL(text, relativeTo: base) else { return nil }
      return url.description
    }
    merged.title =
      merged.title ?? response.title.flatMap { TextNormalizer.clean($0, limit: TextNormalizer.titleLimit) }
    merged.author =
      merged.author
      ?? response.authorName.flatMap { TextNormalizer.clean($0, limit: TextNormalizer.shortTextLimit) }
    merged.siteName =
      merged.siteName
      ?? response.providerName.flatMap { TextNormalizer.clean($0, limit: TextNormalizer.shortTextLimit) }
    var added: [ImageCandidate] = []
    if response.type == "photo", let photo = resolved(response.url) {
      added.append(ImageCandidate(url: photo, width: response.width, height: response.height))
    }
    if let thumbnail = resolved(response.thumbnailURL) {
      added.append(
        ImageCandidate(url: thumbnail, width: response.thumbnailWidth, height: response.thumbnailHeight))
    }
    if !added.isEmpty {
      let images = ImageRules.merged((merged.images ?? merged.image.map { [$0] } ?? []) + added)
      merged.images = images
      merged.image = merged.image ?? images.first
    }
    if let type = response.type, type == "video" || type == "rich",
      let iframe = response.iframeURL(endpoint: endpoint)
    {
      let provider = response.providerName.flatMap {
        TextNormalizer.clean($0, limit: TextNormalizer.shortTextLimit)
      }
      merged.embed = Embed(
        provider: provider, type: type, width: response.width, height: response.height, iframeURL: iframe)
      if type == "video", merged.video == nil {
        merged.video = VideoCandidate(
          url: iframe, type: "text/html", width: response.width, height: response.height, kind: .player)
      }
    }
    return merged
  }
}
