import Foundation

/// The production stages a crawl, `thumbify serve` and the public initializers run with: a
/// `CurlFetcher` (counting the bytes it receives, its robots.txt cache persisted in the state), a
/// `MetadataExtractor`, and a `Thumbnailer` over a counting `BlobStore` in the output directory; when
/// the configuration renders, a `ChromiumRenderer` over the same fetcher.
package struct CrawlStages: Sendable {
  package var fetcher: any Fetching
  package var extractor: any MetadataExtracting
  package var thumbnailer: any ThumbnailMaking
  package var store: CountingBlobStore
  /// The fetcher, counting the bytes it receives (`fetcher` is this one).
  package var counting: CountingFetcher
  package var robots: CrawlJob.PersistentCache?
  /// The fetcher's settings as these stages run it (transfers and host skips set for the work).
  package let fetcherConfiguration: FetcherConfiguration
  /// The fetcher's robots.txt cache (bounded when long-running).
  package let robotsCache: RobotsCache
  /// `nil` when the configuration does not render.
  package var renderer: ChromiumRenderer?
  private let stopStages: @Sendable () -> Void

  /// - Parameters:
  ///   - environment: where Chromium is looked up (`THUMBIFY_CHROMIUM`, then `PATH`).
  ///   - isLongRunning: stages for a service that runs for weeks and is asked any number of hosts
  ///     (`CardService`, docs/serve.md "Memory"): robots.txt verdicts fetched again after a day and
  ///     kept for 10,000 origins at most, a failing host skipped for at most 5 minutes, and two
  ///     transfers per concurrent URL (a live fetch's page, image and icon overlap one another).
  /// - Throws: `CrawlJob.SetupError` when libcurl cannot start or `configuration.render` needs a
  ///   Chromium that is not installed.
  package init(
    fetcher fetcherConfiguration: FetcherConfiguration, configuration: CrawlConfiguration,
    outputDirectory: String, environment: [String: String] = ProcessInfo.processInfo.environment,
    isLongRunning: Bool = false
  ) throws(CrawlJob.SetupError) {
    var fetcherConfiguration = fetcherConfiguration
    // Transfers follow the crawl's width (at least 8: a page's images and icon overlap its neighbours').
    fetcherConfiguration.maxConcurrentTransfers = max(configuration.concurrency * (isLongRunning ? 2 : 1), 8)
    var robotsCache: RobotsCache?
    if isLongRunning {
      fetcherConfiguration.retry.hostSkipDuration = min(
        fetcherConfiguration.retry.hostSkipDuration ?? .seconds(300), .seconds(300))
      robotsCache = RobotsCache(maxAge: .seconds(86_400), maxOrigins: 10_000)
    }
    let fetcher: CurlFetcher
    do {
      fetcher = try CurlFetcher(configuration: fetcherConfiguration, robots: robotsCache)
    } catch {
      throw .fetch(error)
    }
    self.fetcherConfiguration = fetcherConfiguration
    self.robotsCache = fetcher.robots
    counting = CountingFetcher(fetcher)
    self.fetcher = counting
    extractor = MetadataExtractor(iconTargetSize: configuration.iconVariants.map(\.box.width).max() ?? 64)
    store = CountingBlobStore(BlobStore(root: outputDirectory))
    thumbnailer = Thumbnailer(decoder: ImageDecoder(), store: store)
    robots = CrawlJob.PersistentCache(robots: fetcher.robots)
    let renderer: ChromiumRenderer?
    do {
      renderer = try Self.renderer(
        mode: configuration.render, budget: configuration.renderBudget, fetcher: counting,
        environment: environment)
    } catch {
      fetcher.shutdown()
      throw .render(error)
    }
    self.renderer = renderer
    stopStages = {
      renderer?.shutdown()
      fetcher.shutdown()
    }
  }

  /// Stops the browser and the fetcher's transfer thread.
  package func shutdown() { stopStages() }

  /// The Chromium renderer `mode` needs (`nil` for `never`), over `fetcher`. Chromium is looked up now,
  /// so that `--render` without it fails before any work with a line that says what to install.
  ///
  /// - Throws: `RenderError.browserMissing` when no Chromium is found.
  package static func renderer(
    mode: RenderMode, budget: RenderBudget, fetcher: any Fetching,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(RenderError) -> ChromiumRenderer? {
    guard mode != .never else { return nil }
    let executable = try ChromiumLauncher.executable(
      explicit: environment["THUMBIFY_CHROMIUM"],
      path: environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"])
    return ChromiumRenderer(executable: executable, fetcher: fetcher, budget: budget)
  }
}
