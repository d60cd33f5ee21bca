import Foundation
import Synchronization
import ThumbifyStore

/// A whole crawl into an output directory: lock, state, resume, crawl, atomic manifest.
///
/// 1. Takes `<state>/lock` (another live run → `StoreError.locked`; `OutputLayout`).
/// 2. Opens `<state>/state.sqlite` and begins a run — or resumes the last one when it was
///    killed before finishing with the same variants, skipping the URLs it already finished.
/// 3. Crawls the list with `Crawler`, saving each record as it is made (group commit,
///    `StateStore.GroupCommit.crawl`: a kill loses at most the last batch, which the resumed run redoes).
/// 4. Reads the list a second time and writes `manifest.jsonl` (one record per distinct URL, in input
///    order, then the last records of the URLs the state knows that this list does not name) to a
///    temp file, fsyncs it and renames it into place; then marks the run finished.
///    The per-URL card files (`cards/<key>.json`, `CardWriter`) are written by the crawl's workers as
///    each record is saved (by the manifest pass when the run resumes). Nothing is deleted silently:
///    the cards and records of URLs missing from the list are kept, unless `pruning` is given; then
///    they are removed (cards, manifest records and state rows), provided they are no more than
///    `Pruning.limit` of the URLs known (`StoreError.pruneRefused` otherwise, before anything is
///    replaced or removed).
///
/// Memory is bounded by the configuration's concurrency, never by the length of the list.
///
/// `stop(cancellingAfter:)` (a signal handler's, a server's) ends a run early: no new URL is taken,
/// what is in flight finishes or is cancelled after the grace period, the finished records are
/// committed, the manifest lists what is known (this run's records, and for the URLs it did not reach
/// their last good records from earlier runs), stale cards are not swept, and the run is left
/// unfinished, so the next run resumes it and does only the rest (`Summary.isInterrupted`).
public final class CrawlJob: Sendable {
  /// The counts a crawl ends with.
  public struct Summary: Sendable, Equatable {
    /// Records by outcome: `ok`, `notModified`, `failed`, `stale`.
    public var outcomes: [CrawlOutcome: Int] = [:]
    /// Lines that were not valid URLs (skipped).
    public var invalidLines = 0
    /// Lines repeating a URL already listed.
    public var duplicates = 0
    /// Records reused from an interrupted attempt of this run.
    public var reused = 0
    /// Records whose page succeeded but whose image or icon failed.
    public var imageFailures = 0
    /// Records of pages that look like app shells and were not rendered (`CrawlRecord.needsRendering`):
    /// `--render auto` would render them.
    public var needsRendering = 0
    /// Records of pages fetched and read whose card a stop left incomplete (`CrawlRecord.incomplete`):
    /// the next run completes them.
    public var incomplete = 0
    /// Records in the manifest.
    public var records = 0
    /// The run's wall-clock time.
    public var seconds: Double = 0
    /// True when the run resumed an interrupted one.
    public var isResumed = false
    /// Image URLs not decoded because an earlier run died decoding their bytes (`crashedDecoder`).
    public var crashedDecoderSkips: [String] = []
    /// True when the run was stopped (`CrawlJob.stop`) before the end of its list: it is left
    /// unfinished, and the next run resumes it.
    public var isInterrupted = false
    /// In a stopped run, the listed URLs it did not reach whose last good record from an earlier run is
    /// in the manifest (not counted in `outcomes`).
    public var keptFromEarlierRuns = 0
    /// URLs missing from this run's list whose records (from earlier runs) the manifest kept.
    public var kept = 0
    /// URLs missing from this run's list that were removed (`Pruning`), and the first
    /// `CrawlReport.maxListed` of them.
    public var pruned = 0
    /// The first `CrawlReport.maxListed` URLs removed.
    public var prunedURLs: [String] = []
    /// Listed URLs gone (404 or 410 on every run) for at least `GoneDropping.after`, left out of the
    /// manifest with their cards removed, and the first `CrawlReport.maxListed` of them.
    public var droppedGone = 0
    /// The first `CrawlReport.maxListed` URLs dropped as gone.
    public var droppedGoneURLs: [String] = []
    /// Errors by code, outcomes by host, and the URLs that failed or lack an image or icon.
    public var report = CrawlReport()

