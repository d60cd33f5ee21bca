import CCurl

extension FetchError {
  /// Maps a failed transfer's `CURLcode` onto its case; `message` is curl's own text and
  /// `url` is the URL whose scheme was refused when the code is `CURLE_UNSUPPORTED_PROTOCOL`
  /// and `redirectLimit` the `CURLOPT_MAXREDIRS` in force.
  init(curlCode code: CURLcode, message: String, url: String, redirectLimit: Int) {
    switch code {
    case CURLE_URL_MALFORMAT:
      self = .invalidURL(url)
    case CURLE_UNSUPPORTED_PROTOCOL:
      let scheme = url.firstIndex(of: ":").map { String(url[..<$0]).lowercased() } ?? url
      self = .unsupportedScheme(scheme)
    case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
      self = .dns(message)
    case CURLE_COULDNT_CONNECT:
      self = .connect(message)
    case CURLE_OPERATION_TIMEDOUT:
      self = .timedOut(message)
    case CURLE_TOO_MANY_REDIRECTS:
      self = .tooManyRedirects(redirectLimit)
    case CURLE_FILESIZE_EXCEEDED:
      self = .other(message)
    case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
      CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
      CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED,
      CURLE_SSL_ENGINE_NOTFOUND,
      CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_USE_SSL_FAILED, CURLE_SSL_CLIENTCERT:
      self = .tls(message)
    case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2,
      CURLE_HTTP2_STREAM, CURLE_BAD_CONTENT_ENCODING, CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP3:
      self = .transfer(message)
    case CURLE_ABORTED_BY_CALLBACK:
      self = .cancelled
    default:
      self = .other(message)
    }
  }
}
