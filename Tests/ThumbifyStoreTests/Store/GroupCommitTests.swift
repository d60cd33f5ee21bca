import Foundation
import Synchronization
import Testing
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyStore

/// Group commit: the state's writes share one open transaction, committed by count, by age (also
/// when no write comes) and by `flush()`; what another connection sees is what is committed.
@Suite("State database group commit", .offThePool)
struct GroupCommitTests {
  let directory = makeTemporaryDirectory("group-commit")
  var path: String { directory + "/state.sqlite" }

  static func record(_ url: String, _ outcome: CrawlRecord.Outcome = .ok) -> CrawlRecord {
    CrawlRecord(originalURL: url, normalizedURL: url, outcome: outcome)
  }

  func save(_ state: StateStore, _ url: String, run: Int64 = 1) throws(StoreError) {
    try state.savePage(
      url, record: Self.record(url), run: run, isGood: true, etag: nil, lastModified: nil, fetchedAt: 1)
  }

  /// The pages another connection sees (what is committed).
  func committedPages(in database: String? = nil) throws -> Int64 {
    let other = try SQLiteDatabase(path: database ?? path)
    return try other.query("SELECT count(*) FROM pages").first?.first?.integer ?? -1
  }

  /// Polls `committedPages()` until it is `count` or `timeout` seconds passed.
  func waitForCommittedPages(_ count: Int64, timeout: Double = 5) async throws -> Int64 {
    let deadline = Date().addingTimeInterval(timeout)
    var seen = try committedPages()
    while seen != count, Date() < deadline {
      try await Task.sleep(for: .milliseconds(10))
      seen = try committedPages()
    }
    return seen
  }

  @Test func aBatchIsCommittedWhenItHoldsMaxWrites() throws {
    defer { removeDirectory(directory) }
    // Given a store committing every 3 writes (and never by age),
    let state = try StateStore(path: path, groupCommit: .init(maxWrites: 3, maxDelay: .seconds(3600)))
    // when two pages are saved, another connection sees none, and the store itself sees both;
    try save(state, "http://a.test/")
    try save(state, "http://b.test/")
    #expect(try committedPages() == 0)
    #expect(try state.page("http://b.test/").current == Self.record("http://b.test/"))
    // then the third write commits all three.
    try save(state, "http://c.test/")
    #expect(try committedPages() == 3)
  }

  @Test func anIdleBatchIsCommittedAfterMaxDelayWithoutFurtherWrites() async throws {
    defer { removeDirectory(directory) }
    // Given a store batching up to 1,000 writes or 50 ms,
    let state = try StateStore(path: path, groupCommit: .init(maxWrites: 1000, maxDelay: .milliseconds(50)))
    // when one page is saved and nothing else happens (a stalled crawl),
    try save(state, "http://a.test/")
    #expect(try committedPages() == 0)
    // then the batch is committed shortly after 50 ms all the same.
    #expect(try await waitForCommittedPages(1, timeout: 30) == 1)
    withExtendedLifetime(state) {}
  }

  @Test func flushAndClosingCommitTheOpenBatch() throws {
    defer { removeDirectory(directory) }
    var state: StateStore? = try StateStore(
      path: path, groupCommit: .init(maxWrites: 1000, maxDelay: .seconds(3600)))
    try save(state!, "http://a.test/")
    try state!.flush()
    #expect(try committedPages() == 1)
    try save(state!, "http://b.test/")
    #expect(try committedPages() == 1)
    state = nil
    #expect(try committedPages() == 2)
  }

  @Test func runsWalksAndRobotsCommitTheOpenBatchFirst() throws {
    defer { removeDirectory(directory) }
    // Given a store with a batch open,
    let state = try StateStore(path: path, groupCommit: .init(maxWrites: 1000, maxDelay: .seconds(3600)))
    let run = try state.beginRun(options: "v1", now: 1)
    try save(state, "http://a.test/", run: run.id)
    // a run, the robots entries and a manifest walk all work (each in its own transaction),
    #expect(try state.beginRun(options: "v1", now: 2) == StateStore.Run(id: run.id, isResumed: true))
    try save(state, "http://b.test/", run: run.id)
    try state.saveRobotsEntries(["a.test": "{}"])
    try save(state, "http://c.test/", run: run.id)
    var urls = ["http://a.test/", "http://b.test/", "http://c.test/"].makeIterator()
    var walked: [String] = []
    try state.forEachRecord(of: run.id, in: { urls.next() }, { walked.append($0.normalizedURL) })
    #expect(walked == ["http://a.test/", "http://b.test/", "http://c.test/"])
    try save(state, "http://d.test/", run: run.id)
    try state.finishRun(run.id, now: 3)
    // and everything before each of them is committed by it.
    #expect(try committedPages() == 4)
    let other = try SQLiteDatabase(path: path)
    #expect(try other.query("SELECT finished_at FROM runs").first?.first == .real(3))
    #expect(try other.query("SELECT host FROM robots").first?.first == .text("a.test"))
  }

