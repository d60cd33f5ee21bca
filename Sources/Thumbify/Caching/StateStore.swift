import Dispatch
import Foundation
import Synchronization

/// The crawl's durable state in `<out>/.thumbify/state.sqlite` (SQLite, WAL mode).
///
/// It holds, per page URL, the last good record with its validators and fetch time and the record
/// written by the current run; per image URL its validators and source hash; per (source hash,
/// variants) the thumbnails made from those bytes; and runs, so that a run killed at any moment is
/// resumed by the next one without redoing the URLs it finished.
///
/// Writes are grouped into batches (`GroupCommit`): with `.immediate` (the default) every write is its
/// own transaction; the crawl (`CrawlJob`) uses `.crawl`, where a process killed at any moment loses
/// at most its last batch of writes (64 writes or the last 50 ms of work), whose URLs the resumed run
/// does again. What is committed is always every write up to some point, in order. Reads on the store
/// see its uncommitted writes; other connections see what is committed.
public final class StateStore: Sendable {
  /// What the state knows about one page URL.
  public struct PageState: Sendable {
    /// The last record whose page fetch succeeded (ok or notModified), if any.
    public var good: CrawlRecord?
    /// The record written for this URL by `run`.
    public var current: CrawlRecord?
    public var run: Int64?
    public var etag: String?
    public var lastModified: String?
    /// Seconds since 1970 of the last 2xx page fetch.
    public var fetchedAt: Double?

    /// True when the state holds no record of the page.
    public var isEmpty: Bool { good == nil && current == nil }
  }

  /// What the state knows about one image URL.
  public struct ImageState: Sendable {
    public var etag: String?
    public var lastModified: String?
    public var sourceSHA256: String?
    /// The run that last fetched this image (its result is reused for the rest of that run).
    public var run: Int64?
    /// The error of the last attempt, when it failed.
    public var error: RecordError?
    public var fetchedAt: Double?
  }

  /// A run as recorded in the database.
  public struct Run: Sendable, Equatable {
    public var id: Int64
    /// True when the previous run with the same options did not finish and this one resumes it.
    public var isResumed: Bool
  }

