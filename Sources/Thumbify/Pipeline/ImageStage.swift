import Foundation

/// Turns image URLs into stored thumbnails, doing each piece of identical work once.
///
/// - One download per image URL in flight (`KeyedTaskPool`), and one per run: a URL fetched earlier
///   in the run is answered from memory (`results`, an LRU) or from the state database.
/// - One thumbnail set per (source bytes SHA-256, variants): the same bytes under another URL, or the
///   same URL in a later run answering 200 with unchanged bytes, reuse the stored thumbnails.
/// - Across runs, image requests are conditional; a 304 reuses the thumbnails without image work.
/// - Decode/resize/encode run on the `CPUPool`, never on the caller's task.
/// - A page's candidates share what is left of its URL's `NetworkBudget`. A download runs under the
///   budget of the page that starts it; a page that joins it in flight is charged the network time it
///   used, and its result (a timeout too) is the image's result for the run, whichever page asks.
final class ImageStage: Sendable {
  /// The outcome for one list of candidates: the first that worked, or the last error.
  struct Outcome: Sendable {
    var set: ThumbnailSet?
    var error: RecordError?
  }

  private let configuration: CrawlConfiguration
  private let fetcher: any Fetching
  private let thumbnailer: any ThumbnailMaking
  private let state: StateStore
  private let run: Int64
  private let outputDirectory: String
  private let clock: @Sendable () -> Double
  private let downloads = KeyedTaskPool<Download>()
  private let renders = KeyedTaskPool<Result<ThumbnailSet, RecordError>>()
  private let results = LRUCache<String, Result<ThumbnailSet, RecordError>>(capacity: 4096)
  private let cpu: CPUPool
  private let journal: DecodeJournal?
  /// The previous night's merged directory (`crawl --baseline`): a known thumbnail set whose blobs
  /// the output directory lacks takes them from there.
  private let baseline: String?

  init(
    configuration: CrawlConfiguration, fetcher: any Fetching, thumbnailer: any ThumbnailMaking,
    state: StateStore, run: Int64, outputDirectory: String, journal: DecodeJournal? = nil,
    baseline: String? = nil, clock: @escaping @Sendable () -> Double
  ) {
    self.baseline = baseline
    self.journal = journal
    self.configuration = configuration
    self.fetcher = fetcher
    self.thumbnailer = thumbnailer
    self.state = state
    self.run = run
    self.outputDirectory = outputDirectory
    self.clock = clock
    cpu = CPUPool(width: configuration.cpuThreads)
  }

  /// A list of variants with its cache key, made once per crawl (not once per page and candidate).
  struct Variants: Sendable {
    let list: [ThumbnailVariant]
    /// `list.cacheKey`
    let key: String
    /// The record's `stage` for errors of these variants.
    let stage: String

    init(_ list: [ThumbnailVariant]) {
      self.list = list
      key = list.cacheKey
      stage = list.first?.role.rawValue ?? "image"
    }
  }

  /// One image URL's result and the network time its fetch used (zero when no fetch was made).
  struct Download: Sendable {
    var result: Result<ThumbnailSet, RecordError>
    var networkTime: Duration = .zero
  }

  /// Tries `candidates` in order and returns the first that gives thumbnails; a candidate met when
  /// `budget` is used up is not fetched, nor are the rest (the outcome is then `timedOut`).
  ///
  /// `priority` places its fetches in their host's queue (`FetchRequest.priority`): the page's.
  func thumbnails(candidates: [String], variants: Variants, budget: NetworkBudget, priority: Int = 0)
    async -> Outcome
  {
    guard !variants.list.isEmpty else { return Outcome() }
    var budget = budget
    var lastError: RecordError?
    for (index, candidate) in candidates.enumerated() {
      guard !budget.isUsedUp else {
        let untried = candidates.count - index
        return Outcome(
          error: budget.usedUpError(untried: untried, stage: variants.stage, lastError: lastError))
      }
      let download = await thumbnails(
        for: candidate, variants: variants, timeout: budget.remaining, priority: priority)
      budget.charge(download.networkTime)
      switch download.result {
      case .success(let set): return Outcome(set: set)
      case .failure(let error) where Self.isStop(error):
        // A stop's: the candidate was not tried, and a later one is not the card's picture (the
        // crawler marks the part incomplete).
        return Outcome(error: error)
      case .failure(let error):
        lastError = error
        // It was given what was left and ran out of it, whatever it measured: curl's timer and the
        // fetcher's clock do not start at the same instant, and a loaded machine once left a few
        // milliseconds "unused", in which the next candidate was fetched.
        if error.code == FetchError.timedOut("").code { budget.charge(budget.remaining) }
      }
    }
    return Outcome(error: lastError)
  }

