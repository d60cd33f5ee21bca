import Foundation
import Synchronization
import ThumbifySystem

/// Answers the link card of one URL on demand: what `thumbify serve` puts behind HTTP, for a Swift
/// server that embeds thumbify to use without it.
///
/// A card comes from, in order:
/// 1. the nightly crawl's output (`Configuration.cardsDirectory`, read only): its `cards/<key>.json`
///    as written, unless the crawl failed the URL. Cards read are kept in memory (an LRU) until the
///    crawl replaces its manifest;
/// 2. the service's own output directory (`Configuration.layout`): a URL fetched live before
///    (a failure is answered from there for `failureRetention`, then fetched again);
/// 3. a live fetch through the crawl's pipeline (`Crawler`: robots.txt, per-host politeness, the
///    SSRF guard, the timeout, rendering, the variants), stored in the output directory with the
///    crawl's layout (blobs, cards, state; `manifest.jsonl` rewritten a few seconds after changes
///    and when the service stops) so that the next night can take it in (`thumbify merge`).
///
/// Concurrent requests for one URL share one fetch (`KeyedTaskPool`); at most
/// `Configuration.maxLiveFetches` run at once, and none outlives its budget (`liveDeadline`).
/// The service holds the output directory's run lock while it lives: one writer per directory.
public final class CardService: Sendable {
  /// What the service reads, writes and allows.
  public struct Configuration: Sendable {
    /// Variants, `timeout` and rendering: a live fetch is a crawl of one URL with these.
    public var crawl: CrawlConfiguration
    /// The output directory live results go to, and its state directory.
    public var layout: OutputLayout
    /// A crawl's output directory to answer from first (read only), or `nil`.
    public var cardsDirectory: String?
    /// Live fetches (distinct URLs) at once; past it `card(for:)` throws `busy`.
    public var maxLiveFetches: Int
    /// How long a failed live fetch is answered from the output directory before it is tried again.
    public var failureRetention: Duration
    /// Cards kept in memory (each a few kilobytes).
    public var memoryCards: Int
    /// Whether URLs naming a private, loopback or reserved address literal are accepted (the fetcher's
    /// `allowsPrivateNetwork`; tests on loopback). Host names are checked by the fetcher on connect.
    public var allowsPrivateNetwork: Bool

    /// A configuration; `maxLiveFetches` and `memoryCards` are raised to their minimums (1 and 2).
    public init(
      crawl: CrawlConfiguration, layout: OutputLayout, cardsDirectory: String? = nil,
      maxLiveFetches: Int = 32,
      failureRetention: Duration = .seconds(600), memoryCards: Int = 20_000,
      allowsPrivateNetwork: Bool = false
    ) {
      self.crawl = crawl
      self.layout = layout
      self.cardsDirectory = cardsDirectory
      self.maxLiveFetches = max(1, maxLiveFetches)
      self.failureRetention = failureRetention
      self.memoryCards = max(2, memoryCards)
      self.allowsPrivateNetwork = allowsPrivateNetwork
    }
  }

  /// Where an answer came from.
  public enum Source: String, Sendable {
    /// The crawl's output (`cardsDirectory`).
    case cards
    /// The service's output directory: fetched live earlier.
    case stored
    /// Fetched live for this call (or for a call it joined).
    case live
  }

  /// A card: its file's bytes (`cards/<key>.json`, a newline included) and its `ETag`.
  public struct Answer: Sendable {
    /// The card's key: its file is `cards/<key>.json`.
    public var key: CardKey
    /// The card JSON (docs/cards.schema.json), a newline included.
    public var bytes: [UInt8]
    /// A strong entity tag of `bytes`, quoted.
    public var etag: String
    /// Where the answer came from.
    public var source: Source
    /// Set when the page failed and there is no earlier card (the card's `state` is `failed`).
    public var failure: RecordError?
  }

  private let configuration: Configuration
  private let crawler: Crawler
  private let state: StateStore
  private let run: Int64
  private let lock: RunLock
  private let journal: DecodeJournal
  private let render: RenderStep
  private let pool = KeyedTaskPool<Result<Answer, CardServiceError>>()
  private let live = Atomic<Int>(0)
  /// Cancels a live fetch at `liveDeadline`.
  private let deadlines = DeadlineWatch()
  private let crawlCards: LRUCache<CardKey, Answer>
  private let storedCards: LRUCache<CardKey, (answer: Answer, stored: Double)>
  /// The crawl manifest's identity when last looked at.
  private let crawlManifest = Mutex<[Int]>([])
  /// When the crawl's manifest is looked at next (monotonic nanoseconds): until then a hit reads one
  /// atomic, and then one caller looks while the others go on.
  private let nextManifestCheck = Atomic<Int>(0)
  /// Whether records were saved since the manifest was last written.
  private let isManifestStale = Atomic<Bool>(false)
  private let manifestLock = Mutex<Void>(())
  private let isStopped = Atomic<Bool>(false)

