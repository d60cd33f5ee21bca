import Thumbify

extension CrawlCommand {
  /// The production stages a crawl runs with, built from the command line's options.
  struct Production {
    var fetcher: any Fetching
    var extractor: any MetadataExtracting
    var thumbnailer: any ThumbnailMaking
    var store: CountingBlobStore
    var robots: CrawlJob.PersistentCache?
    var shutdown: @Sendable () -> Void = {}

    init(options: Options) throws(StoreError) {
      throw .io(
        path: options.outputDirectory, operation: "crawl into", message: "this build has no fetcher yet")
    }
  }
}
