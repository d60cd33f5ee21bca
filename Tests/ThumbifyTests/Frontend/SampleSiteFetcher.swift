import Foundation

@testable import Thumbify

/// A test double fetcher serving `samples/site` (and `/photos/` from `samples/photos`) from disk
/// under `http://127.0.0.1:8765/`, as `scripts/demo`'s nginx does — redirect included — so the
/// report tests can run the real crawl (extractor, decoders, thumbnailer, blob store, CrawlJob)
/// on the sample site without a network.
struct SampleSiteFetcher: Fetching {
  static let origin = "http://127.0.0.1:8765"
  static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("samples").path

  func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
    guard request.url.hasPrefix(Self.origin + "/") else { throw .dns("Could not resolve host") }
    var path = String(request.url.dropFirst(Self.origin.count))
    if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<end]) }
    var redirects: [String] = []
    if path == "/old/storms" {
      redirects.append(request.url)
      path = "/en/storms.html"
    }
    if path.hasSuffix("/") { path += "index.html" }
    let file =
      path.hasPrefix("/photos/")
      ? Self.samples + "/photos/" + path.dropFirst("/photos/".count) : Self.samples + "/site" + path
    guard !path.contains(".."), let data = FileManager.default.contents(atPath: file) else {
      throw .httpStatus(404)
    }
    let types = [
      "html": "text/html", "jpg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif",
      "ico": "image/x-icon", "txt": "text/plain",
    ]
    return FetchResponse(
      requestedURL: request.url, finalURL: Self.origin + path, redirects: redirects, status: 200,
      contentType: types[(file as NSString).pathExtension.lowercased()], body: [UInt8](data))
  }
}