  /// A service over the given stages: in production a `CurlFetcher`, a `MetadataExtractor` and a
  /// `Thumbnailer` whose `BlobStore` is rooted at `configuration.layout.directory`.
  ///
  /// - Throws: `CardServiceError.storage` when the output directory is locked by another process or
  ///   its state cannot be opened.
  package convenience init(
    configuration: Configuration, fetcher: any Fetching, extractor: any MetadataExtracting,
    thumbnailer: any ThumbnailMaking
  ) throws(CardServiceError) {
    try self.init(
      configuration: configuration, fetcher: fetcher, extractor: extractor, thumbnailer: thumbnailer,
      renderer: nil)
  }

  /// A service whose pages are rendered by `renderer` (the CLI's Chromium, or a test double) when
  /// `configuration.crawl.render` asks; `nil` starts Chromium when a page first needs it.
  package init(
    configuration: Configuration, fetcher: any Fetching, extractor: any MetadataExtracting,
    thumbnailer: any ThumbnailMaking, renderer: (any PageRendering)?
  ) throws(CardServiceError) {
    self.configuration = configuration
    crawlCards = LRUCache(capacity: configuration.memoryCards)
    storedCards = LRUCache(capacity: configuration.memoryCards)
    let layout = configuration.layout
    do {
      try FileSystem.makeDirectories(layout.directory)
      try FileSystem.makeDirectories(layout.stateDirectory)
      lock = try RunLock(layout)
      FileSystem.removeStaleTemporaries(in: layout.directory)
      state = try StateStore(path: layout.stateDatabase, groupCommit: .crawl)
      run = try state.beginRun(options: configuration.crawl.variants.cacheKey).id
      journal = try DecodeJournal(path: layout.decodeJournal, state: state)
      try FileSystem.makeDirectories(layout.cards)
    } catch {
      throw .storage(error)
    }
    render =
      renderer.map { RenderStep(mode: configuration.crawl.render, renderer: .success($0)) }
      ?? RenderStep.chromium(
        mode: configuration.crawl.render, fetcher: fetcher, budget: configuration.crawl.renderBudget)
    crawler = Crawler(
      configuration: configuration.crawl, fetcher: fetcher, extractor: extractor, thumbnailer: thumbnailer,
      state: state, run: run, outputDirectory: layout.directory,
      cards: CardWriter(outputDirectory: layout.directory), decodeJournal: journal, stop: nil, render: render)
  }

  /// The most a live fetch takes: the URL's `timeout`, rendering's deadline when pages may be
  /// rendered, and 2 s for decoding, thumbnails and storing. Past it the fetch is cancelled.
  public var liveDeadline: Duration {
    configuration.crawl.timeout
      + (configuration.crawl.render == .never ? .zero : configuration.crawl.renderBudget.deadline)
      + .seconds(2)
  }

  /// Live fetches running now (distinct URLs).
  public var liveFetchesInFlight: Int { live.load(ordering: .relaxed) }

  /// The card of `url`, from the crawl's cards, the service's store, or a live fetch.
  ///
  /// A page that failed is an answer too (`Answer.failure`, its card's `state` `failed`), except when
  /// it failed because its address is private (`privateAddress`).
  ///
  /// - Throws: `CardServiceError`: the URL is invalid or names a private address, too many live
  ///   fetches run, the live fetch passed its deadline, the service is stopping, or the store failed.
  public func card(for url: String) async throws(CardServiceError) -> Answer {
    let (normalized, key) = try checked(url)
    if let answer = crawlCard(key) { return answer }
    if let answer = try storedCard(key) { return answer }
    return try await fetch(url: url, normalizedURL: normalized, key: key)
  }

  /// The card of `url` when it is known without fetching (the crawl's cards, the service's store),
  /// else nil: `card(for:)` without its live fetch, and without suspending (an HTTP server answers
  /// hits on its own thread this way and hands only misses to Swift concurrency).
  ///
  /// - Throws: `CardServiceError` for an invalid or private URL, or a store that failed.
  public func knownCard(for url: String) throws(CardServiceError) -> Answer? {
    let (_, key) = try checked(url)
    if let answer = crawlCard(key) { return answer }
    return try storedCard(key)
  }

  /// The normalized URL and its key; throws for an invalid URL or a private address literal.
  private func checked(_ url: String) throws(CardServiceError) -> (String, CardKey) {
    let normalized: String
    do {
      normalized = try URLNormalization.normalize(url)
    } catch {
      throw .invalidURL(FetchError(error))
    }
    if !configuration.allowsPrivateNetwork, let range = Self.reservedRange(ofLiteralHostIn: normalized) {
      throw .privateAddress(range)
    }
    return (normalized, CardKey(normalizedURL: normalized))
  }