  private let connection: Mutex<Connection>
  /// The manifest's encoding (`ManifestWriter`, `JSONWriter`): stored records are copied into the
  /// manifest as they are.
  private static func json(_ value: some JSONWritable) -> String? {
    (try? JSONWriter.encode(value)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Opens or creates the state database at `path` (and its directory) in WAL mode.
  ///
  /// - Parameter groupCommit: when writes are committed; with anything but `.immediate`, call `flush()`
  ///   when the work must be durable.
  public init(path: String, groupCommit: GroupCommit = .immediate) throws(StateError) {
    if let slash = path.lastIndex(of: "/") {
      do {
        try FileSystem.makeDirectories(String(path[..<slash]))
      } catch {
        throw StateError(path: path, message: error.description)
      }
    }
    let database = try SQLiteDatabase(path: path)
    try database.execute(
      """
      PRAGMA journal_mode=WAL;
      PRAGMA synchronous=NORMAL;
      PRAGMA journal_size_limit=67108864;
      CREATE TABLE IF NOT EXISTS runs(
        id INTEGER PRIMARY KEY, options TEXT NOT NULL, started_at REAL NOT NULL, finished_at REAL);
      CREATE TABLE IF NOT EXISTS pages(
        url TEXT PRIMARY KEY, good TEXT, current TEXT, run INTEGER, etag TEXT, last_modified TEXT,
        fetched_at REAL, listed INTEGER);
      -- pages.current is NULL when the run's record is the good one (stored once, read as
      -- COALESCE(current, good)): most pages succeed, and two copies doubled the database.
      -- pages.outcome, pages.image_failed (added below when missing) are derived from the record when
      -- it is saved, so the manifest walk counts outcomes without decoding the record. pages.card is
      -- no longer used (NULL): the crawl's workers write each card file when they save its record.
      -- The card keys (SHA-256 of the normalized URL) of the last manifest walk (forEachRecord).
      -- pages.listed is no longer used: marking it rewrote every page row during the walk.
      CREATE TABLE IF NOT EXISTS manifest_keys(key BLOB PRIMARY KEY) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS images(
        url TEXT PRIMARY KEY, etag TEXT, last_modified TEXT, source_sha TEXT, error TEXT, run INTEGER,
        fetched_at REAL);
      CREATE TABLE IF NOT EXISTS thumbnails(
        source_sha TEXT NOT NULL, variants TEXT NOT NULL, result TEXT NOT NULL,
        PRIMARY KEY(source_sha, variants));
      CREATE TABLE IF NOT EXISTS robots(host TEXT PRIMARY KEY, entry TEXT NOT NULL);
      """)
    // A checkpoint in the committing thread would hold the store's Mutex, stalling every worker, while
    // it copies and fsyncs the log: checkpoint on a thread of its own (the log stays under ~64 MB).
    database.checkpointInBackground()
    let columns = try database.query("PRAGMA table_info(pages)").compactMap { $0[1].text }
    if !columns.contains("card") {
      try database.execute(
        """
        ALTER TABLE pages ADD COLUMN card TEXT;
        ALTER TABLE pages ADD COLUMN outcome TEXT;
        ALTER TABLE pages ADD COLUMN image_failed INTEGER;
        """)
    }
    connection = Mutex(Connection(database, groupCommit: groupCommit))
  }

  private func withConnection<T>(_ body: (Connection) throws(StateError) -> T) throws(StateError) -> T {
    try connection.withLock { (connection) throws(StateError) -> T in try body(connection) }
  }

  /// Runs reads (which see the open batch) or a statement of its own.
  @discardableResult
  private func withDatabase<T>(_ body: (SQLiteDatabase) throws(StateError) -> T) throws(StateError) -> T {
    try withConnection { (connection) throws(StateError) -> T in try connection.run(body) }
  }

  /// Commits the open batch, then runs `body` (which may begin a transaction of its own).
  @discardableResult
  private func withOwnTransaction<T>(_ body: (SQLiteDatabase) throws(StateError) -> T) throws(StateError) -> T
  {
    try withConnection { (connection) throws(StateError) -> T in
      try connection.commit()
      return try connection.run(body)
    }
  }

  /// Runs one write in the open batch (beginning one when none is open, and setting its timer), then
  /// commits the batch when it is full or old.
  private func write(_ body: (SQLiteDatabase) throws(StateError) -> Void) throws(StateError) {
    try withConnection { (connection) throws(StateError) in
      let policy = connection.groupCommit
      try connection.run { (db) throws(StateError) in
        guard policy.maxWrites > 1, !connection.isWalking else { return try body(db) }
        if connection.batch == nil {
          try db.execute("BEGIN IMMEDIATE")
          connection.batchesBegun += 1
          connection.batch = (connection.batchesBegun, .now, 0)
          commitIdleBatch(connection.batchesBegun, after: policy.maxDelay)
        }
        try body(db)
      }
      guard var batch = connection.batch else { return }
      batch.writes += 1
      connection.batch = batch
      if batch.writes >= policy.maxWrites || ContinuousClock.now - batch.opened >= policy.maxDelay {
        try connection.commit()
      }
    }
  }

  /// Commits batch `number` after `delay` if it is still open then (no write came to commit it).
  private func commitIdleBatch(_ number: UInt64, after delay: Duration) {
    let (seconds, attoseconds) = delay.components
    let deadline = DispatchTime.now() + Double(seconds) + Double(attoseconds) / 1e18
    DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in
      self?.connection.withLock { connection in
        // A failure is kept in `failure` and thrown by the store's next call.
        if connection.batch?.number == number { try? connection.commit() }
      }
    }
  }

  /// Commits the open batch: every write made before the call is durable (as far as a process kill
  /// goes; the database is synced at checkpoints) when it returns.
  ///
  /// - Throws: `StateError` when the commit fails, or when an earlier commit failed (its writes are lost).
  public func flush() throws(StateError) {
    try withConnection { (connection) throws(StateError) in try connection.commit() }
  }

  /// For tests: runs `body` on the connection, under the store's lock.
  func withDatabaseForTesting<T>(_ body: (SQLiteDatabase) -> T) -> T {
    connection.withLock { body($0.database) }
  }

  // MARK: Runs

  /// Starts a run, or resumes the last one when it did not finish and used the same `options`.
  public func beginRun(options: String, now: Double = Date().timeIntervalSince1970) throws(StateError) -> Run
  {
    try withOwnTransaction { (db) throws(StateError) -> Run in
      try db.transaction { () throws(StateError) -> Run in
        let last = try db.query("SELECT id, options, finished_at FROM runs ORDER BY id DESC LIMIT 1")
        if let row = last.first, row[2] == .null, row[1].text == options, let id = row[0].integer {
          return Run(id: id, isResumed: true)
        }
        try db.query("INSERT INTO runs(options, started_at) VALUES(?, ?)", [.text(options), .real(now)])
        let id = try db.query("SELECT last_insert_rowid()").first?.first?.integer ?? 0
        return Run(id: id, isResumed: false)
      }
    }
  }

  /// Marks a run finished (committing the open batch first): the next run starts afresh.
  public func finishRun(_ run: Int64, now: Double = Date().timeIntervalSince1970) throws(StateError) {
    try withOwnTransaction { (db) throws(StateError) in
      try db.query("UPDATE runs SET finished_at = ? WHERE id = ?", [.real(now), .integer(run)])
    }
  }

  // MARK: Pages

  /// What is known about the page at `url` (normalized).
  public func page(_ url: String) throws(StateError) -> PageState {
    let rows = try withDatabase { (db) throws(StateError) in
      try db.query(
        "SELECT good, COALESCE(current, good), run, etag, last_modified, fetched_at FROM pages WHERE url = ?",
        [.text(url)])
    }
    guard let row = rows.first else { return PageState() }
    return PageState(
      good: row[0].text.flatMap(Self.decode), current: row[1].text.flatMap(Self.decode), run: row[2].integer,
      etag: row[3].text, lastModified: row[4].text, fetchedAt: row[5].real)
  }

  /// Records `record` as the result of `run` for `url`; when `isGood`, it also becomes the last good
  /// record with the given validators and fetch time.
  ///
  /// The write joins the open batch (`GroupCommit`): it is durable once that batch is committed.
  ///
  /// - Throws: `StateError` when the write fails, or the batch's commit, or an earlier commit.
  public func savePage(
    _ url: String, record: CrawlRecord, run: Int64, isGood: Bool, etag: String?, lastModified: String?,
    fetchedAt: Double?
  ) throws(StateError) {
    let json = Self.encode(record)
    let derived: [Value] = [
      .text(record.outcome.rawValue),
      .integer(record.imageError != nil || record.iconError != nil ? 1 : 0),
    ]
    try write { (db) throws(StateError) in
      if isGood {
        try db.query(
          """
          INSERT INTO pages(url, good, current, run, etag, last_modified, fetched_at, outcome, image_failed)
          VALUES(?1, ?2, NULL, ?3, ?4, ?5, ?6, ?7, ?8)
          ON CONFLICT(url) DO UPDATE SET good = ?2, current = NULL, run = ?3, etag = ?4, last_modified = ?5,
            fetched_at = ?6, card = NULL, outcome = ?7, image_failed = ?8
          """,
          [
            .text(url), .text(json), .integer(run), etag.map(Value.text) ?? .null,
            lastModified.map(Value.text) ?? .null, fetchedAt.map(Value.real) ?? .null,
          ] + derived)
      } else {
        try db.query(
          """
          INSERT INTO pages(url, current, run, outcome, image_failed) VALUES(?1, ?2, ?3, ?4, ?5)
          ON CONFLICT(url) DO UPDATE SET current = ?2, run = ?3, card = NULL, outcome = ?4, image_failed = ?5
          """, [.text(url), .text(json), .integer(run)] + derived)
      }
    }
  }

  /// A record of a run as the manifest pass reads it: its JSON as stored, and what was derived from it
  /// when it was saved (`nil` for rows saved without them: `record` decodes the JSON then).
  public struct StoredRecord: Sendable {
    /// The page's normalized URL (the record's `normalizedURL`).
    public var normalizedURL: String
    /// The record with the manifest's encoding.
    public var json: String
    public var outcome: CrawlRecord.Outcome?
    /// Whether the image or the icon failed.
    public var hasImageFailure: Bool?

    /// The record, decoded from `json`.
    public var record: CrawlRecord? { StateStore.decode(json) }
  }

  /// Walks the records of `run` in the order `next` yields their URLs, each URL once, for the manifest.
  ///
  /// The walk remembers the card key of every URL it hands to `body` (in the database, not in memory:
  /// a pass over a million URLs costs what one over ten does) until the next walk starts; `isListed(_:)`
  /// asks about them, so the card writer can remove the cards of URLs no longer listed.
  ///
  /// - Parameters:
  ///   - isDistinct: the caller knows `next` yields no URL twice and will not ask `isListed(_:)`: the
  ///     walk then remembers no keys (it saves a SHA-256 and a B-tree insert per URL) and
  ///     `isListed(_:)` answers false until the next walk.
  ///   - next: returns the next normalized URL of the input, or `nil` at its end.
  ///   - body: called with each URL's record as stored (the manifest's encoding, so the manifest writes
  ///     it as is, and the summary facts derived when it was saved, so nothing is decoded);
  ///     URLs without a record of `run` are skipped, and so are URLs already handed over.
  public func forEachRecord(
    of run: Int64, isDistinct: Bool = false, in next: () -> String?, _ body: (StoredRecord) throws -> Void
  ) throws {
    // One transaction for the walk's bookkeeping: 100,000 small inserts commit once. The open batch
    // is committed first; writes made during the walk join its transaction.
    try withConnection { (connection) throws(StateError) in
      try connection.commit()
      try connection.run { (db) throws(StateError) in
        do throws(StateError) {
          try db.execute("BEGIN IMMEDIATE; DELETE FROM manifest_keys")
        } catch {
          if db.isInTransaction { try? db.execute("ROLLBACK") }
          throw error
        }
      }
      connection.isWalking = true
    }
    var isCommitted = false
    defer {
      if !isCommitted {
        connection.withLock { connection in
          connection.isWalking = false
          if connection.database.isInTransaction { try? connection.database.execute("ROLLBACK") }
        }
      }
    }
    while let url = next() {
      let stored = try withDatabase { (db) throws(StateError) -> StoredRecord? in
        let rows = try db.query(
          "SELECT COALESCE(current, good), outcome, image_failed FROM pages WHERE url = ?1 AND run = ?2",
          [.text(url), .integer(run)])
        guard let row = rows.first, let json = row[0].text else { return nil }
        if !isDistinct {
          try db.query(
            "INSERT INTO manifest_keys(key) VALUES(?1) ON CONFLICT DO NOTHING",
            [.blob(CardKey(normalizedURL: url).bytes)])
          guard db.changes == 1 else { return nil }
        }
        return StoredRecord(
          normalizedURL: url, json: json, outcome: row[1].text.flatMap(CrawlRecord.Outcome.init(rawValue:)),
          hasImageFailure: row[2].integer.map { $0 != 0 })
      }
      if let stored { try body(stored) }
    }
    try withConnection { (connection) throws(StateError) in
      try connection.run { (db) throws(StateError) in try db.execute("COMMIT") }
      connection.isWalking = false
    }
    isCommitted = true
  }

  /// Whether the last `forEachRecord` walk handed over the record of the URL whose card key is `key`.
  public func isListed(_ key: CardKey) throws(StateError) -> Bool {
    try withDatabase { (db) throws(StateError) -> Bool in
      !(try db.query("SELECT 1 FROM manifest_keys WHERE key = ?1", [.blob(key.bytes)])).isEmpty
    }
  }

  /// Every blob path referenced by any record or thumbnail set the state holds.
  public func referencedBlobPaths(_ body: (String) -> Void) throws(StateError) {
    try withDatabase { (db) throws(StateError) in
      try db.forEachRow(
        "SELECT good FROM pages UNION ALL SELECT current FROM pages WHERE current IS NOT NULL"
      ) { row in
        guard let json = row.first?.text, let record = Self.decode(json) else { return }
        for path in record.blobPaths { body(path) }
      }
      try db.forEachRow("SELECT result FROM thumbnails") { row in
        guard let json = row.first?.text,
          let set = try? JSONDecoder().decode(ThumbnailSet.self, from: Data(json.utf8))
        else { return }
        for variant in set.variants { body(variant.path) }
      }
    }
  }

  // MARK: Images

  /// What is known about the image at `url`.
  public func image(_ url: String) throws(StateError) -> ImageState {
    let rows = try withDatabase { (db) throws(StateError) in
      try db.query(
        "SELECT etag, last_modified, source_sha, error, run, fetched_at FROM images WHERE url = ?",
        [.text(url)])
    }
    guard let row = rows.first else { return ImageState() }
    let error = row[3].text.flatMap { try? JSONDecoder().decode(RecordError.self, from: Data($0.utf8)) }
    return ImageState(
      etag: row[0].text, lastModified: row[1].text, sourceSHA256: row[2].text, run: row[4].integer,
      error: error, fetchedAt: row[5].real)
  }

  /// Records the outcome of fetching the image at `url` in `run`.
  public func saveImage(_ url: String, state: ImageState) throws(StateError) {
    let error = state.error.flatMap { Self.json($0) }
    try write { (db) throws(StateError) in
      try db.query(
        """
        INSERT OR REPLACE INTO images(url, etag, last_modified, source_sha, error, run, fetched_at)
        VALUES(?, ?, ?, ?, ?, ?, ?)
        """,
        [
          .text(url), state.etag.map(Value.text) ?? .null, state.lastModified.map(Value.text) ?? .null,
          state.sourceSHA256.map(Value.text) ?? .null, error.map(Value.text) ?? .null,
          state.run.map(Value.integer) ?? .null, state.fetchedAt.map(Value.real) ?? .null,
        ])
    }
  }

  /// The thumbnails made earlier from the source bytes with hash `sourceSHA256` for `variants`.
  public func thumbnails(sourceSHA256: String, variants: String) throws(StateError) -> ThumbnailSet? {
    let rows = try withDatabase { (db) throws(StateError) in
      try db.query(
        "SELECT result FROM thumbnails WHERE source_sha = ? AND variants = ?",
        [.text(sourceSHA256), .text(variants)])
    }
    return rows.first?.first?.text.flatMap {
      try? JSONDecoder().decode(ThumbnailSet.self, from: Data($0.utf8))
    }
  }

  /// Records the thumbnails made from `sourceSHA256` for `variants` (blobs must already be on disk).
  public func saveThumbnails(_ set: ThumbnailSet, sourceSHA256: String, variants: String) throws(StateError) {
    let json = Self.json(set) ?? "{}"
    try write { (db) throws(StateError) in
      try db.query(
        "INSERT OR REPLACE INTO thumbnails(source_sha, variants, result) VALUES(?, ?, ?)",
        [.text(sourceSHA256), .text(variants), .text(json)])
    }
  }

  // MARK: Robots

  /// Every persisted robots.txt cache entry (host → opaque JSON the fetcher understands).
  public func robotsEntries() throws(StateError) -> [String: String] {
    let rows = try withDatabase { (db) throws(StateError) in try db.query("SELECT host, entry FROM robots") }
    var entries: [String: String] = [:]
    for row in rows { if let host = row[0].text, let entry = row[1].text { entries[host] = entry } }
    return entries
  }

  /// Replaces the persisted robots.txt cache entries (committing the open batch first).
  public func saveRobotsEntries(_ entries: [String: String]) throws(StateError) {
    try withOwnTransaction { (db) throws(StateError) in
      try db.transaction { () throws(StateError) in
        for (host, entry) in entries {
          try db.query(
            "INSERT OR REPLACE INTO robots(host, entry) VALUES(?, ?)", [.text(host), .text(entry)])
        }
      }
    }
  }

  private typealias Value = SQLiteDatabase.Value

  static func encode(_ record: CrawlRecord) -> String {
    json(record) ?? "{}"
  }

  static func decode(_ json: String) -> CrawlRecord? {
    try? JSONDecoder().decode(CrawlRecord.self, from: Data(json.utf8))
  }
}
