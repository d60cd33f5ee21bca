import Foundation
import ThumbifySystem

// Taking in another state database (`thumbify merge` and `crawl --baseline`): pages, images, thumbnail
// sets, robots.txt entries and decoder deaths, read from it without writing there.
extension StateStore {
  /// Which of the other database's pages to take, and over which of this one's.
  package enum PageImport: Sendable {
    /// Pages `isOwned` accepts replace this database's row of the same URL (a merge: the shard that
    /// crawls a URL has its newest state); the others are taken only where this database has none.
    case replacingOwned(isOwned: @Sendable (String) -> Bool)
    /// Only the pages `isWanted` accepts, and only where this database has no row of the URL (a
    /// baseline: a crawl's own state wins).
    case missing(isWanted: @Sendable (String) -> Bool)
  }

  /// What `importState(from:pages:onPage:)` took.
  package struct ImportCounts: Sendable, Equatable {
    /// Page rows inserted or changed.
    package var pages = 0
    package var images = 0
    package var thumbnailSets = 0

    package init() {}
  }

  /// Takes the pages, images, thumbnail sets, robots.txt entries and decoder deaths of the state
  /// database at `path` (opened read-only, nothing written beside it: `SQLiteDatabase(readingOnly:)`)
  /// into this one (committed every `importBatch` rows).
  ///
  /// Taken rows belong to no run of this database (`run` is NULL): a crawl on it sends conditional
  /// requests from their validators and keeps their records as stale fallbacks, but never takes them
  /// for its own run's work. An image row replaces this one's only when it was fetched later; thumbnail
  /// sets (named by their source's hash and variants), robots.txt entries and decoder deaths are taken
  /// where this database has none. Rows equal to this database's are not written again, so taking the
  /// same database twice writes nothing.
  ///
  /// - Parameters:
  ///   - onPage: called with the last good and the last record (JSON) of each page taken, e.g. to
  ///     bring in the blobs they name.
  ///   - onThumbnailSet: called with each thumbnail set taken (JSON).
  /// - Returns: what was taken. Memory: one row at a time.
  /// - Throws: `StoreError.database` when either database fails, or what the callbacks throw.
  @discardableResult
  package func importState(
    from path: String, pages: PageImport,
    onPage: (_ good: String?, _ current: String?) throws(StoreError) -> Void = { _, _ throws(StoreError) in },
    onThumbnailSet: (String) throws(StoreError) -> Void = { _ throws(StoreError) in }
  ) throws(StoreError) -> ImportCounts {
    let source = try SQLiteDatabase(readingOnly: path)
    var counts = ImportCounts()
    try withOwnTransaction { (db) throws(StoreError) in
      try db.execute("BEGIN IMMEDIATE")
      do throws(StoreError) {
        try Self.importPages(from: source, into: db, pages: pages, counts: &counts, onPage: onPage)
        try Self.importImages(from: source, into: db, counts: &counts, onThumbnailSet: onThumbnailSet)
        try db.execute("COMMIT")
      } catch {
        try? db.execute("ROLLBACK")
        throw error
      }
    }
    return counts
  }

  /// Rows written per transaction: one transaction for a million 4 KB records would grow the log to
  /// gigabytes (a checkpoint cannot pass an open transaction). Every row is taken idempotently, so a
  /// kill between commits loses nothing the next import does not take again.
  static let importBatch = 8_192

  /// Commits and begins again after every `importBatch` rows written.
  private static func commitEvery(_ written: inout Int, _ db: SQLiteDatabase) throws(StoreError) {
    written += 1
    if written % importBatch == 0 { try db.execute("COMMIT; BEGIN IMMEDIATE") }
  }

  private static let pageColumns =
    "url, good, current, etag, last_modified, fetched_at, outcome, image_failed"