  private func fetch(url: String, normalizedURL normalized: String, key: CardKey)
    async throws(CardServiceError)
    -> Answer
  {
    guard !isStopped.load(ordering: .relaxed) else { throw .stopping }
    return try await pool.value(for: normalized) {
      await self.fetchLive(url: url, normalizedURL: normalized, key: key)
    }.get()
  }

  /// Stops taking live fetches (`card(for:)` still answers what is stored), waits up to `grace` for
  /// those in flight, then writes the manifest, commits the state and marks the run finished.
  public func stop(grace: Duration) async throws(CardServiceError) {
    isStopped.store(true, ordering: .relaxed)
    let clock = ContinuousClock()
    let end = clock.now + grace
    while live.load(ordering: .relaxed) > 0, clock.now < end {
      try? await Task.sleep(for: .milliseconds(20))
    }
    try writeManifestIfNeeded(force: true)
    do {
      try state.flush()
      try state.finishRun(run)
    } catch {
      throw .storage(error)
    }
    render.shutdown()
  }

  /// Rewrites `manifest.jsonl` of the output directory from the state when records were saved since
  /// the last time (or always, with `force`): every URL the directory holds, in the order first seen.
  public func writeManifestIfNeeded(force: Bool = false) throws(CardServiceError) {
    guard isManifestStale.exchange(false, ordering: .relaxed) || force else { return }
    let layout = configuration.layout
    let state = state
    let failure = manifestLock.withLock { _ -> StoreError? in
      do {
        let writer = try ManifestWriter(path: layout.manifest)
        // Run -1 has no records: every page the state holds is handed over as unlisted.
        try state.forEachRecord(of: -1, isDistinct: true, keepingUnlisted: true, in: { nil }) { stored in
          try writer.append(encoded: stored.json)
        }
        try writer.commit()
        return nil
      } catch let error as StoreError {
        return error
      } catch {
        return .io(path: layout.manifest, operation: "write", message: "\(error)")
      }
    }
    if let failure {
      isManifestStale.store(true, ordering: .relaxed)
      throw .storage(failure)
    }
  }

  // MARK: - Sources

  private func crawlCard(_ key: CardKey) -> Answer? {
    guard let directory = configuration.cardsDirectory else { return nil }
    refreshCrawlCardsIfReplaced(directory)
    if let answer = crawlCards[key] { return answer }
    let path = OutputLayout.card(key, in: directory)
    guard let bytes = try? FileSystem.readFile(path, limit: 1 << 20),
      let card = try? JSONDecoder().decode(Card.self, from: Data(bytes)), card.state != .failed
    else { return nil }
    let answer = Answer(key: key, bytes: bytes, etag: Self.etag(bytes), source: .cards)
    crawlCards[key] = answer
    return answer
  }

  /// Forgets the crawl's cards held in memory when its manifest was replaced (looked at once a second).
  private func refreshCrawlCardsIfReplaced(_ directory: String) {
    let now = Self.monotonicNanoseconds()
    let next = nextManifestCheck.load(ordering: .relaxed)
    guard now >= next,
      nextManifestCheck.compareExchange(expected: next, desired: now + 1_000_000_000, ordering: .relaxed)
        .exchanged
    else { return }
    let isReplaced = crawlManifest.withLock { manifest -> Bool in
      var status = stat()
      let signature =
        stat(OutputLayout.manifest(in: directory), &status) == 0
        ? [
          Int(status.st_dev), Int(status.st_ino), Int(status.st_size), Int(status.st_mtim.tv_sec),
          Int(status.st_mtim.tv_nsec),
        ] : []
      defer { manifest = signature }
      return manifest != signature
    }
    if isReplaced { crawlCards.removeAll() }
  }

  private func storedCard(_ key: CardKey) throws(CardServiceError) -> Answer? {
    let now = Date().timeIntervalSince1970
    let retention = Double(configuration.failureRetention.components.seconds)
    if let entry = storedCards[key] {
      if entry.answer.failure == nil || now - entry.stored < retention { return entry.answer }
      return nil
    }
    let path = FilePath(configuration.layout.cards).appending(key.fileName).string
    guard let bytes = try? FileSystem.readFile(path, limit: 1 << 20),
      let card = try? JSONDecoder().decode(Card.self, from: Data(bytes))
    else { return nil }
    var status = stat()
    let modified = stat(path, &status) == 0 ? Double(status.st_mtim.tv_sec) : 0
    let failure =
      card.state == .failed
      ? card.error.map { RecordError(code: $0.code, message: $0.message, stage: $0.stage) } : nil
    if let failure, failure.code == FetchError.blockedPrivateAddress("").code {
      throw .privateAddress(failure.message)
    }
    let answer = Answer(key: key, bytes: bytes, etag: Self.etag(bytes), source: .stored, failure: failure)
    storedCards[key] = (answer, modified)
    if failure != nil, now - modified >= retention { return nil }
    return answer
  }

