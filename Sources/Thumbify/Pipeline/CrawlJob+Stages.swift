extension CrawlJob {
  /// Why a job's stages could not be made.
  public enum SetupError: Error, Sendable, CustomStringConvertible {
    /// libcurl could not be initialised, or the fetcher configuration is invalid (`--cacert`).
    case fetch(FetchError)
    /// The configuration renders pages, and no Chromium was found (`RenderError.browserMissing`).
    case render(RenderError)

    public var description: String {
      switch self {
      case .fetch(let error): error.description
      case .render(let error): error.description
      }
    }

    /// The manifest's error code of the cause (`FetchError.code`, `RenderError.code`).
    public var code: String {
      switch self {
      case .fetch(let error): error.code
      case .render(let error): error.code
      }
    }
  }

  /// A job over thumbify's own stages, as `thumbify crawl` runs: libcurl with `fetcher`, the metadata
  /// extractor, and the thumbnailer writing blobs into `layout.directory`; Chromium when
  /// `configuration.render` asks (looked up through `THUMBIFY_CHROMIUM`, then `PATH`). The fetcher's
  /// thread and the browser stop when the job is released.
  ///
  /// - Parameters:
  ///   - layout: the output directory and its state directory (`OutputLayout(_:stateDirectory:)`).
  ///   - configuration: variants, limits, rendering and the per-URL deadline.
  ///   - fetcher: the HTTP client's configuration (SSRF guard, robots.txt, timeouts); its
  ///     `maxConcurrentTransfers` follows `configuration.concurrency` (at least 8).
  ///   - pruning: remove the URLs missing from the list; `nil` keeps them.
  ///   - shard: crawl only this shard's URLs of the list (`thumbify crawl --shard K/N`).
  ///   - baseline: the previous night's merged directory and its state, read only (`crawl --baseline`).
  /// - Throws: `SetupError` when libcurl cannot start or rendering needs a missing Chromium.
  public convenience init(
    layout: OutputLayout, configuration: CrawlConfiguration = CrawlConfiguration(),
    fetcher: FetcherConfiguration = FetcherConfiguration(), pruning: Pruning? = nil, shard: Shard? = nil,
    baseline: OutputLayout? = nil
  ) throws(SetupError) {
    let stages = try CrawlStages(
      fetcher: fetcher, configuration: configuration, outputDirectory: layout.directory)
    self.init(
      layout: layout, configuration: configuration, fetcher: stages.fetcher, extractor: stages.extractor,
      thumbnailer: stages.thumbnailer, robots: stages.robots, pruning: pruning, shard: shard,
      baseline: baseline, renderer: stages.renderer)
  }

  /// Runs the crawl over `list` and writes the manifest (see `stop(cancellingAfter:)` to end it early).
  ///
  /// A list read once (a stream, or a path that is no regular file: a FIFO, `/dev/stdin`) is spooled
  /// first, up to its end or a stop.
  ///
  /// - Throws: `StoreError` when the run cannot proceed (another run holds the lock, the state or the
  ///   manifest cannot be written).
  public func run(list: ListSource) async throws(StoreError) -> Summary {
    try await run(list: list, onEvent: { _ in })
  }
}