  private static func importPages(
    from source: SQLiteDatabase, into db: SQLiteDatabase, pages: PageImport, counts: inout ImportCounts,
    onPage: (String?, String?) throws(StoreError) -> Void
  ) throws(StoreError) {
    let insert = "INSERT INTO pages(\(pageColumns), run) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, NULL)"
    // Only rows that differ are written: a second merge of the same shards writes nothing.
    let replace =
      insert + """
         ON CONFLICT(url) DO UPDATE SET good = ?2, current = ?3, etag = ?4, last_modified = ?5,
          fetched_at = ?6, outcome = ?7, image_failed = ?8, run = NULL, card = NULL
        WHERE good IS NOT ?2 OR current IS NOT ?3 OR etag IS NOT ?4 OR last_modified IS NOT ?5
          OR fetched_at IS NOT ?6 OR outcome IS NOT ?7 OR image_failed IS NOT ?8 OR run IS NOT NULL
        """
    let ignore = insert + " ON CONFLICT(url) DO NOTHING"
    var failure: StoreError?
    var written = 0
    try source.forEachRow("SELECT \(pageColumns) FROM pages ORDER BY rowid") { row in
      guard failure == nil, let url = row[0].text else { return }
      let statement: String
      switch pages {
      case .replacingOwned(let isOwned): statement = isOwned(url) ? replace : ignore
      case .missing(let isWanted):
        guard isWanted(url) else { return }
        statement = ignore
      }
      do throws(StoreError) {
        try db.query(statement, row)
        guard db.changes > 0 else { return }
        counts.pages += 1
        try commitEvery(&written, db)
        try onPage(row[1].text, row[2].text)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  private static func importImages(
    from source: SQLiteDatabase, into db: SQLiteDatabase, counts: inout ImportCounts,
    onThumbnailSet: (String) throws(StoreError) -> Void
  ) throws(StoreError) {
    var failure: StoreError?
    var written = 0
    try source.forEachRow(
      "SELECT url, etag, last_modified, source_sha, error, fetched_at FROM images ORDER BY rowid"
    ) { row in
      guard failure == nil else { return }
      do throws(StoreError) {
        try db.query(
          """
          INSERT INTO images(url, etag, last_modified, source_sha, error, fetched_at, run)
          VALUES(?1, ?2, ?3, ?4, ?5, ?6, NULL)
          ON CONFLICT(url) DO UPDATE SET etag = ?2, last_modified = ?3, source_sha = ?4, error = ?5,
            fetched_at = ?6, run = NULL
          WHERE ?6 > COALESCE(fetched_at, -1)
          """, row)
        if db.changes > 0 {
          counts.images += 1
          try commitEvery(&written, db)
        }
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    try source.forEachRow("SELECT source_sha, variants, result FROM thumbnails") { row in
      guard failure == nil else { return }
      do throws(StoreError) {
        try db.query(
          "INSERT INTO thumbnails(source_sha, variants, result) VALUES(?1, ?2, ?3) ON CONFLICT DO NOTHING",
          row)
        guard db.changes > 0 else { return }
        counts.thumbnailSets += 1
        if let json = row[2].text { try onThumbnailSet(json) }
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    try source.forEachRow("SELECT host, entry FROM robots") { row in
      guard failure == nil else { return }
      do throws(StoreError) {
        try db.query("INSERT INTO robots(host, entry) VALUES(?1, ?2) ON CONFLICT DO NOTHING", row)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    try source.forEachRow("SELECT source_sha, attempt, url, crashed, version FROM decode_deaths") { row in
      guard failure == nil else { return }
      do throws(StoreError) {
        try db.query(
          """
          INSERT INTO decode_deaths(source_sha, attempt, url, crashed, version) VALUES(?1, ?2, ?3, ?4, ?5)
          ON CONFLICT DO NOTHING
          """, row)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  /// Runs `body` with a function that remembers one card key of a manifest being written (as
  /// `forEachRecord` does: `isListed(_:)` answers about them until the next walk), returning false for
  /// a key already remembered. The keys of the previous walk are forgotten first; one transaction.
  package func rememberingManifestKeys<T>(
    _ body: ((CardKey) throws(StoreError) -> Bool) throws(StoreError) -> T
  ) throws(StoreError) -> T {
    try withOwnTransaction { (db) throws(StoreError) -> T in
      try db.transaction { () throws(StoreError) -> T in
        try db.execute("DELETE FROM manifest_keys")
        return try body { (key) throws(StoreError) -> Bool in
          try db.query(
            "INSERT INTO manifest_keys(key) VALUES(?1) ON CONFLICT DO NOTHING", [.blob(key.bytes)])
          return db.changes == 1
        }
      }
    }
  }
}