  private func fetchLive(url: String, normalizedURL: String, key: CardKey) async -> Result<
    Answer, CardServiceError
  > {
    let running = live.wrappingAdd(1, ordering: .relaxed).newValue
    defer { live.wrappingSubtract(1, ordering: .relaxed) }
    guard running <= configuration.maxLiveFetches else { return .failure(.busy) }
    let crawler = crawler
    let previous: StateStore.PageState
    do {
      previous = try state.page(normalizedURL)
    } catch {
      return .failure(.storage(error))
    }
    let deadline = liveDeadline
    let outcome = await deadlines.run(deadline: deadline) { () -> Result<CrawlRecord?, StoreError> in
      do throws(StoreError) {
        return .success(
          try await crawler.crawlPage(url: url, normalizedURL: normalizedURL, previous: previous))
      } catch {
        return .failure(error)
      }
    }
    let record: CrawlRecord
    switch outcome {
    case .none, .success(.none): return .failure(.timedOut(deadline))
    case .failure(let error): return .failure(.storage(error))
    case .success(.some(let made)): record = made
    }
    isManifestStale.store(true, ordering: .relaxed)
    if let error = crawler.cardError { return .failure(.storage(error)) }
    if record.outcome == .failed, let error = record.error,
      error.code == FetchError.blockedPrivateAddress("").code
    {
      return .failure(.privateAddress(error.message))
    }
    let bytes: [UInt8]
    do {
      bytes = try CardWriter.encodedCard(for: record, key: key)
    } catch {
      return .failure(.storage(error))
    }
    let failure = record.outcome == .failed ? record.error : nil
    // The encoder's buffer has room for 2 KB: an exact copy is what the cache keeps.
    var answer = Answer(
      key: key, bytes: Array(bytes[...]), etag: Self.etag(bytes), source: .stored, failure: failure)
    storedCards[key] = (answer, Date().timeIntervalSince1970)
    answer.source = .live
    return .success(answer)
  }

  // MARK: - Helpers

  /// `"<first 32 hex digits of SHA-256>"`.
  static func etag(_ bytes: [UInt8]) -> String {
    "\"" + SHA256Digest.hex(of: bytes).prefix(32) + "\""
  }

  /// The reserved range a normalized URL's host names when it is an address literal
  /// (`http://127.0.0.1/`, `http://[::1]/`; the normalization has turned `http://2130706433/` and
  /// `http://0x7f.1/` into `127.0.0.1`), else nil. Names are the fetcher's to check when it connects.
  static func reservedRange(ofLiteralHostIn normalizedURL: String) -> String? {
    guard let schemeEnd = normalizedURL.range(of: "://") else { return nil }
    var authority = normalizedURL[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
    let host: Substring
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return nil }
      host = authority[authority.index(after: authority.startIndex)..<close]
    } else {
      host = authority.prefix { $0 != ":" }
    }
    guard let address = IPAddress(String(host)) else { return nil }
    return SpecialAddressRanges.reservedRange(containing: address)
  }

  private static func monotonicNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
  }
}

/// Why `CardService` gave no card.
public enum CardServiceError: Error, Sendable, CustomStringConvertible {
  /// Not an http(s) URL.
  case invalidURL(FetchError)
  /// The URL names (or led to) a private, loopback or reserved address: the SSRF guard refused it.
  case privateAddress(String)
  /// Too many live fetches at once.
  case busy
  /// The live fetch passed its deadline and was cancelled.
  case timedOut(Duration)
  /// The service is stopping and takes no new live fetch.
  case stopping
  /// The output directory or its state failed.
  case storage(StoreError)
  /// The service's stages could not be made (libcurl, or a missing Chromium).
  case setup(CrawlJob.SetupError)

  /// A stable identifier, as `RecordError.code` (docs/errors.md).
  public var code: String {
    switch self {
    case .invalidURL(let error): error.code
    case .privateAddress: "blockedPrivateAddress"
    case .busy: "busy"
    case .timedOut: "timedOut"
    case .stopping: "stopping"
    case .storage(let error): error.code
    case .setup(let error): error.code
    }
  }

  public var description: String {
    switch self {
    case .invalidURL(let error): error.description
    case .privateAddress(let range):
      "The URL leads to a private or reserved address (\(range)); it is not fetched."
    case .busy: "Too many pages are being fetched at once; try again shortly."
    case .timedOut(let deadline): "The page was not ready within its deadline of \(deadline)."
    case .stopping: "The server is stopping."
    case .storage(let error): error.description
    case .setup(let error): error.description
    }
  }
}
