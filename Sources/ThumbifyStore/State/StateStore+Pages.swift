import Dispatch
import Foundation
import Synchronization
import ThumbifySystem

// The state database's pages: each URL's validators and record, the manifest walk and the card keys it remembers.
extension StateStore {
  /// What is known about the page at `url` (normalized).
  public func page(_ url: String) throws(StoreError) -> PageState {
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
  /// The write joins the open batch (`GroupCommit`): it is durable once that batch is committed.
  ///
  /// - Throws: `StoreError` when the write fails, or the batch's commit, or an earlier commit.
  public func savePage(
    _ url: String, record: CrawlRecord, run: Int64, isGood: Bool, etag: String?, lastModified: String?,
    fetchedAt: Double?
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
    while let url = next() {
      let stored = try withDatabase { (db) throws(StoreError) -> StoredRecord? in
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
          normalizedURL: url, json: Self.currentJSON(json),
          outcome: row[1].text.flatMap(CrawlRecord.Outcome.init(rawValue:)),
          hasImageFailure: row[2].integer.map { $0 != 0 })
      }
      if let stored { try body(stored) }
    }
    try withConnection { (connection) throws(StoreError) in
      try connection.run { (db) throws(StoreError) in try db.execute("COMMIT") }
      connection.isWalking = false
    }
    isCommitted = true
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
  public func isListed(_ key: CardKey) throws(StoreError) -> Bool {
    try withDatabase { (db) throws(StoreError) -> Bool in
      !(try db.query("SELECT 1 FROM manifest_keys WHERE key = ?1", [.blob(key.bytes)])).isEmpty
    }
  }

  /// Every blob path referenced by any record or thumbnail set the state holds.
  public func referencedBlobPaths(_ body: (String) -> Void) throws(StoreError) {
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
