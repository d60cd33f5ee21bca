import Foundation
import Thumbify
import ThumbifyFetchingTestSupport
import ThumbifyImagingTestSupport

// Only the servers and test images come from the support targets; the library is used through `import
// Thumbify` alone. Being in the package, these tests also see `package` declarations: they use one only
// where a test needs a seam the public API has no reason to offer (`loopbackProvider`'s shared CPU pool
// and render budget). What another package can compile against is checked by samples/link-card and by
// `scripts/docs` (docs/architecture.md, "The public API").

/// A provider whose fetcher may reach loopback servers (the one setting a test needs that a server
/// keeps off): robots ignored, no retries.
func loopbackProvider(
  cache: (any LinkMetadataCaching)? = nil, cpuPool: CPUPool? = nil, timeout: Duration = .seconds(10),
  render: RenderMode = .never, renderBudget: RenderBudget = RenderBudget()
) throws -> LinkMetadataProvider {
  var configuration = FetcherConfiguration()
  configuration.allowsPrivateNetwork = true
  configuration.ignoresRobots = true
  configuration.retry.maxAttempts = 1
  // Only the provider's timeout, or a cancellation, ends a call to a server that never answers: not
  // the fetcher's own 30 s deadline or its low-speed abort (a loaded machine must not turn a
  // cancellation test into a timeout).
  configuration.timeout = max(timeout, configuration.timeout)
  configuration.lowSpeedTime = configuration.timeout
  return LinkMetadataProvider(
    fetcher: try CurlFetcher(configuration: configuration), cache: cache, cpuPool: cpuPool, timeout: timeout,
    render: render, renderBudget: renderBudget)
}

/// nginx serving one article page with a card image and an icon, both JPEG.
struct ArticleSite {
  let nginx: LoopbackNginx
  /// The image's size: 800×400.
  static let imageSize = (width: 800, height: 400)

  init() async throws {
    nginx = try await LoopbackNginx()
    try nginx.write(
      "article.html",
      """
      <html lang="en"><head><title>Fallback</title>
      <meta property="og:title" content="Storm season">
      <meta property="og:description" content="Dark clouds over the motorway.">
      <meta property="og:site_name" content="Weather notes">
      <meta property="og:image" content="/img/card.jpg"><meta property="og:image:alt" content="Clouds">
      <meta property="article:published_time" content="2026-11-02T07:30:00Z">
      <meta property="og:video" content="https://video.example/storm.mp4">
      <link rel="icon" href="/img/icon.jpg"></head><body>Storms.</body></html>
      """)
    let image = TestImages.jpeg(
      TestImages.rgb(width: Self.imageSize.width, height: Self.imageSize.height) { x, _ in
        x < 400 ? (200, 40, 40) : (40, 40, 200)
      })
    let icon = TestImages.jpeg(TestImages.rgb(width: 96, height: 96) { _, _ in (250, 200, 0) })
    let directory = nginx.docroot.appendingPathComponent("img")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data(image).write(to: directory.appendingPathComponent("card.jpg"))
    try Data(icon).write(to: directory.appendingPathComponent("icon.jpg"))
  }

  var articleURL: URL { URL(string: nginx.url("/article.html"))! }

  /// How many requests nginx answered for `path`.
  func requests(for path: String) -> Int {
    nginx.accessLog().filter { $0.contains(" \(path) ") }.count
  }
}

/// The error `body` threw, or `nil` when it returned.
func previewError<T>(_ body: () async throws(LinkPreviewError) -> T) async -> LinkPreviewError? {
  do {
    _ = try await body()
    return nil
  } catch {
    return error
  }
}
