import Foundation
import Synchronization
import ThumbifySystem

/// The crawl pipeline as a library: URLs in, one `CrawlRecord` per URL out, streamed as each finishes.
///
/// `concurrency` workers pull URLs from the list one at a time (so nothing upstream grows), fetch the
/// page, extract its metadata, and get the card image's and icon's thumbnails through `ImageStage`
/// (one download per image URL in flight, one thumbnail per source hash and variant, CPU work on a
/// pool sized to the cores). Every result is written to the `StateStore` before it is reported, and
/// the state is flushed before `crawl` returns, so a run killed at any point resumes where it stopped
/// (with a batching store, less the last uncommitted batch: see `StateStore.GroupCommit`).
///
/// ```swift
/// let crawler = Crawler(configuration: .init(), fetcher: fetcher, extractor: extractor,
///                       thumbnailer: thumbnailer, state: state, run: run.id)
/// try await crawler.crawl(URLListReader(path: "urls.txt")) { event in print(event) }
/// ```
package final class Crawler: Sendable {
  /// What the crawl reports as it goes.
  package enum Event: Sendable {
    /// A URL's record. `isReused` is true when the record was already made by this run (a resumed run
    /// or a duplicate line) and no work was done.
    case record(line: Int, record: CrawlRecord, isReused: Bool)
    /// A line that is not a valid URL; it is skipped.
    case invalidLine(line: Int, text: String, error: FetchError)
    /// A line whose normalized URL is being crawled right now for an earlier line.
    case duplicate(line: Int, url: String)
  }

  let configuration: CrawlConfiguration
  let fetcher: any Fetching
  let extractor: any MetadataExtracting
  /// Renders the pages `configuration.render` says need it.
  let render: RenderStep
  /// Fetches the oEmbed endpoints of pages when `configuration.oembed` says so.
  let oembed: OEmbedStep
  let state: StateStore
  let run: Int64
  let images: ImageStage
  let clock: @Sendable () -> Double
  let cards: CardWriter?
  /// Ends the crawl early when asked (`CrawlStop`).
  let stop: CrawlStop?
  private let imageVariants: ImageStage.Variants
  private let iconVariants: ImageStage.Variants
  private let inFlight = Mutex<Set<String>>([])
  private let firstCardError = Mutex<StoreError?>(nil)
  /// The previous night's merged directory (`crawl --baseline`), whose blobs a record taken from it
  /// names: brought into the output directory when such a record is kept (304, stale).
  private let baseline: (directory: String, blobs: BlobUnion)?

  /// - Parameters:
  ///   - configuration: variants, limits and the per-URL deadline.
  ///   - fetcher: fetches pages and images.
  ///   - extractor: reads a page's metadata.
  ///   - thumbnailer: makes and stores the thumbnails.
  ///   - state: the state database the records are saved in.
  ///   - run: the run (`StateStore.beginRun`) the records belong to.
  ///   - outputDirectory: the directory the blob paths are relative to.
  ///   - cards: when given, each record's card file is written as soon as the record is saved
  ///     (a card that cannot be written is kept in `cardError` and no more cards are written).
  ///   - decodeJournal: when given, every decode is journaled and its poisoned sources are skipped
  ///     (`crashedDecoder`).
  ///   - stop: when it is asked to stop, no new URL is taken, and when it stops at once, the work in
  ///     flight is cancelled: not saved, but for the pages already fetched and read, which are saved
  ///     `incomplete` (see `crawl`). Without a stop a cancelled page is never saved.
  ///   - clock: seconds since 1970, for the records' fetch times (tests pin it).
  package convenience init(
    configuration: CrawlConfiguration, fetcher: any Fetching, extractor: any MetadataExtracting,
    thumbnailer: any ThumbnailMaking, state: StateStore, run: Int64, outputDirectory: String,
    cards: CardWriter? = nil, decodeJournal: DecodeJournal? = nil, stop: CrawlStop? = nil,
    clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
  ) {
    self.init(
      configuration: configuration, fetcher: fetcher, extractor: extractor, thumbnailer: thumbnailer,
      state: state, run: run, outputDirectory: outputDirectory, cards: cards, decodeJournal: decodeJournal,
      stop: stop, render: .never, clock: clock)
  }

  /// A crawler whose pages go through `render` (`CrawlJob` makes it from `configuration.render`).
  package init(
    configuration: CrawlConfiguration, fetcher: any Fetching, extractor: any MetadataExtracting,
    thumbnailer: any ThumbnailMaking, state: StateStore, run: Int64, outputDirectory: String,
    cards: CardWriter? = nil, decodeJournal: DecodeJournal? = nil, stop: CrawlStop? = nil,
    render: RenderStep, baseline: String? = nil,
    clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
  ) {
    self.render = render
    self.oembed = OEmbedStep(mode: configuration.oembed, fetcher: fetcher)
    self.baseline = baseline.map { (directory: $0, blobs: BlobUnion(target: outputDirectory)) }
    self.cards = cards
    self.stop = stop
    self.configuration = configuration
    self.fetcher = fetcher
    self.extractor = extractor
    self.state = state
    self.run = run
    self.clock = clock
    imageVariants = ImageStage.Variants(configuration.imageVariants)
    iconVariants = ImageStage.Variants(configuration.iconVariants)
    images = ImageStage(
      configuration: configuration, fetcher: fetcher, thumbnailer: thumbnailer, state: state, run: run,
      outputDirectory: outputDirectory, journal: decodeJournal, baseline: baseline, clock: clock)
  }

  /// Crawls every URL of `list`, calling `onEvent` (awaited: a slow consumer slows the crawl) per line.
  ///
  /// Then flushes the state (`StateStore.flush()`): when it returns, every record is committed.
  ///
  /// When `stop` asks, the workers take no new URL and `crawl` returns once the pages in flight are
  /// done; when it stops at once, they are cancelled: a page cancelled before its own fetch ended is
  /// not saved at all (nor are its cancelled image fetches), and one fetched and read is saved with
  /// the parts it lacks in `incomplete`, which the resumed run completes.
  ///
  /// - Throws: `StoreError` when the state database fails, or when the list cannot be read to its end
  ///   (after the flush: what was crawled stays; the caller must not write a manifest of part of the
  ///   list); the crawl stops (what was committed stays).
  package func crawl(_ list: URLListReader, onEvent: @escaping @Sendable (Event) async -> Void)
    async throws(StoreError)
  {
    let source = ListCursor(list)
    let stop = stop
    do {
      // Child tasks return true for a worker, false for the stop watcher.
      try await withThrowingTaskGroup(of: Bool.self) { group in
        for _ in 0..<configuration.concurrency {
          group.addTask {
            while !Task.isCancelled, stop?.isStopping != true, let entry = source.next() {
              try await self.handle(entry, onEvent: onEvent)
            }
            return true
          }
        }
        if let stop {
          group.addTask {
            await stop.waitUntilImmediate()
            return false
          }
        }
        var workers = configuration.concurrency
        while let isWorker = try await group.next() {
          if isWorker { workers -= 1 }
          // The watcher returned: stop at once. Or every worker is done: end the watcher.
          if !isWorker || workers == 0 { group.cancelAll() }
        }
      }
    } catch let error as StoreError {
      throw error
    } catch {
      // Cancelled: what was finished is committed all the same.
    }
    try state.flush()
    if let error = source.error { throw error }
  }

  private func handle(_ entry: URLListReader.Entry, onEvent: @Sendable (Event) async -> Void)
    async throws(StoreError)
  {
    switch entry {
    case .invalid(let line, let text, let error):
      await onEvent(.invalidLine(line: line, text: text, error: error))
    case .url(let line, let url, let normalized):
      let isNew = inFlight.withLock { $0.insert(normalized).inserted }
      guard isNew else {
        await onEvent(.duplicate(line: line, url: url))
        return
      }
      defer { _ = inFlight.withLock { $0.remove(normalized) } }
      let previous = try state.page(normalized)
      if previous.run == run, let current = previous.current {
        // Done by an interrupted attempt of this run; one left incomplete by its stop is completed
        // (its page is not fetched again, unless a render was cut short).
        if current.incomplete == nil {
          await onEvent(.record(line: line, record: current, isReused: true))
          return
        }
        if let completed = try await completePage(current, priority: line) {
          await onEvent(.record(line: line, record: completed, isReused: true))
          return
        }
      }
      guard
        let record = try await crawlPage(
          url: url, normalizedURL: normalized, previous: previous, priority: line)
      else { return }  // cancelled: not saved, the resumed run does it
      await onEvent(.record(line: line, record: record, isReused: false))
    }
  }

  /// Fetches one page (conditionally when a fresh good record exists) and makes its record; nil when
  /// the crawl was cancelled before the record was saved (nothing is saved then).
  ///
  /// `priority` places the page's fetch in its host's queue (its line number: a host's pages go in
  /// list order), and its images' (`imagePriority(ofPage:)`).
  func crawlPage(
    url: String, normalizedURL: String, previous: StateStore.PageState, priority: Int = 0
  ) async throws(StoreError) -> CrawlRecord? {
    let now = clock()
    var budget = NetworkBudget(total: configuration.timeout)
    var request = FetchRequest(url: normalizedURL, kind: .page, timeout: budget.remaining, priority: priority)
    if previous.good != nil, configuration.mayRevalidate(fetchedAt: previous.fetchedAt, now: now) {
      request.etag = previous.etag
      request.lastModified = previous.lastModified
    }
    let fetched = await fetcher.measuredFetch(request)
    budget.charge(fetched.networkTime)
    // A cancelled fetch, or one the stop kept from being sent, says nothing about the page: keep its
    // last record, save nothing (the resumed run fetches it).
    if Task.isCancelled || fetched.result.isStopped { return nil }
    let response: FetchResponse
    do {
      response = try fetched.result.get()
    } catch {
      // 404 and 410 say the page is gone; `--drop-gone-after` drops it once it has said so long enough.
      let isGone = error == .httpStatus(404) || error == .httpStatus(410)
      return try saveFailure(
        RecordError(code: error.code, message: error.description, stage: "fetch"), url: url,
        normalizedURL: normalizedURL, previous: previous, goneAt: isGone ? now : nil)
    }
    if response.isNotModified {
      guard var record = previous.good else {
        let error = RecordError(
          code: "httpStatus", message: "The server answered 304 Not Modified to an unconditional request.",
          stage: "fetch")
        return try saveFailure(error, url: url, normalizedURL: normalizedURL, previous: previous)
      }
      try bringBaselineBlobs(of: record)
      record.originalURL = url
      record.outcome = .notModified
      record.error = nil
      record.fetch?.status = response.status
      try save(
        normalizedURL, record: record, run: run, isGood: true, etag: response.etag ?? previous.etag,
        lastModified: response.lastModified ?? previous.lastModified, fetchedAt: previous.fetchedAt)
      return record
    }
    let rendering = await render.apply(
      to: extractor.extract(
        html: response.body, pageURL: response.finalURL, contentType: response.contentType,
        lastModified: response.lastModified),
      of: response, url: normalizedURL, extractor: extractor)
    // From here on the page was fetched and read: a stop (the first signal, which sends no new request,
    // or the second, which cancels what is in flight) leaves the parts not done `incomplete`, and the
    // record is saved all the same (never as the last good one), so that the pages fetched are kept.
    // A crawler without a stop (`thumbify serve`'s live fetch, cancelled at its deadline) saves nothing
    // of a cancelled page, as before.
    let isCancelledUnsaved = { self.stop == nil && Task.isCancelled }
    if isCancelledUnsaved() { return nil }
    var parts = Parts()
    // A render cut short needs the page again: the resumed run fetches it (`completePage`).
    let renderError = parts.unless(Task.isCancelled && rendering.error != nil, "render", rendering.error)
    let needsRendering =
      render.mode == .never && RenderRule.needsRendering(rendering.metadata, html: response.body)
    let embedding = await oembed.apply(
      to: rendering.metadata, timeout: budget.remaining, priority: Self.imagePriority(ofPage: priority))
    budget.charge(embedding.networkTime)
    if isCancelledUnsaved() { return nil }
    let metadata = embedding.metadata
    let facts = FetchFacts(response, fetchedAt: Timestamp.iso8601(now))
    let (imageResult, iconResult) = await thumbnails(
      images: imageCandidates(metadata), icons: iconCandidates(metadata, pageURL: response.finalURL),
      budget: budget, priority: Self.imagePriority(ofPage: priority))
    if isCancelledUnsaved() { return nil }  // its images may have been cancelled, not failed
    var record = CrawlRecord(
      originalURL: url, normalizedURL: normalizedURL, outcome: .ok, fetch: facts, metadata: metadata,
      image: imageResult.set, icon: iconResult.set,
      render: rendering.facts, renderError: renderError,
      needsRendering: needsRendering ? true : nil)
    record.oembedError = parts.unlessStopped("oembed", embedding.error)
    record.imageError = parts.unlessStopped("image", imageResult.error)
    record.iconError = parts.unlessStopped("icon", iconResult.error)
    record.incomplete = parts.missing
    try save(
      normalizedURL, record: record, run: run, isGood: parts.missing == nil, etag: response.etag,
      lastModified: response.lastModified, fetchedAt: now, isNew: previous.isEmpty)
    return record
  }

  /// Where a page's images go in their host's queue: before every page (a started page's images go
  /// before pages not yet started), in the order of their pages. Not just the page's own line: a
  /// favicon shared by a host's pages is fetched once, under the priority of the page that asked
  /// first, which would hold it behind the pages listed before that one.
  static func imagePriority(ofPage priority: Int) -> Int { priority - Int.max / 2 }

  /// The card image's and the icon's thumbnails, made in parallel when both need work. Most pages
  /// share images met before, whose results are in memory: those are taken without a child task.
  /// Each of the two gets what the page fetch left of the URL's `budget`.
  func thumbnails(
    images imageURLs: [String], icons iconURLs: [String], budget: NetworkBudget, priority: Int
  )
    async -> (
      image: ImageStage.Outcome, icon: ImageStage.Outcome
    )
  {
    let knownImage = images.knownThumbnails(candidates: imageURLs, variants: imageVariants)
    let knownIcon = images.knownThumbnails(candidates: iconURLs, variants: iconVariants)
    switch (knownImage, knownIcon) {
    case (let image?, let icon?):
      return (image, icon)
    case (let image?, nil):
      return (
        image,
        await images.thumbnails(
          candidates: iconURLs, variants: iconVariants, budget: budget, priority: priority)
      )
    case (nil, let icon?):
      return (
        await images.thumbnails(
          candidates: imageURLs, variants: imageVariants, budget: budget, priority: priority), icon
      )
    case (nil, nil):
      async let image = images.thumbnails(
        candidates: imageURLs, variants: imageVariants, budget: budget, priority: priority)
      let icon = await images.thumbnails(
        candidates: iconURLs, variants: iconVariants, budget: budget, priority: priority)
      return (await image, icon)
    }
  }

  /// Saves a record, then writes its card file when the crawler has `cards`; `isNew` when the state had
  /// no record of the URL (so no card was written for it: `CardWriter.write(encoded:key:isNew:)`).
  func save(
    _ url: String, record: CrawlRecord, run: Int64, isGood: Bool, etag: String?, lastModified: String?,
    fetchedAt: Double?, isNew: Bool = false, goneAt: Double? = nil
  ) throws(StoreError) {
    try state.savePage(
      url, record: record, run: run, isGood: isGood, etag: etag, lastModified: lastModified,
      fetchedAt: fetchedAt, goneAt: goneAt)
    guard let cards, firstCardError.withLock({ $0 }) == nil else { return }
    do throws(StoreError) {
      let key = CardKey(normalizedURL: url)  // url is record.normalizedURL
      _ = try cards.write(encoded: try CardWriter.encodedCard(for: record, key: key), key: key, isNew: isNew)
    } catch {
      firstCardError.withLock { $0 = $0 ?? error }
    }
  }

  /// Brings the blobs `record` names that the output directory lacks from the baseline (a record the
  /// state took from it names the baseline's blobs); nothing without a baseline.
  func bringBaselineBlobs(of record: CrawlRecord) throws(StoreError) {
    guard let baseline else { return }
    for path in record.blobPaths { try baseline.blobs.bring(path, from: baseline.directory) }
  }

  /// The first card file that could not be written (the crawl goes on; its caller fails the run).
  package var cardError: StoreError? { firstCardError.withLock { $0 } }

  /// A failed fetch keeps the last good card, marked stale; without one, the record is `failed`.
  private func saveFailure(
    _ error: RecordError, url: String, normalizedURL: String, previous: StateStore.PageState,
    goneAt: Double? = nil
  ) throws(StoreError) -> CrawlRecord {
    var record: CrawlRecord
    if var good = previous.good {
      try bringBaselineBlobs(of: good)
      good.originalURL = url
      good.outcome = .stale
      good.error = error
      record = good
    } else {
      record = CrawlRecord(originalURL: url, normalizedURL: normalizedURL, outcome: .failed, error: error)
    }
    record.schema = CrawlRecord.schemaVersion
    try save(
      normalizedURL, record: record, run: run, isGood: false, etag: nil, lastModified: nil, fetchedAt: nil,
      isNew: previous.isEmpty, goneAt: goneAt)
    return record
  }

  func imageCandidates(_ metadata: PageMetadata) -> [String] {
    var urls = (metadata.images ?? []).map(\.url)
    if let image = metadata.image, !urls.contains(image.url) { urls.insert(image.url, at: 0) }
    return Array(urls.prefix(configuration.maxImageCandidates))
  }

  /// The extractor's icons, best first, with `/favicon.ico` among those tried: where the extractor
  /// ranked it when that is within `maxIconCandidates`, else as the last one (a page listing many icons
  /// that all fail still gets the site's favicon).
  func iconCandidates(_ metadata: PageMetadata, pageURL: String) -> [String] {
    guard !iconVariants.list.isEmpty else { return [] }
    let limit = configuration.maxIconCandidates
    var urls = (metadata.icons ?? []).map(\.url)
    if let icon = metadata.icon, !urls.contains(icon.url) { urls.insert(icon.url, at: 0) }
    if let favicon = Self.faviconURL(for: pageURL), !urls.prefix(limit).contains(favicon) {
      urls.removeAll { $0 == favicon }
      urls = Array(urls.prefix(limit - 1))
      urls.append(favicon)
    }
    return Array(urls.prefix(limit))
  }

  /// `scheme://host[:port]/favicon.ico` for a page URL: the extractor's `WebURL.faviconURL`, read
  /// from the normalized URL's bytes (which share WebURL's host and port rules, `WebURLHost`). Parsing
  /// each page URL again with WebURL was 0.8 % of a crawl's CPU; most are normal already.
  static func faviconURL(for pageURL: String) -> String? {
    guard let normalized = try? URLNormalization.normalize(pageURL) else { return nil }
    let bytes = normalized.utf8
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8)
    else { return nil }
    let authorityStart = bytes.index(colon, offsetBy: 3)
    let authorityEnd =
      bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
      ?? bytes.endIndex
    // The origin has no user info.
    let hostStart =
      bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")).map { bytes.index(after: $0) }
      ?? authorityStart
    return String(normalized[..<authorityStart]) + String(normalized[hostStart..<authorityEnd])
      + "/favicon.ico"
  }
}

extension Result where Failure == FetchError {
  /// Whether the fetch was not sent because the crawl stopped (`FetchError.stopped`).
  var isStopped: Bool {
    if case .failure(.stopped) = self { return true }
    return false
  }
}

/// The URL list behind a Mutex, read by one worker at a time; a read error ends it and is kept.
final class ListCursor: Sendable {
  private let list: Mutex<(reader: URLListReader, error: StoreError?)>
  init(_ list: URLListReader) { self.list = Mutex((list, nil)) }

  func next() -> URLListReader.Entry? {
    list.withLock { list -> URLListReader.Entry? in
      guard list.error == nil else { return nil }
      do throws(StoreError) {
        return try list.reader.next()
      } catch {
        list.error = error
        return nil
      }
    }
  }

  /// Why the list ended early, if it did.
  var error: StoreError? { list.withLock { $0.error } }
}