  @Test func aFailingCommitThrowsAndEveryLaterOperationThrows() throws {
    defer { removeDirectory(directory) }
    // Given a store committing every 2 writes whose commits fail (as on a full disk),
    let state = try StateStore(path: path, groupCommit: .init(maxWrites: 2, maxDelay: .seconds(3600)))
    try save(state, "http://a.test/")
    state.withDatabaseForTesting { $0.makeCommitsFail(true) }
    // when the second write commits the batch, it throws,
    #expect(throws: StoreError.self) { try save(state, "http://b.test/") }
    // and so does everything after it: the first page's save was lost, nothing may report success.
    state.withDatabaseForTesting { $0.makeCommitsFail(false) }
    #expect(throws: StoreError.self) { try state.flush() }
    #expect(throws: StoreError.self) { try save(state, "http://c.test/") }
    #expect(throws: StoreError.self) { try state.page("http://a.test/") }
    #expect(try committedPages() == 0)
  }

  @Test func aFailingIdleCommitIsThrownByTheNextOperation() async throws {
    defer { removeDirectory(directory) }
    // Given a store whose idle batch is committed by its timer after 20 ms, and commits fail,
    let state = try StateStore(path: path, groupCommit: .init(maxWrites: 1000, maxDelay: .milliseconds(20)))
    state.withDatabaseForTesting { $0.makeCommitsFail(true) }
    try save(state, "http://a.test/")
    // when the timer's commit has failed (no transaction is left open),
    let deadline = Date().addingTimeInterval(30)
    while state.withDatabaseForTesting({ $0.isInTransaction }), Date() < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    state.withDatabaseForTesting { $0.makeCommitsFail(false) }
    // then the next flush throws instead of reporting the save as done.
    #expect(throws: StoreError.self) { try state.flush() }
    #expect(try committedPages() == 0)
  }

  @Test func aStatementThatRollsBackTheBatchFailsTheStore() throws {
    defer { removeDirectory(directory) }
    // Given a store with a batch open, and a write SQLite answers by rolling back the whole transaction
    // (as it does on SQLITE_FULL or an I/O error),
    let state = try StateStore(path: path, groupCommit: .init(maxWrites: 1000, maxDelay: .seconds(3600)))
    try SQLiteDatabase(path: path).execute(
      """
      CREATE TRIGGER fail AFTER INSERT ON pages WHEN NEW.url = 'http://bad.test/'
      BEGIN SELECT RAISE(ROLLBACK, 'simulated failure'); END;
      """)
    try save(state, "http://a.test/")
    // when that write fails,
    #expect(throws: StoreError.self) { try save(state, "http://bad.test/") }
    // then the store fails from then on: the batch (with the first page) is gone, no later write or
    // flush may succeed.
    #expect(throws: StoreError.self) { try save(state, "http://c.test/") }
    #expect(throws: StoreError.self) { try state.flush() }
    #expect(try committedPages() == 0)
  }

  @Test func concurrentSavesFromManyTasksAllLand() async throws {
    defer { removeDirectory(directory) }
    // Given a store with small batches and a short delay, shared by 16 tasks saving 100 pages each,
    let state = try StateStore(path: path, groupCommit: .init(maxWrites: 7, maxDelay: .milliseconds(2)))
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<16 {
        group.addTask {
          for index in 0..<100 {
            let url = "http://t\(task).test/\(index)"
            try save(state, url)
            // each task reads its own write back (same connection, open batch or not),
            #expect(try state.page(url).current?.normalizedURL == url)
            if index % 10 == 0 { try state.saveImage(url, state: StateStore.ImageState(etag: "\(index)")) }
          }
        }
      }
      try await group.waitForAll()
    }
    // then after a flush every page and image is committed.
    try state.flush()
    #expect(try committedPages() == 1600)
    let other = try SQLiteDatabase(path: path)
    #expect(try other.query("SELECT count(*) FROM images").first?.first == .integer(160))
  }
}
