import Foundation
import Thumbify

extension CrawlCommand {
  /// The production stages a crawl runs with, built from the command line's options: `CurlFetcher`
  /// (its robots.txt cache persisted in the state), `MetadataExtractor`, and `Thumbnailer` over a
  /// counting `BlobStore` in the output directory.
  struct Production {
    var fetcher: any Fetching
    var extractor: any MetadataExtracting
    var thumbnailer: any ThumbnailMaking
    var store: CountingBlobStore
    /// The fetcher, counting the bytes it receives (`fetcher` is this one).
    var counting: CountingFetcher
    var robots: CrawlJob.PersistentCache?
    var shutdown: @Sendable () -> Void

    init(options: Options) throws(FetchError) {
      var configuration = options.fetcher
      configuration.maxConcurrentTransfers = max(options.configuration.concurrency, 8)
      let fetcher = try CurlFetcher(configuration: configuration)
      counting = CountingFetcher(fetcher)
      self.fetcher = counting
      extractor = MetadataExtractor(
        iconTargetSize: options.configuration.iconVariants.map(\.box.width).max() ?? 64)
      store = CountingBlobStore(BlobStore(root: options.outputDirectory))
      thumbnailer = Thumbnailer(decoder: ImageDecoder(), store: store)
      robots = CrawlJob.PersistentCache(robots: fetcher.robots)
      shutdown = { fetcher.shutdown() }
    }
  }
}