    /// An empty summary.
    public init() {}

    /// Whether every URL ended `ok` or `notModified` and every line was valid.
    public var isAllGood: Bool {
      !isInterrupted && invalidLines == 0 && (outcomes[.failed] ?? 0) == 0 && (outcomes[.stale] ?? 0) == 0
    }
  }

  /// The output directory and the state directory.
  package let layout: OutputLayout
  /// The directory the job writes `manifest.jsonl`, `cards/` and `blobs/` into.
  public var outputDirectory: String { layout.directory }
  let configuration: CrawlConfiguration
  let fetcher: any Fetching
  let extractor: any MetadataExtracting
  let thumbnailer: any ThumbnailMaking
  /// Persists a cache across runs in the state database (the fetcher's robots.txt cache): `seed` gets
  /// the saved entries (key → JSON) before the crawl, `export` gives the entries to save after it.
  package struct PersistentCache: Sendable {
    package var seed: @Sendable ([String: String]) -> Void
    package var export: @Sendable () -> [String: String]

    package init(
      seed: @escaping @Sendable ([String: String]) -> Void, export: @escaping @Sendable () -> [String: String]
    ) {
      self.seed = seed
      self.export = export
    }

    /// A fetcher's robots.txt cache, kept in the state between runs as one JSON entry per origin.
    package init(robots cache: RobotsCache) {
      seed = { saved in
        let decoder = JSONDecoder()
        cache.seed(
          saved.values.compactMap { try? decoder.decode(RobotsCache.Entry.self, from: Data($0.utf8)) })
      }
      export = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var entries: [String: String] = [:]
        for entry in cache.export() {
          if let data = try? encoder.encode(entry) {
            entries[entry.origin] = String(decoding: data, as: UTF8.self)
          }
        }
        return entries
      }
    }
  }
  let robots: PersistentCache?
  private let stopper = CrawlStop()

  /// Stops the run in progress (or the next one) early: no new URL is taken, no new request is sent
  /// (the job's fetcher is stopped, `Fetching.stopStartingRequests()`: what waits in a host's queue
  /// ends `stopped`), and what is still in flight after `grace` is cancelled; `run` then returns a
  /// summary with `isInterrupted`. For good: a stopped job's later runs stop at once, and so does its
  /// fetcher for anyone else using it.
  public func stop(cancellingAfter grace: Duration = .seconds(2)) {
    fetcher.stopStartingRequests()
    stopper.stop(cancellingAfter: grace)
  }

  /// Stops at once: no new request is sent, and the transfers and image work in flight are cancelled.
  public func stopNow() {
    fetcher.stopStartingRequests()
    stopper.stopNow()
  }

  /// Removing the URLs missing from a run's list (`thumbify crawl --prune`).
  public struct Pruning: Sendable {
    /// The most that may be removed, as a count or a share of the URLs the state knows (listed and
    /// missing): a list cut short by accident must not empty the output.
    public var limit: Threshold
    /// Removes them all the same (`--force-prune`).
    public var isForced: Bool
    /// Called with each URL removed, as it is removed (the JSON log names them all).
    public var onRemoved: @Sendable (String) -> Void

    /// Removes at most `limit` URLs unless `isForced`, calling `onRemoved` with each.
    public init(
      limit: Threshold = .percent(20), isForced: Bool = false,
      onRemoved: @escaping @Sendable (String) -> Void = { _ in }
    ) {
      self.limit = limit
      self.isForced = isForced
      self.onRemoved = onRemoved
    }
  }
  let pruning: Pruning?

  /// Dropping the listed pages gone for long (`thumbify crawl --drop-gone-after`): a page that answered
  /// 404 or 410 on every run for at least `after` (`StateStore.StoredRecord.goneSince`, `savePage`'s
  /// `goneAt`) is left out of the manifest and its card removed, counted (`Summary.droppedGone`);
  /// its state row stays, so it stays dropped while it stays gone, and comes back when it answers.
  /// Without it a gone page keeps its last good card, `stale`, with the 404 or 410 as its error.
  public struct GoneDropping: Sendable {
    /// How long a page must have been gone to be dropped (`7d`: seven days).
    public var after: Duration
    /// Called with each URL dropped, once its card is removed (the JSON log names them all).
    public var onDropped: @Sendable (String) -> Void

    /// Drops pages gone for at least `after`, calling `onDropped` with each.
    public init(after: Duration, onDropped: @escaping @Sendable (String) -> Void = { _ in }) {
      self.after = after
      self.onDropped = onDropped
    }
  }
  let droppingGone: GoneDropping?
  /// Crawls only this shard's URLs of the list (`thumbify crawl --shard K/N`).
  let shard: Shard?
  /// Renders the pages instead of Chromium (tests).
  let renderer: (any PageRendering)?
  /// The previous night's merged directory and state (`crawl --baseline`), read only.
  let baseline: OutputLayout?

  /// - Parameters:
  ///   - layout: the output directory and the state directory, both explicit (the CLI resolves the
  ///     default state directory, `OutputLayout.resolving`, and moves an old one, `StateMigration`).
  ///   - configuration: variants, limits and the per-URL deadline.
  ///   - fetcher: in production a `CurlFetcher`.
  ///   - extractor: in production a `MetadataExtractor`.
  ///   - thumbnailer: in production a `Thumbnailer` whose `BlobStore` is rooted at `layout.directory`.
  ///   - robots: a robots.txt cache kept in the state database between runs, when given.
  ///   - pruning: remove the URLs missing from the list; `nil` keeps them. Not with a shard (ignored
  ///     then; the CLI refuses the combination).
  ///   - shard: crawl only this shard's URLs of the list. The manifest then holds this shard's listed
  ///     URLs in list order, then the kept records of this shard's URLs missing from the list (the
  ///     state's pages of other shards are left out and left alone), and no card is swept: the output
  ///     directory may hold other shards' cards (a state or directory reused after N changed), and
  ///     what the served directory holds is for a merge of the shards to decide (`ShardMerge`).
  ///   - baseline: the previous night's merged directory and its state (`crawl --baseline`), read
  ///     only: before the crawl, the pages of this run's shard (all, without a shard) that the state has
  ///     no row of are taken from the baseline's state, with its images and thumbnail sets
  ///     (`StateStore.importState`), so that their pages are fetched conditionally, failures keep
  ///     their cards (stale) and unlisted ones are kept; the blobs and cards such records name are
  ///     brought from the baseline directory when they are used.
  ///   - droppingGone: drop the listed pages gone for long (`GoneDropping`); `nil` keeps them.
  package convenience init(
    layout: OutputLayout, configuration: CrawlConfiguration, fetcher: any Fetching,
    extractor: any MetadataExtracting, thumbnailer: any ThumbnailMaking, robots: PersistentCache? = nil,
    pruning: Pruning? = nil, shard: Shard? = nil, baseline: OutputLayout? = nil,
    droppingGone: GoneDropping? = nil
  ) {
    self.init(
      layout: layout, configuration: configuration, fetcher: fetcher, extractor: extractor,
      thumbnailer: thumbnailer, robots: robots, pruning: pruning, shard: shard, baseline: baseline,
      droppingGone: droppingGone, renderer: nil)
  }

  /// A job whose pages are rendered by `renderer` (a test double) instead of the Chromium
  /// `configuration.render` starts when it is not `never`.
  package init(
    layout: OutputLayout, configuration: CrawlConfiguration, fetcher: any Fetching,
    extractor: any MetadataExtracting, thumbnailer: any ThumbnailMaking, robots: PersistentCache? = nil,
    pruning: Pruning? = nil, shard: Shard? = nil, baseline: OutputLayout? = nil,
    droppingGone: GoneDropping? = nil, renderer: (any PageRendering)?
  ) {
    self.droppingGone = droppingGone
    self.baseline = baseline
    self.renderer = renderer
    self.shard = shard
    self.pruning = shard == nil ? pruning : nil
    self.robots = robots
    self.layout = layout
    self.configuration = configuration
    self.fetcher = fetcher
    self.extractor = extractor
    self.thumbnailer = thumbnailer
  }

  /// Where a crawl's URL list comes from.
  public enum ListSource: Sendable {
    /// A file, read twice: crawl, then manifest.
    case file(String)
    /// A stream such as standard input, read once: copied to `OutputLayout.standardInputSpool` when
    /// the run holds the lock (a refused second run must not overwrite the running one's list), then
    /// read from there.
    case stream(fileDescriptor: Int32)
    /// A list already in memory, spooled the same way.
    case bytes([UInt8])
  }

  /// Runs the crawl over `list` (see ``run(openList:onEvent:)``).
  ///
  /// A list read once (a stream, or a path that is no regular file: a FIFO, `/dev/stdin`) is spooled
  /// first, up to its end or a stop: a stop while it is read (an endless pipe or device, a line that
  /// never ends) ends the list there, within 200 ms, and the run writes the manifest of what it has.
  package func run(
    list: ListSource, onEvent: @escaping @Sendable (Crawler.Event) async -> Void = { _ in }
  ) async throws(StoreError) -> Summary {
    let spool = layout.standardInputSpool
    let stopper = stopper
    // Only the first open spools (a failed spool fails the run, so it is not retried).
    let isSpooled = Atomic(false)
    func spooling(_ open: () throws(StoreError) -> LineReader) throws(StoreError) {
      guard !isSpooled.exchange(true, ordering: .relaxed) else { return }
      let reader = try open()
      reader.isStopped = { stopper.isStopping }
      try URLListReader.spool(reader, to: spool)
    }
    return try await run(
      openList: { () throws(StoreError) in
        switch list {
        case .file(let path) where URLListReader.isRereadable(path):
          return try URLListReader(path: path)
        case .file(let path):
          try spooling { () throws(StoreError) in
            try LineReader(path: path, maxLength: URLListReader.maxLineLength)
          }
        case .stream(let descriptor):
          try spooling { () throws(StoreError) in
            try LineReader(fileDescriptor: descriptor, maxLength: URLListReader.maxLineLength)
          }
        case .bytes(let bytes):
          if !isSpooled.exchange(true, ordering: .relaxed) {
            try FileSystem.writeAtomically(bytes, to: spool)
          }
        }
        return try URLListReader(path: spool)
      }, onEvent: onEvent)
  }

  /// Runs the crawl.
  ///
  /// - Parameters:
  ///   - openList: opens the URL list; called twice (crawl, then manifest), so it must give the same list.
  ///   - onEvent: every event of the crawl, awaited.
  /// - Throws: `StoreError` when the run cannot proceed (locked, state or manifest unwritable).
  package func run(
    openList: () throws(StoreError) -> URLListReader,
    onEvent: @escaping @Sendable (Crawler.Event) async -> Void = { _ in }
  ) async throws(StoreError) -> Summary {
    let started = Date()
    // The lock, the state's setup and the manifest pass block on SQLite and the file system: they run
    // on the blocking-I/O executor, not on the cooperative pool (BlockingIO); the crawl itself is async.
    let lock = try await BlockingIO.run { () throws(StoreError) in try RunLock(layout) }
    defer { withExtendedLifetime(lock) {} }
    do {
      let (state, run, journal, cardWriter, hadCards) = try await BlockingIO.run {
        () throws(StoreError) in try self.prepare()
      }
      let shard = shard
      /// The list, reading only this run's shard.
      func open() throws(StoreError) -> URLListReader {
        let reader = try openList()
        reader.shard = shard
        return reader
      }
      if let pruning, !pruning.isForced {
        try await BlockingIO.run { () throws(StoreError) in
          try Self.refuseAPruneBeyondItsLimit(pruning, state: state, list: try open())
        }
      }
      // One browser for the run, started by the first page that needs it, killed when the run ends.
      let render =
        renderer.map { RenderStep(mode: configuration.render, renderer: .success($0)) }
        ?? RenderStep.chromium(
          mode: configuration.render, fetcher: fetcher, budget: configuration.renderBudget)
      defer { render.shutdown() }
      let crawler = Crawler(
        configuration: configuration, fetcher: fetcher, extractor: extractor, thumbnailer: thumbnailer,
        state: state, run: run.id, outputDirectory: outputDirectory, cards: cardWriter,
        decodeJournal: journal, stop: stopper, render: render, baseline: baseline?.directory)
      let counts = Mutex(Summary())
      let list = try await BlockingIO.run { () throws(StoreError) in try open() }
      // The crawl pass stops reading at a stop (a line that never ends is skipped only until then);
      // the manifest pass reads the list whole, as far as the crawl read it or further.
      let stopper = stopper
      list.isStopped = { stopper.isStopping }
      try await crawler.crawl(list) { event in
        counts.withLock { summary in
          switch event {
          case .record(_, _, let isReused):
            // In a fresh run a reused record can only come from an earlier line of the same list.
            if isReused && run.isResumed { summary.reused += 1 }
            if isReused && !run.isResumed { summary.duplicates += 1 }
          case .invalidLine(let line, let text, let error):
            summary.invalidLines += 1
            summary.report.addInvalidLine(line, text: text, code: error.code, message: error.description)
          case .duplicate: summary.duplicates += 1
          }
        }
        await onEvent(event)
      }
      if let error = crawler.cardError { throw error }
      var summary = counts.withLock { $0 }
      summary.isResumed = run.isResumed
      // Checked once the crawl has returned: a stop asked for after it does not change this run.
      let isStopped = stopper.isStopping
      summary.isInterrupted = isStopped
      summary.crashedDecoderSkips = journal.skipped
      summary.outcomes = [:]
      summary.imageFailures = 0
      summary.needsRendering = 0
      summary.incomplete = 0
      let pass = ManifestPass(
        state: state, run: run, cardWriter: cardWriter, hadCards: hadCards, crawler: crawler,
        isStopped: isStopped, started: started)
      return try await BlockingIO.run { () throws -> Summary in
        try self.writeManifest(summary, pass, list: try open())
      }
    } catch let error as StoreError {
      throw error
    } catch {
      throw .io(path: outputDirectory, operation: "write the manifest in", message: "\(error)")
    }
  }

  /// What the manifest pass needs of the crawl pass before it.
  private struct ManifestPass {
    let state: StateStore
    let run: StateStore.Run
    let cardWriter: CardWriter
    /// Whether the output directory held cards when the run started (they are swept after the pass).
    let hadCards: Bool
    let crawler: Crawler
    /// Whether a stop was asked before the crawl pass returned.
    let isStopped: Bool
    let started: Date
  }

  /// The manifest pass: walks the list (`list`, opened again) and writes each URL's record of this run (or kept one)
  /// into a new manifest, counts them into `summary`, writes the cards a resumed run or a baseline
  /// needs, prunes and drops what was asked, and commits. Blocking: called on the blocking-I/O executor.
  private func writeManifest(_ summary: Summary, _ pass: ManifestPass, list: URLListReader) throws -> Summary
  {
    var summary = summary
    let (state, run, cardWriter, crawler, isStopped) = (
      pass.state, pass.run, pass.cardWriter, pass.crawler, pass.isStopped
    )
    let writer = try ManifestWriter(path: layout.manifest)
    // The manifest walk remembers its URLs' card keys in the state database; the card writer asks it
    // which cards to keep instead of holding a set of every key (memory stays flat with the list).
    let cards = BackgroundCardWriter(
      try cardWriter.start(keeping: { (key) throws(StoreError) in try state.isListed(key) }))
    let list = ListCursor(list)
    // The crawl reports every repeated URL of a fresh run (in flight or already saved): without any,
    // and without a sweep to come, the walk need not remember keys to skip repeats or keep cards.
    let isDistinct = !run.isResumed && summary.duplicates == 0 && !pass.hadCards
    // Each page is dropped on its own evidence, so a stopped run drops the pages it asked too; the
    // listed pages it did not reach keep their earlier records (`isEarlier`), as a stopped run's do.
    let goneCutoff = droppingGone.map { Date().timeIntervalSince1970 - $0.after.seconds }
    try state.forEachRecord(
      of: run.id, isDistinct: isDistinct && !isStopped, keepingEarlier: isStopped,
      keepingUnlisted: pruning == nil || isStopped,
      isUnlistedKept: { url in shard?.contains(normalizedURL: url) ?? true },
      in: {
        while let entry = list.next() {
          if case .url(_, _, let normalized) = entry { return normalized }
        }
        return nil
      },
      { stored in
        // A page gone long enough is left out; its card is removed once the manifest is in place.
        if let goneCutoff, !stored.isEarlier, !stored.isKept, let since = stored.goneSince,
          since <= goneCutoff
        {
          summary.droppedGone += 1
          if summary.droppedGoneURLs.count < CrawlReport.maxListed {
            summary.droppedGoneURLs.append(stored.normalizedURL)
          }
          return
        }
        // The state stores each record with the manifest's encoding and its summary facts: copied and
        // counted, not decoded. In a fresh run the worker that saved a record wrote its card; a
        // resumed run writes them all again from the records (a run killed between saving a record
        // and writing its card left it out), and cards already holding their bytes are only compared.
        try writer.append(encoded: stored.json)
        try add(stored, to: &summary, isResumed: run.isResumed, cards: cards, crawler: crawler)
      })
    // A list that could not be read to its end must not replace the manifest (or sweep cards).
    if let error = list.error { throw error }
    var unlisted = 0
    // A stopped run prunes nothing: the listed URLs it did not reach have no record of it either.
    if let pruning, !isStopped {
      let known = try state.pageCount()
      unlisted = known - writer.count - summary.droppedGone
      if unlisted > 0, !pruning.isForced, !pruning.limit.allows(unlisted, of: known) {
        throw StoreError.pruneRefused(removing: unlisted, known: known, limit: pruning.limit.description)
      }
    }
    if let robots { try state.saveRobotsEntries(robots.export()) }
    try cards.drain()
    try writer.commit()
    if let pruning, unlisted > 0, !isStopped {
      // After the manifest without them is in place (a kill before this point leaves the run
      // unfinished, and its resumption prunes again); the sweep below would remove their cards
      // too, but only in a run that started with cards.
      summary.pruned = try state.removePages(notOf: run.id) { url in
        unlink(FilePath(cardWriter.cardsDirectory).appending(CardKey(normalizedURL: url).fileName).string)
        pruning.onRemoved(url)
        if summary.prunedURLs.count < CrawlReport.maxListed { summary.prunedURLs.append(url) }
      }
    }
    if let droppingGone, let goneCutoff, summary.droppedGone > 0 {
      // After the manifest without them is in place (a kill before leaves the run unfinished, and
      // its resumption drops them again).
      try state.forEachPage(of: run.id, goneSince: goneCutoff) { url in
        unlink(FilePath(cardWriter.cardsDirectory).appending(CardKey(normalizedURL: url).fileName).string)
        droppingGone.onDropped(url)
      }
    }
    if pass.hadCards && !isStopped && shard == nil { _ = try cards.finish() }
    summary.records = writer.count
    if !isStopped { try state.finishRun(run.id) }
    summary.seconds = Date().timeIntervalSince(pass.started)
    return summary
  }

  /// Counts one record the manifest pass wrote into `summary`, and writes its card where this run must:
  /// every record of a resumed run, a kept record from the baseline (with its blobs).
  private func add(
    _ stored: StateStore.StoredRecord, to summary: inout Summary, isResumed: Bool,
    cards: BackgroundCardWriter,
    crawler: Crawler
  ) throws {
    if stored.isEarlier {
      summary.keptFromEarlierRuns += 1  // its card, from that run, is kept (no sweep below)
    } else if stored.isKept {
      summary.kept += 1
      // A kept record may come from the baseline: its blobs and card are brought here.
      if baseline != nil, let record = stored.record {
        try crawler.bringBaselineBlobs(of: record)
        try cards.write(record)
      }
    } else if !isResumed, let outcome = stored.outcome,
      let hasImageFailure = stored.hasImageFailure
    {
      summary.outcomes[outcome, default: 0] += 1
      if hasImageFailure { summary.imageFailures += 1 }
      if Self.needsRendering(json: stored.json) { summary.needsRendering += 1 }
      if Self.isIncomplete(json: stored.json) { summary.incomplete += 1 }
      // Only a record with a problem is decoded, for its error codes and messages.
      let isProblem = hasImageFailure || outcome == .failed || outcome == .stale
      summary.report.add(
        normalizedURL: stored.normalizedURL, outcome: outcome, hasImageFailure: hasImageFailure,
        record: isProblem ? stored.record : nil)
    } else if let record = stored.record {
      try cards.write(record)
      summary.outcomes[record.outcome, default: 0] += 1
      let hasImageFailure = record.imageError != nil || record.iconError != nil
      if hasImageFailure { summary.imageFailures += 1 }
      if record.needsRendering == true { summary.needsRendering += 1 }
      if record.incomplete != nil { summary.incomplete += 1 }
      summary.report.add(
        normalizedURL: stored.normalizedURL, outcome: record.outcome,
        hasImageFailure: hasImageFailure,
        record: record)
    }
  }

  /// Opens the state for a run (imports the baseline's, seeds robots) and the decode journal; whether
  /// the output directory held cards. Blocking: called on the blocking-I/O executor.
  private func prepare() throws(StoreError) -> (
    state: StateStore, run: StateStore.Run, journal: DecodeJournal, cardWriter: CardWriter, hadCards: Bool
  ) {
    FileSystem.removeStaleTemporaries(in: layout.directory)
    try FileSystem.makeDirectories(layout.stateDirectory)
    // Group commit: a kill loses at most the last batch (the URLs of the last ~50 ms, done again by
    // the resumed run); the crawl flushes before it returns, the manifest walk commits first too.
    let state = try StateStore(path: layout.stateDatabase, groupCommit: .crawl)
    let run = try state.beginRun(options: configuration.variants.cacheKey)
    if let baseline {
      let shard = shard
      try state.importState(
        from: baseline.stateDatabase,
        pages: .missing(isWanted: { shard?.contains(normalizedURL: $0) ?? true }))
    }
    if let robots { robots.seed(try state.robotsEntries()) }
    let journal = try DecodeJournal(path: layout.decodeJournal, state: state)
    let cardWriter = CardWriter(outputDirectory: outputDirectory)
    // Cards are written only for URLs of the list, so a run that starts without any leaves none to
    // remove, and skips the sweep (a lookup per card: ~1 s of a 100,000-URL crawl's manifest pass).
    let hadCards = !FileSystem.isMissingOrEmpty(cardWriter.cardsDirectory)
    try FileSystem.makeDirectories(cardWriter.cardsDirectory)
    return (state, run, journal, cardWriter, hadCards)
  }
}

