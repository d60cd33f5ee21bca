import Synchronization
import ThumbifyFetching

/// A `Fetching` double serving canned pages and images, answering 304 when validators match,
/// and recording every request.
package final class StubFetcher: Fetching {
  package enum Route: Sendable {
    case body([UInt8], etag: String?, contentType: String?)
    case failure(FetchError)
  }

  private let routes = Mutex<[String: Route]>([:])
  private let log = Mutex<[FetchRequest]>([])
  /// Seconds each fetch takes (lets coalescing be observed).
  package let delay: Duration

  package init(delay: Duration = .zero) { self.delay = delay }

  package func serve(
    _ url: String, _ text: String, etag: String? = "\"v1\"", contentType: String? = "text/html"
  ) {
    routes.withLock { $0[url] = .body(Array(text.utf8), etag: etag, contentType: contentType) }
  }

  package func serve(_ url: String, bytes: [UInt8], etag: String? = "\"i1\"") {
    routes.withLock { $0[url] = .body(bytes, etag: etag, contentType: "image/jpeg") }
  }

  package func fail(_ url: String, _ error: FetchError) {
    routes.withLock { $0[url] = .failure(error) }
  }

  package var requests: [FetchRequest] { log.withLock { $0 } }
  package func requests(for url: String) -> [FetchRequest] { requests.filter { $0.url == url } }
  package func resetLog() { log.withLock { $0 = [] } }

  package func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
    log.withLock { $0.append(request) }
    if delay > .zero { try? await Task.sleep(for: delay) }
    switch routes.withLock({ $0[request.url] }) {
    case nil:
      throw .httpStatus(404)
    case .failure(let error):
      throw error
    case .body(let body, let etag, let contentType):
      if let sent = request.etag, sent == etag {
        return FetchResponse(
          requestedURL: request.url, finalURL: request.url, status: 304, isNotModified: true, etag: etag)
      }
      return FetchResponse(
        requestedURL: request.url, finalURL: request.url, status: 200, contentType: contentType, etag: etag,
        body: body)
    }
  }
}
