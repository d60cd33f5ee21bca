import Dispatch
import Foundation
import Synchronization
import ThumbifySystem

// The state database's pages: each URL's validators and record, the manifest walk and the card keys it remembers.
extension StateStore {
  /// What is known about the page at `url` (normalized).
  package func page(_ url: String) throws(StoreError) -> PageState {
    let rows = try withDatabase { (db) throws(StoreError) in
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
  /// `goneAt` (seconds since 1970) says the page answered 404 or 410 in this run: the page is gone
  /// since the first of an unbroken series of such answers (`PageState.goneSince`, kept when it is
  /// set); any other result (`goneAt` nil) ends the series.
  ///
  /// The write joins the open batch (`GroupCommit`): it is durable once that batch is committed.
  ///
  /// - Throws: `StoreError` when the write fails, or the batch's commit, or an earlier commit.
  package func savePage(
    _ url: String, record: CrawlRecord, run: Int64, isGood: Bool, etag: String?, lastModified: String?,
    fetchedAt: Double?, goneAt: Double? = nil
  ) throws(StoreError) {
    let json = Self.encode(record)
    let derived: [Value] = [
      .text(record.outcome.rawValue),
      .integer(record.imageError != nil || record.iconError != nil ? 1 : 0),
    ]
    try write { (db) throws(StoreError) in
      if isGood {
        try db.query(
          """
          INSERT INTO pages(url, good, current, run, etag, last_modified, fetched_at, outcome, image_failed)
          VALUES(?1, ?2, NULL, ?3, ?4, ?5, ?6, ?7, ?8)
          ON CONFLICT(url) DO UPDATE SET good = ?2, current = NULL, run = ?3, etag = ?4, last_modified = ?5,
            fetched_at = ?6, card = NULL, outcome = ?7, image_failed = ?8, gone_since = NULL
          """,
          [
            .text(url), .text(json), .integer(run), etag.map(Value.text) ?? .null,
            lastModified.map(Value.text) ?? .null, fetchedAt.map(Value.real) ?? .null,
          ] + derived)
      } else {
        try db.query(
          """
          INSERT INTO pages(url, current, run, outcome, image_failed, gone_since) VALUES(?1, ?2, ?3, ?4, ?5, ?6)
          ON CONFLICT(url) DO UPDATE SET current = ?2, run = ?3, card = NULL, outcome = ?4, image_failed = ?5,
            gone_since = CASE WHEN ?6 IS NULL THEN NULL ELSE COALESCE(gone_since, ?6) END
          """, [.text(url), .text(json), .integer(run)] + derived + [goneAt.map(Value.real) ?? .null])
      }
    }
  }

  /// A record of a run as the manifest pass reads it: its JSON as stored, and what was derived from it
  /// when it was saved (`nil` for rows saved without them: `record` decodes the JSON then).
  package struct StoredRecord: Sendable {
    /// The page's normalized URL (the record's `normalizedURL`).
    package var normalizedURL: String
    /// The record with the manifest's encoding.
    package var json: String
    package var outcome: CrawlRecord.Outcome?
    /// Whether the image or the icon failed.
    package var hasImageFailure: Bool?
    /// The URL has no record of the walk's run, and this is its last good record from an earlier run
    /// (`forEachRecord(of:keepingEarlier:…)`): `outcome` and `hasImageFailure` are then nil.
    package var isEarlier = false
    /// True for a URL the walk's list did not name: its last record from an earlier run, kept
    /// (`forEachRecord(of:isDistinct:keepingUnlisted:in:_:)`).
    package var isKept = false
    /// For a record of the walk's run: since when (seconds since 1970) the page has answered 404 or
    /// 410 on every run (`savePage`'s `goneAt`); nil when it did not answer so in this run.
    package var goneSince: Double?

    /// The record, decoded from `json`.
    package var record: CrawlRecord? { StateStore.decode(json) }
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
  ///   - keepingUnlisted: after the list, hand over the last record of every page the state knows
  ///     that `run` has no record of (URLs missing from this run's list), in the order the state first
  ///     saw them (`rowid`), with `isKept` set; their keys are remembered too (unless `isDistinct`), so
  ///     their cards are kept. The rows are read with one SQL scan, never gathered in memory, and the
  ///     scan is skipped when the state holds no page but the list's (a count over its URL index).
  ///   - next: returns the next normalized URL of the input, or `nil` at its end.
  ///   - body: called with each URL's record as stored (the manifest's encoding, so the manifest writes
  ///     it as is, and the summary facts derived when it was saved, so nothing is decoded);
  ///     URLs without a record of `run` are skipped, and so are URLs already handed over.
  ///   - keepingEarlier: a URL without a record of `run` is handed over with its last good record from
  ///     an earlier run, if it has one (`StoredRecord.isEarlier`): the manifest of a stopped run.
  ///   - isUnlistedKept: of the pages `keepingUnlisted` hands over, only those whose URL it accepts (a
  ///     sharded run keeps its own shard's: the others' belong in the other shards' manifests).
  package func forEachRecord(
    of run: Int64, isDistinct: Bool = false, keepingEarlier: Bool = false, keepingUnlisted: Bool = false,
    isUnlistedKept: (String) -> Bool = { _ in true },
    in next: () -> String?,
    _ body: (StoredRecord) throws -> Void
  ) throws {
    // One transaction for the walk's bookkeeping: 100,000 small inserts commit once. The open batch
    // is committed first; writes made during the walk join its transaction.
    try withConnection { (connection) throws(StoreError) in
      try connection.commit()
      try connection.run { (db) throws(StoreError) in
        do throws(StoreError) {
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
    var handed = 0
    while let url = next() {
      let stored = try withDatabase { (db) throws(StoreError) -> StoredRecord? in
        let rows = try db.query(
          keepingEarlier
            ? "SELECT CASE WHEN run = ?2 THEN COALESCE(current, good) ELSE good END, outcome, image_failed, "
              + "run = ?2, gone_since FROM pages WHERE url = ?1"
            : "SELECT COALESCE(current, good), outcome, image_failed, 1, gone_since FROM pages "
              + "WHERE url = ?1 AND run = ?2",
          [.text(url), .integer(run)])
        guard let row = rows.first, let json = row[0].text else { return nil }
        let isEarlier = row[3].integer == 0
        if !isDistinct {
          try db.query(
            "INSERT INTO manifest_keys(key) VALUES(?1) ON CONFLICT DO NOTHING",
            [.blob(CardKey(normalizedURL: url).bytes)])
          guard db.changes == 1 else { return nil }
        }
        guard !isEarlier else {
          return StoredRecord(normalizedURL: url, json: Self.currentJSON(json), isEarlier: true)
        }
        return StoredRecord(
          normalizedURL: url, json: Self.currentJSON(json),
          outcome: row[1].text.flatMap(CrawlRecord.Outcome.init(rawValue:)),
          hasImageFailure: row[2].integer.map { $0 != 0 }, goneSince: row[4].real)
      }
      if let stored {
        handed += 1
        try body(stored)
      }
    }
    if keepingUnlisted, try pageCount() > handed {
      try forEachUnlistedRecord(of: run, remembering: !isDistinct, isKept: isUnlistedKept, body)
    }
    try withConnection { (connection) throws(StoreError) in
      try connection.run { (db) throws(StoreError) in try db.execute("COMMIT") }
      connection.isWalking = false
    }
    isCommitted = true
  }

  /// The kept half of `forEachRecord`: the pages without a record of `run`, in `rowid` order.
  private func forEachUnlistedRecord(
    of run: Int64, remembering: Bool, isKept: (String) -> Bool, _ body: (StoredRecord) throws -> Void
  ) throws {
    // `forEachRow` takes no throwing body: the first error stops the handing over and is thrown after.
    var failure: (any Error)?
    try withDatabase { (db) throws(StoreError) in
      try db.forEachRow(
        """
        SELECT url, COALESCE(current, good), outcome, image_failed FROM pages
        WHERE run IS NOT ?1 ORDER BY rowid
        """, [.integer(run)]
      ) { row in
        guard failure == nil, let url = row[0].text, let json = row[1].text, isKept(url) else { return }
        do {
          if remembering {
            try db.query(
              "INSERT INTO manifest_keys(key) VALUES(?1) ON CONFLICT DO NOTHING",
              [.blob(CardKey(normalizedURL: url).bytes)])
            // Already handed over by the list's half (a stopped run's earlier record of a listed URL).
            guard db.changes == 1 else { return }
          }
          try body(
            StoredRecord(
              normalizedURL: url, json: Self.currentJSON(json),
              outcome: row[2].text.flatMap(CrawlRecord.Outcome.init(rawValue:)),
              hasImageFailure: row[3].integer.map { $0 != 0 }, isKept: true))
        } catch {
          failure = error
        }
      }
    }
    if let failure { throw failure }
  }

  /// Hands `body` the URL of every page of `run` gone (answering 404 or 410 on every run) since
  /// `cutoff` or earlier (seconds since 1970), in `rowid` order: the pages `crawl --drop-gone-after`
  /// drops. Their rows stay, so that they stay dropped while they stay gone.
  package func forEachPage(of run: Int64, goneSince cutoff: Double, _ body: (String) -> Void)
    throws(StoreError)
  {
    try withDatabase { (db) throws(StoreError) in
      try db.forEachRow(
        "SELECT url FROM pages WHERE run = ?1 AND gone_since <= ?2 ORDER BY rowid",
        [.integer(run), .real(cutoff)]
      ) { row in
        if let url = row[0].text { body(url) }
      }
    }
  }

  /// How many page URLs the state knows (SQLite counts the entries of the URL index, not the rows).
  package func pageCount() throws(StoreError) -> Int {
    try withDatabase { (db) throws(StoreError) -> Int in
      Int(try db.query("SELECT COUNT(*) FROM pages").first?.first?.integer ?? 0)
    }
  }

  /// Removes every page without a record of `run` (the URLs missing from its list: `--prune`), handing
  /// each URL to `body` first (in `rowid` order), then the thumbnail sets no remaining record uses, so
  /// that `thumbify gc` can delete their blobs. One transaction: all of it or nothing.
  ///
  /// Image rows (validators of image URLs) stay: without their thumbnail set the next page using the
  /// image fetches it unconditionally (`ImageStage`).
  ///
  /// - Returns: the number of pages removed.
  @discardableResult
  package func removePages(notOf run: Int64, _ body: (String) -> Void) throws(StoreError) -> Int {
    try withOwnTransaction { (db) throws(StoreError) -> Int in
      try db.transaction { () throws(StoreError) -> Int in
        var removed = 0
        try db.forEachRow("SELECT url FROM pages WHERE run IS NOT ?1 ORDER BY rowid", [.integer(run)]) {
          row in
          guard let url = row[0].text else { return }
          removed += 1
          body(url)
        }
        guard removed > 0 else { return 0 }
        try db.query("DELETE FROM pages WHERE run IS NOT ?1", [.integer(run)])
        // A set is used when a record (good or current) names its first variant's blob: the paths are
        // content-addressed, so the first one identifies the set. NULLs are left out of the list, as
        // `NOT IN` a list holding NULL is never true.
        try db.execute(
          """
          DELETE FROM thumbnails WHERE json_extract(result, '$.variants[0].path') NOT IN (
            SELECT path FROM (
              SELECT json_extract(good, '$.image.variants[0].path') AS path FROM pages
              UNION SELECT json_extract(good, '$.icon.variants[0].path') FROM pages
              UNION SELECT json_extract(current, '$.image.variants[0].path') FROM pages
              UNION SELECT json_extract(current, '$.icon.variants[0].path') FROM pages)
            WHERE path IS NOT NULL)
          """)
        return removed
      }
    }
  }

  /// `json` in the current manifest shape: a version 1 record (saved by an older thumbify, e.g. in a
  /// run resumed after an upgrade) is decoded and written again, so a manifest never mixes versions.
  static func currentJSON(_ json: String) -> String {
    // Sorted keys put `schema` last but `url` in version 1, and a string value has its quotes
    // escaped, so this pattern appears only there.
    let pattern = Self.versionOnePattern
    let isVersion1 = json.utf8.withContiguousStorageIfAvailable { bytes in
      guard bytes.count >= pattern.count else { return false }
      for start in 0...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
        if bytes[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
      }
      return false
    }
    guard isVersion1 ?? true, let record = decode(json) else { return json }
    return encode(record)
  }

  private static let versionOnePattern = Array(#","schema":1,"url":""#.utf8)

  /// Whether the last `forEachRecord` walk handed over the record of the URL whose card key is `key`.
  package func isListed(_ key: CardKey) throws(StoreError) -> Bool {
    try withDatabase { (db) throws(StoreError) -> Bool in
      !(try db.query("SELECT 1 FROM manifest_keys WHERE key = ?1", [.blob(key.bytes)])).isEmpty
    }
  }

  /// Every blob path referenced by any record or thumbnail set the state holds.
  package func referencedBlobPaths(_ body: (String) -> Void) throws(StoreError) {
    try withDatabase { (db) throws(StoreError) in
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
}
