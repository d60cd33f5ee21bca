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
    var robots: CrawlJob.PersistentCache?
    var shutdown: @Sendable () -> Void

    init(options: Options) throws(FetchError) {
      var configuration = FetcherConfiguration()
      configuration.maxConcurrentTransfers = max(options.configuration.concurrency, 8)
      configuration.maxTransfersPerHost = options.perHost
      configuration.timeout = .milliseconds(Int(options.timeout * 1000))
      configuration.allowsPrivateNetwork = options.allowsPrivateNetwork
      configuration.ignoresRobots = options.ignoresRobots
      configuration.caFile = options.caFile
      configuration.contactURL = options.contactURL
      let fetcher = try CurlFetcher(configuration: configuration)
      self.fetcher = fetcher
      extractor = MetadataExtractor(
        iconTargetSize: options.configuration.iconVariants.map(\.box.width).max() ?? 64)
      store = CountingBlobStore(BlobStore(root: options.outputDirectory))
      thumbnailer = Thumbnailer(decoder: ImageDecoder(), store: store)
      let robotsCache = fetcher.robots
      robots = CrawlJob.PersistentCache(
        seed: { saved in
          let decoder = JSONDecoder()
          robotsCache.seed(
            saved.values.compactMap { try? decoder.decode(RobotsCache.Entry.self, from: Data($0.utf8)) })
        },
        export: {
          let encoder = JSONEncoder()
          encoder.outputFormatting = [.sortedKeys]
          var entries: [String: String] = [:]
          for entry in robotsCache.export() {
            if let data = try? encoder.encode(entry) {
              entries[entry.origin] = String(decoding: data, as: UTF8.self)
            }
          }
          return entries
        })
      shutdown = { fetcher.shutdown() }
    }
  }
}
