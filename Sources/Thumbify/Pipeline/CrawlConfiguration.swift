import Foundation

/// Everything a crawl can be told: variants, limits, freshness. A value type; the CLI fills it from flags.
public struct CrawlConfiguration: Sendable {
  /// Pages processed at once (each holds at most one page body and one image body).
  public var concurrency: Int
  /// Image candidates tried, best first, before a card goes without an image.
  public var maxImageCandidates: Int
  /// Icon candidates tried, best first (the extractor's list, then `/favicon.ico`).
  public var maxIconCandidates: Int
  /// Entries older than this (seconds since their last 2xx fetch) are fetched unconditionally and
  /// reprocessed; `nil` means always revalidate with conditional requests.
  public var maxAge: Double?
  /// The thumbnails made for card images and icons.
  public var variants: [ThumbnailVariant]
  /// Threads for decode/resize/encode work.
  public var cpuThreads: Int
  /// The deadline of one URL (`--timeout`): the network time its page fetch (redirects, retries and
  /// their waits included) and the image and icon candidates tried after it share. Queue time and
  /// the CPU time of decoding and resizing do not count. LinkPresentation's total, 30 s. Each fetch is
  /// also bounded by the fetcher's own `FetcherConfiguration.timeout`.
  public var timeout: Duration
  /// Which pages are rendered in headless Chromium before their card is made (`--render`,
  /// docs/rendering.md); `never` by default.
  public var render: RenderMode
  /// What rendering one page may cost (`--render-timeout` sets its deadline).
  public var renderBudget: RenderBudget
  /// Whether a page's declared oEmbed endpoint is fetched (`--oembed`; docs/metadata.md "oEmbed"),
  /// within the URL's `timeout`.
  public var oembed: OEmbedMode = .discovered

  /// A configuration; counts below 1 are raised to 1. The defaults are `thumbify crawl`'s.
  public init(
    concurrency: Int = 64, maxImageCandidates: Int = 3, maxIconCandidates: Int = 4, maxAge: Double? = nil,
    variants: [ThumbnailVariant] = ThumbnailVariant.defaults,
    cpuThreads: Int = ProcessInfo.processInfo.activeProcessorCount, timeout: Duration = .seconds(30),
    render: RenderMode = .never, renderBudget: RenderBudget = RenderBudget()
  ) {
    self.concurrency = max(1, concurrency)
    self.maxImageCandidates = max(1, maxImageCandidates)
    self.maxIconCandidates = max(1, maxIconCandidates)
    self.maxAge = maxAge
    self.variants = variants
    self.cpuThreads = max(1, cpuThreads)
    self.timeout = max(timeout, .zero)
    self.render = render
    self.renderBudget = renderBudget
  }

  /// The variants made from the card image.
  public var imageVariants: [ThumbnailVariant] { variants.filter { $0.role == .image } }
  /// The variants made from the icon.
  public var iconVariants: [ThumbnailVariant] { variants.filter { $0.role == .icon } }
}

extension CrawlConfiguration {
  /// Whether a page or image last fetched at `fetchedAt` may be revalidated with its
  /// validators at `now`; past `maxAge` (`--max-age`) it is fetched unconditionally.
  func mayRevalidate(fetchedAt: Double?, now: Double) -> Bool {
    guard let maxAge else { return true }
    guard let fetchedAt else { return false }
    return now - fetchedAt < maxAge
  }
}