  /// Whether `error` says a stop kept the image from being fetched or made (`stopped`, `cancelled`),
  /// not that the image failed.
  static func isStop(_ error: RecordError) -> Bool {
    error.code == FetchError.stopped.code || error.code == FetchError.cancelled.code
  }

  /// What `thumbnails(candidates:variants:)` returns, when every candidate it would try has its result
  /// in memory already (most pages: a site-wide og:image and favicon met before); nil when one needs work.
  /// A page whose images are all known then needs no child task to wait for them.
  func knownThumbnails(candidates: [String], variants: Variants) -> Outcome? {
    guard !variants.list.isEmpty else { return Outcome() }
    var lastError: RecordError?
    for candidate in candidates {
      let known: Result<ThumbnailSet, RecordError>
      switch key(of: candidate, variants: variants) {
      case .success(let key):
        guard let result = results[key.cacheKey] else { return nil }
        known = result
      case .failure(let error): known = .failure(error)
      }
      switch known {
      case .success(let set): return Outcome(set: set)
      case .failure(let error) where Self.isStop(error): return Outcome(error: error)
      case .failure(let error): lastError = error
      }
    }
    return Outcome(error: lastError)
  }

  /// The thumbnails of one image URL, coalesced with any identical request in flight; a download
  /// this call starts is fetched within `timeout`.
  func thumbnails(for url: String, variants: Variants, timeout: Duration, priority: Int = 0) async
    -> Download
  {
    let key: (normalizedURL: String, cacheKey: String)
    switch self.key(of: url, variants: variants) {
    case .success(let found): key = found
    case .failure(let error): return Download(result: .failure(error))
    }
    if let cached = results[key.cacheKey] { return Download(result: cached) }
    let download = await downloads.value(for: key.cacheKey) {
      await self.load(key.normalizedURL, variants: variants, timeout: timeout, priority: priority)
    }
    results[key.cacheKey] = download.result
    return download
  }

  /// The normalized image URL and the key its result is cached and coalesced under.
  private func key(of url: String, variants: Variants) -> Result<
    (normalizedURL: String, cacheKey: String), RecordError
  > {
    do {
      let normalized = try URLNormalization.normalize(url)
      return .success((normalized, variants.key + " " + normalized))
    } catch {
      let error = FetchError(error)
      return .failure(RecordError(code: error.code, message: error.description, stage: variants.stage))
    }
  }

  private func load(_ url: String, variants: Variants, timeout: Duration, priority: Int) async -> Download {
    var networkTime: Duration = .zero
    do {
      let set = try await loadThrowing(
        url, variants: variants, timeout: timeout, priority: priority, networkTime: &networkTime)
      return Download(result: .success(set), networkTime: networkTime)
    } catch {
      return Download(result: .failure(error), networkTime: networkTime)
    }
  }

