import Foundation
import Testing
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyStore

@Suite("WAL checkpoints on a thread of their own", .offThePool)
struct WALCheckpointerTests {
  let directory = makeTemporaryDirectory("wal")
  var path: String { directory + "/state.sqlite" }

  func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
  }

  /// A WAL database with a table and `checkpointInBackground(backgroundPages:limitPages:)`.
  func open(backgroundPages: Int32, limitPages: Int32) throws -> SQLiteDatabase {
    let database = try SQLiteDatabase(path: path)
    try database.execute(
      """
      PRAGMA journal_mode=WAL;
      PRAGMA synchronous=NORMAL;
      CREATE TABLE IF NOT EXISTS rows(id INTEGER PRIMARY KEY, body TEXT NOT NULL);
      """)
    database.checkpointInBackground(backgroundPages: backgroundPages, limitPages: limitPages)
    return database
  }

  /// Commits `batches` transactions of 20 rows of ~1 KB each (~5 pages of 4 KB per commit).
  func write(_ database: SQLiteDatabase, batches: Int, from start: Int = 0) throws {
    let body = String(repeating: "x", count: 1_000)
    for batch in 0..<batches {
      try database.transaction { () throws(StoreError) in
        for row in 0..<20 {
          try database.query(
            "INSERT INTO rows(id, body) VALUES(?, ?)",
            [.integer(Int64(start + batch * 20 + row)), .text(body)])
        }
      }
    }
  }

  @Test func theLogIsCopiedInTheBackgroundAndStaysBounded() throws {
    defer { removeDirectory(directory) }
    // Given background checkpoints every 32 pages of log and a limit of 256 pages (1 MB),
    let database = try open(backgroundPages: 32, limitPages: 256)
    // when 400 transactions (~8 MB of rows) are committed,
    var largestLog = 0
    for round in 0..<40 {
      try write(database, batches: 10, from: round * 200)
      largestLog = max(largestLog, fileSize(path + "-wal"))
    }
    // then checkpoints ran on the checkpointer's thread without failing,
    let counts = try #require(database.checkpointer?.backgroundCheckpoints)
    #expect(counts.runs > 0)
    #expect(counts.failures == 0)
    #expect(counts.framesCopied > 0, "a background checkpoint copied frames")
    #expect(counts.flushes > 0, "and flushed them to the database file on its own thread")
    // the rows reached the database file before it was closed,
    #expect(fileSize(path) > 4 << 20)
    // and the log never grew far past the limit (1.5 MB: it is started afresh once fully copied).
    #expect(largestLog < 3 << 19, "the log reached \(largestLog) bytes")
  }

  @Test func everyCommittedRowIsThereAfterClosing() throws {
    defer { removeDirectory(directory) }
    do {
      let database = try open(backgroundPages: 8, limitPages: 64)
      try write(database, batches: 300)
    }
    let reopened = try SQLiteDatabase(path: path)
    #expect(try reopened.query("SELECT count(*) FROM rows").first?.first?.integer == 6_000)
    #expect(try reopened.query("PRAGMA integrity_check").first?.first?.text == "ok")
    #expect(fileSize(path + "-wal") == 0, "the last connection to close checkpointed and removed the log")
  }

  @Test func theStateStoreCheckpointsInTheBackground() throws {
    defer { removeDirectory(directory) }
    let state = try StateStore(path: path, groupCommit: .crawl)
    #expect(state.withDatabaseForTesting { $0.checkpointer } != nil)
  }
}
