import CCurl

/// Sets up an easy handle for one transfer from the fetcher's configuration.
enum CurlRequestOptions {
  /// `Accept` per kind: what thumbify can use.
  static func accept(for kind: ResourceKind) -> String {
    switch kind {
    case .page: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"
    case .image: "image/avif,image/webp,image/png,image/jpeg,image/gif,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
    case .robots: "text/plain,*/*;q=0.5"
    case .subresource: "*/*"
    case .oembed: "application/json+oembed,application/json,text/xml+oembed,text/xml;q=0.9,*/*;q=0.5"
    }
  }

  /// Applies every option; the first failure is kept in `easy.setupError`.
  static func apply(
    _ configuration: FetcherConfiguration, share: UnsafeMutableRawPointer, to easy: CurlEasyHandle,
    for transfer: CurlTransfer
  ) {
    let request = transfer.request
    easy.set(CURLOPT_URL, request.url)
    easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
    easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
    // CurlFetcher follows redirects itself, one queued transfer per hop, so every hop gets the
    // per-host queue and robots.txt of its own host; curl only reports CURLINFO_REDIRECT_URL.
    easy.set(CURLOPT_FOLLOWLOCATION, 0)
    easy.set(CURLOPT_ACCEPT_ENCODING, "")  // every encoding this libcurl build decodes
    easy.set(CURLOPT_USERAGENT, configuration.userAgent)
    easy.set(CURLOPT_TIMEOUT_MS, max(1, transfer.timeout.milliseconds))
    easy.set(
      CURLOPT_CONNECTTIMEOUT_MS, max(1, min(configuration.connectTimeout, transfer.timeout).milliseconds))
    easy.set(CURLOPT_LOW_SPEED_LIMIT, configuration.lowSpeedLimit)
    easy.set(CURLOPT_LOW_SPEED_TIME, max(1, configuration.lowSpeedTime.milliseconds / 1000))
    easy.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
    if request.url.prefix(6).lowercased() == "https:" {
      easy.set(CURLOPT_PIPEWAIT, 1)  // wait for ALPN to learn whether HTTP/2 can multiplex
    }
    easy.set(CURLOPT_NOSIGNAL, 1)
    easy.set(CURLOPT_PROXY, "")  // no proxy from the environment: the SSRF guard checks the real peer
    easy.set(CURLOPT_DNS_CACHE_TIMEOUT, 300)
    easy.set(CURLOPT_SHARE, pointer: share)
    easy.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(transfer.errorBuffer))
    if let caFile = configuration.caFile { easy.set(CURLOPT_CAINFO, caFile) }
    var headers = ["Accept: \(accept(for: request.kind))"]
    if let etag = request.etag { headers.append("If-None-Match: \(etag)") }
    if let lastModified = request.lastModified { headers.append("If-Modified-Since: \(lastModified)") }
    easy.set(CURLOPT_HTTPHEADER, list: headers)
    easy.set(CURLOPT_RESOLVE, list: configuration.resolve)
    let context = Unmanaged.passUnretained(transfer).toOpaque()
    easy.setWriteCallback(curlWriteCallback)
    easy.set(CURLOPT_WRITEDATA, pointer: context)
    easy.setHeaderCallback(curlHeaderCallback)
    easy.set(CURLOPT_HEADERDATA, pointer: context)
    easy.setOpenSocketCallback(curlOpenSocketCallback)
    easy.set(CURLOPT_OPENSOCKETDATA, pointer: context)
  }
}
