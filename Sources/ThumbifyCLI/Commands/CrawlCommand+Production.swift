import Foundation
import Thumbify

extension CrawlCommand {
  /// The production stages a crawl runs with, built from the command line's options: `CurlFetcher`
  /// (its robots.txt cache persisted in the state), `MetadataExtractor`, and `Thumbnailer` over a
  /// counting `BlobStore` in the output directory; with `--render`, a `ChromiumRenderer` over the
  /// same fetcher.
  struct Production {
    var fetcher: any Fetching
    var extractor: any MetadataExtracting
    var thumbnailer: any ThumbnailMaking
    var store: CountingBlobStore
    /// The fetcher, counting the bytes it receives (`fetcher` is this one).
    var counting: CountingFetcher
    var robots: CrawlJob.PersistentCache?
    /// `nil` without `--render`.
    var renderer: ChromiumRenderer?
    var shutdown: @Sendable () -> Void

    /// Why the stages could not be made.
    enum Failure: Error {
      case fetch(FetchError)
      case render(RenderError)
    }

    init(options: Options, environment: [String: String]) throws(Failure) {
      var configuration = options.fetcher
      configuration.maxConcurrentTransfers = max(options.configuration.concurrency, 8)
      let fetcher: CurlFetcher
      do {
        fetcher = try CurlFetcher(configuration: configuration)
      } catch {
        throw .fetch(error)
      }
      counting = CountingFetcher(fetcher)
      self.fetcher = counting
      extractor = MetadataExtractor(
        iconTargetSize: options.configuration.iconVariants.map(\.box.width).max() ?? 64)
      store = CountingBlobStore(BlobStore(root: options.outputDirectory))
      thumbnailer = Thumbnailer(decoder: ImageDecoder(), store: store)
      robots = CrawlJob.PersistentCache(robots: fetcher.robots)
      let renderer: ChromiumRenderer?
      do {
        renderer = try RenderOptions.renderer(
          mode: options.configuration.render, budget: options.configuration.renderBudget, fetcher: counting,
          environment: environment)
      } catch {
        fetcher.shutdown()
        throw .render(error)
      }
      self.renderer = renderer
      shutdown = {
        renderer?.shutdown()
        fetcher.shutdown()
      }
    }
  }
}