  /// Adds the network time of the fetch it makes, if any, to `networkTime`.
  private func loadThrowing(
    _ url: String, variants: Variants, timeout: Duration, priority: Int, networkTime: inout Duration
  ) async throws(RecordError) -> ThumbnailSet {
    let stage = variants.stage
    let variantsKey = variants.key
    let previous = try wrap(try state.image(url), stage: stage)
    let known = try previous.sourceSHA256.flatMap { sha throws(RecordError) in
      try wrap(try state.thumbnails(sourceSHA256: sha, variants: variantsKey), stage: stage)
    }.flatMap { blobsExist($0) ? $0 : nil }
    if previous.run == run {
      if let error = previous.error { throw error }
      if let known { return relabel(known, source: url) }
    }
    let now = clock()
    var request = FetchRequest(url: url, kind: .image, timeout: timeout, priority: priority)
    if known != nil, configuration.mayRevalidate(fetchedAt: previous.fetchedAt, now: now) {
      request.etag = previous.etag
      request.lastModified = previous.lastModified
    }
    let fetched = await fetcher.measuredFetch(request)
    networkTime += fetched.networkTime
    let response: FetchResponse
    do {
      response = try fetched.result.get()
    } catch {
      let failure = RecordError(code: error.code, message: error.description, stage: stage)
      // Cancelled (a crawl stopped at once), or not sent (a crawl stopping): nothing is known about
      // the image; the resumed run, which has this run's id, must fetch it rather than take a failure
      // from the state.
      if error == .cancelled || error == .stopped { throw failure }
      var failed = previous
      failed.run = run
      failed.error = failure
      try wrap(try state.saveImage(url, state: failed), stage: stage)
      throw failure
    }
    if response.isNotModified, let known {
      var kept = previous
      kept.run = run
      kept.error = nil
      try wrap(try state.saveImage(url, state: kept), stage: stage)
      return relabel(known, source: url)
    }
    let sha = SHA256Digest.hex(of: response.body)
    let result = await renders.value(for: variantsKey + " " + sha) {
      await self.render(response.body, sha: sha, source: url, variants: variants)
    }
    var saved = StateStore.ImageState(
      etag: response.etag, lastModified: response.lastModified, sourceSHA256: sha, run: run, fetchedAt: now)
    if case .failure(let error) = result {
      if error.code == "cancelled" { throw error }  // the image work was cancelled: as above
      saved.error = error
    }
    try wrap(try state.saveImage(url, state: saved), stage: stage)
    return try relabel(result.get(), source: url)
  }

  /// Makes (or finds) the thumbnails of one source's bytes; blobs are on disk before the state names them.
  private func render(_ bytes: [UInt8], sha: String, source: String, variants: Variants) async -> Result<
    ThumbnailSet, RecordError
  > {
    let stage = variants.stage
    let variantsKey = variants.key
    do throws(RecordError) {
      if let known = try wrap(try state.thumbnails(sourceSHA256: sha, variants: variantsKey), stage: stage),
        blobsExist(known)
      {
        return .success(known)
      }
      let thumbnailer = self.thumbnailer
      let journal = self.journal
      if let journal, journal.isPoisoned(sha, url: source) {
        throw RecordError(
          code: "crashedDecoder",
          message:
            "An earlier run died while decoding this image (SHA-256 \(sha.prefix(16))…); it is skipped "
            + "until its bytes or thumbify's version change.",
          stage: stage)
      }
      let set: ThumbnailSet
      do {
        set = try await cpu.run { () throws(ThumbnailError) -> ThumbnailSet in
          guard let journal else {
            return try thumbnailer.thumbnails(of: bytes, source: source, variants: variants.list)
          }
          return try journal.decoding(sha: sha, url: source) { () throws(ThumbnailError) -> ThumbnailSet in
            TestHooks.crashIfAsked(decoding: source)
            return try thumbnailer.thumbnails(of: bytes, source: source, variants: variants.list)
          }
        }
      } catch let error as ThumbnailError {
        throw RecordError(code: error.code, message: error.description, stage: stage)
      } catch {
        throw RecordError(code: "cancelled", message: "The image work was cancelled.", stage: stage)
      }
      try wrap(try state.saveThumbnails(set, sourceSHA256: sha, variants: variantsKey), stage: stage)
      return .success(set)
    } catch {
      return .failure(error)
    }
  }

  private func relabel(_ set: ThumbnailSet, source: String) -> ThumbnailSet {
    var set = set
    set.source = source
    return set
  }

  private func blobsExist(_ set: ThumbnailSet) -> Bool {
    guard let baseline else {
      return set.variants.allSatisfy {
        access(OutputLayout.path($0.path, in: outputDirectory), F_OK) == 0
      }
    }
    // A set the state took from the baseline names the baseline's blobs: bring the missing ones,
    // durably before a manifest names them (a blob that cannot be brought is made again, as when it
    // was collected). `bring` finds a present blob with the one `access` the check above makes.
    let blobs = BlobUnion(target: outputDirectory)
    return set.variants.allSatisfy { variant in
      guard let counts = try? blobs.bring(variant.path, from: baseline), (try? blobs.sync(counts)) != nil
      else { return false }
      return counts.present + counts.linked + counts.copied == 1
    }
  }

  private func wrap<T>(_ body: @autoclosure () throws(StoreError) -> T, stage: String) throws(RecordError)
    -> T
  {
    do {
      return try body()
    } catch {
      throw RecordError(code: "stateFailed", message: error.description, stage: stage)
    }
  }
}
