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

  /// A background checkpoint that finds another one running gets SQLITE_BUSY and is skipped: nothing
  /// failed, the next one copies the log. It counted as a failure before (a suite run on an idle
  /// machine saw one: another checkpoint, or the writer changing the log's index, at the same moment).
  /// Here another process holds SQLite's checkpoint lock (byte 121 of the -shm file: the locks start
  /// at 120, WAL_CKPT_LOCK is the second) for the first 20 commits.
  @Test func aCheckpointThatFindsAnotherRunningIsSkippedNotFailed() throws {
    defer { removeDirectory(directory) }
    // (opening made the table: the log and its -shm exist, and no checkpoint has copied anything)
    let database = try open(backgroundPages: 8, limitPages: 100_000)
    #expect(database.checkpointer?.backgroundCheckpoints.framesCopied == 0)
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    holder.arguments = [
      "-c",
      "import fcntl, os, sys\nfd = os.open(sys.argv[1], os.O_RDWR)\n"
        + "fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 121)\nprint('held', flush=True)\nsys.stdin.read()",
      path + "-shm",
    ]
    let output = Pipe()
    let input = Pipe()
    holder.standardOutput = output
    holder.standardInput = input
    try holder.run()
    defer { if holder.isRunning { holder.terminate() } }  // a failed expectation must not leave it waiting
    var held = Data()
    while !held.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { break }
      held += chunk
    }
    try #require(String(decoding: held, as: UTF8.self) == "held\n", "the lock was not taken")
    try write(database, batches: 20, from: 20)
    let whileHeld = try #require(database.checkpointer?.backgroundCheckpoints)
    try input.fileHandleForWriting.close()
    holder.waitUntilExit()
    try write(database, batches: 20, from: 420)
    let after = try #require(database.checkpointer?.backgroundCheckpoints)
    #expect(whileHeld.skipped > 0, "\(whileHeld)")
    #expect(whileHeld.failures == 0 && whileHeld.framesCopied == 0, "\(whileHeld)")
    #expect(after.failures == 0 && after.framesCopied > 0, "\(after)")
  }

  @Test func theStateStoreCheckpointsInTheBackground() throws {
    defer { removeDirectory(directory) }
    let state = try StateStore(path: path, groupCommit: .crawl)
    #expect(state.withDatabaseForTesting { $0.checkpointer } != nil)
  }
}
