import Foundation

extension CardService {
  /// A service over thumbify's own stages, as `thumbify serve` runs: libcurl with `fetcher`, the
  /// metadata extractor, and the thumbnailer writing blobs into `configuration.layout.directory`;
  /// Chromium when `configuration.crawl.render` asks (looked up in `environment`:
  /// `THUMBIFY_CHROMIUM`, then `PATH`). Set up to run for weeks: robots.txt verdicts are fetched
  /// again after a day and kept for 10,000 origins, a failing host is skipped for at most 5 minutes
  /// (docs/serve.md, "Memory"). The fetcher's thread and the browser stop when the service is
  /// released.
  ///
  /// - Throws: `CardServiceError.setup` when libcurl cannot start or rendering needs a missing
  ///   Chromium; `CardServiceError.storage` when the output directory is locked by another process or
  ///   its state cannot be opened.
  public convenience init(
    configuration: Configuration, fetcher: FetcherConfiguration = FetcherConfiguration(),
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(CardServiceError) {
    var fetcher = fetcher
    fetcher.allowsPrivateNetwork = fetcher.allowsPrivateNetwork || configuration.allowsPrivateNetwork
    let stages: CrawlStages
    do {
      stages = try CrawlStages(
        fetcher: fetcher, configuration: configuration.crawl, outputDirectory: configuration.layout.directory,
        environment: environment, isLongRunning: true)
    } catch {
      throw .setup(error)
    }
    try self.init(
      configuration: configuration, fetcher: stages.fetcher, extractor: stages.extractor,
      thumbnailer: stages.thumbnailer, renderer: stages.renderer)
  }
}
