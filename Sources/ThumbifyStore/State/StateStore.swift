import Dispatch
import Foundation
import Synchronization
import ThumbifySystem

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
package final class StateStore: Sendable {
  /// What the state knows about one page URL.
  package struct PageState: Sendable {
    /// The last record whose page fetch succeeded (ok or notModified), if any.
    package var good: CrawlRecord?
    /// The record written for this URL by `run`.
    package var current: CrawlRecord?
    package var run: Int64?
    package var etag: String?
    package var lastModified: String?
    /// Seconds since 1970 of the last 2xx page fetch.
    package var fetchedAt: Double?

    /// True when the state holds no record of the page.
    package var isEmpty: Bool { good == nil && current == nil }
  }

  /// What the state knows about one image URL.
  package struct ImageState: Sendable {
    package var etag: String?
    package var lastModified: String?
    package var sourceSHA256: String?
    /// The run that last fetched this image (its result is reused for the rest of that run).
    package var run: Int64?
    /// The error of the last attempt, when it failed.
    package var error: RecordError?
    package var fetchedAt: Double?

    package init(
      etag: String? = nil, lastModified: String? = nil, sourceSHA256: String? = nil, run: Int64? = nil,
      error: RecordError? = nil, fetchedAt: Double? = nil
    ) {
      self.etag = etag
      self.lastModified = lastModified
      self.sourceSHA256 = sourceSHA256
      self.run = run
      self.error = error
      self.fetchedAt = fetchedAt
    }
  }

  /// A run as recorded in the database.
  package struct Run: Sendable, Equatable {
    package var id: Int64
    /// True when the previous run with the same options did not finish and this one resumes it.
    package var isResumed: Bool
  }

  let connection: Mutex<Connection>
  /// The manifest's encoding (`ManifestWriter`, `JSONWriter`): stored records are copied into the
  /// manifest as they are.
  static func json(_ value: some JSONWritable) -> String? {
    (try? JSONWriter.encode(value)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Opens or creates the state database at `path` (and its directory) in WAL mode.
  ///
  /// - Parameter groupCommit: when writes are committed; with anything but `.immediate`, call `flush()`
  ///   when the work must be durable.
  package init(path: String, groupCommit: GroupCommit = .immediate) throws(StoreError) {
    if let slash = path.lastIndex(of: "/") {
      do {
        try FileSystem.makeDirectories(String(path[..<slash]))
      } catch {
        throw StoreError.database(path: path, message: error.description)
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
      -- Sources in flight when a run died (DecodeJournal): one row per source and dead attempt.
      CREATE TABLE IF NOT EXISTS decode_deaths(
        source_sha TEXT NOT NULL, attempt TEXT NOT NULL, url TEXT NOT NULL, crashed INTEGER NOT NULL,
        version TEXT NOT NULL, PRIMARY KEY(source_sha, attempt)) WITHOUT ROWID;
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
    // pages.gone_since: when the page began to answer 404 or 410, on every run since (`savePage`'s
    // `goneAt`); NULL otherwise. `crawl --drop-gone-after` reads it.
    if !columns.contains("gone_since") {
      try database.execute("ALTER TABLE pages ADD COLUMN gone_since REAL")
    }
    connection = Mutex(Connection(database, groupCommit: groupCommit))
  }

  func withConnection<T>(_ body: (Connection) throws(StoreError) -> T) throws(StoreError) -> T {
    try connection.withLock { (connection) throws(StoreError) -> T in try body(connection) }
  }

  /// Runs reads (which see the open batch) or a statement of its own.
  @discardableResult
  func withDatabase<T>(_ body: (SQLiteDatabase) throws(StoreError) -> T) throws(StoreError) -> T {
    try withConnection { (connection) throws(StoreError) -> T in try connection.run(body) }
  }

  /// Commits the open batch, then runs `body` (which may begin a transaction of its own).
  @discardableResult
  func withOwnTransaction<T>(_ body: (SQLiteDatabase) throws(StoreError) -> T) throws(StoreError) -> T {
    try withConnection { (connection) throws(StoreError) -> T in
      try connection.commit()
      return try connection.run(body)
    }
  }

  /// Runs one write in the open batch (beginning one when none is open, and setting its timer), then
  /// commits the batch when it is full or old.
  func write(_ body: (SQLiteDatabase) throws(StoreError) -> Void) throws(StoreError) {
    try withConnection { (connection) throws(StoreError) in
      let policy = connection.groupCommit
      try connection.run { (db) throws(StoreError) in
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
  /// - Throws: `StoreError` when the commit fails, or when an earlier commit failed (its writes are lost).
  package func flush() throws(StoreError) {
    try withConnection { (connection) throws(StoreError) in try connection.commit() }
  }

  /// For tests: runs `body` on the connection, under the store's lock.
  func withDatabaseForTesting<T>(_ body: (SQLiteDatabase) -> T) -> T {
    connection.withLock { body($0.database) }
  }

  typealias Value = SQLiteDatabase.Value

  static func encode(_ record: CrawlRecord) -> String {
    json(record) ?? "{}"
  }

  static func decode(_ json: String) -> CrawlRecord? {
    try? JSONDecoder().decode(CrawlRecord.self, from: Data(json.utf8))
  }
}