extension Duration {
  /// The duration in seconds.
  fileprivate var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}

extension CrawlJob {
  /// Whether a record's manifest JSON marks it `needsRendering`, or `incomplete`, read without decoding
  /// it (the walk decodes only records with a problem). Inside a JSON string a quote is escaped, so the
  /// member cannot be faked by page text.
  private static let needsRenderingMember = Array(#""needsRendering":true"#.utf8)
  private static let incompleteMember = Array(#""incomplete":["#.utf8)

  static func needsRendering(json: String) -> Bool { contains(needsRenderingMember, in: json) }

  static func isIncomplete(json: String) -> Bool { contains(incompleteMember, in: json) }

  private static func contains(_ needle: [UInt8], in json: String) -> Bool {
    var json = json
    return json.withUTF8 { bytes in
      var index = 0
      while index + needle.count <= bytes.count {
        if bytes[index] == needle[0], bytes[index + 1] == needle[1],
          bytes[index..<index + needle.count].elementsEqual(needle)
        {
          return true
        }
        index += 1
      }
      return false
    }
  }
}

extension CrawlJob {
  /// Refuses a prune beyond its limit before the crawl fetches anything (it was refused only after
  /// crawling the whole list): the state's pages that the list names are counted (a URL listed twice
  /// counts twice, so the count of pages to remove is never too high), and the run stops when the
  /// others are more than the limit allows. The manifest pass checks again with the exact count.
  fileprivate static func refuseAPruneBeyondItsLimit(
    _ pruning: Pruning, state: StateStore, list: URLListReader
  ) throws(StoreError) {
    let known = try state.pageCount()
    guard known > 0 else { return }
    var listed = 0
    while let entry = try list.next() {
      if case .url(_, _, let normalized) = entry, !(try state.page(normalized).isEmpty) { listed += 1 }
    }
    let unlisted = known - listed
    if unlisted > 0, !pruning.limit.allows(unlisted, of: known) {
      throw .pruneRefused(removing: unlisted, known: known, limit: pruning.limit.description)
    }
  }
}
