import Foundation
import ThumbifySystem

extension StateStore {
  /// When the store commits its writes.
  ///
  /// `savePage`, `saveImage` and `saveThumbnails` go into one open transaction, committed when it holds
  /// `maxWrites` writes or has been open for `maxDelay` (checked at each write, and by a timer, so an
  /// idle batch — a crawl waiting on slow hosts — is committed about `maxDelay` after it began), by
  /// `flush()`, by every operation that needs its own transaction (`beginRun`, `finishRun`,
  /// `forEachRecord`, `saveRobotsEntries`), and when the store is released. A commit writes each dirty
  /// page once however many writes touched it, and takes SQLite's locks once.
  ///
  /// A kill loses the open batch, never part of it, and never an earlier one. A failed commit (or a
  /// write SQLite answered by rolling the batch back) fails the store: that call and every later one
  /// throws `StoreError.database`, so work whose save was lost is never reported as saved.
  package struct GroupCommit: Sendable, Equatable {
    /// The writes a batch holds before it is committed; 1 commits every write before it returns.
    package var maxWrites: Int
    /// How long a batch stays open at most (give or take the wait for the store's lock).
    package var maxDelay: Duration

    package init(maxWrites: Int, maxDelay: Duration) {
      self.maxWrites = max(1, maxWrites)
      self.maxDelay = maxDelay
    }

    /// Every write is its own transaction, committed before it returns.
    package static let immediate = GroupCommit(maxWrites: 1, maxDelay: .zero)
    /// The crawl's: a batch is committed at 64 writes (a page's record, an image's state, a thumbnail set
    /// are one write each) or after 50 ms.
    package static let crawl = GroupCommit(maxWrites: 64, maxDelay: .milliseconds(50))
  }

  final class Connection: @unchecked Sendable {
    // Guarded by the enclosing StateStore's Mutex: every use goes through `withConnection`.
    let database: SQLiteDatabase
    let groupCommit: GroupCommit
    /// The open batch: its number (a timer commits only the batch it was set for), when it began, its writes.
    var batch: (number: UInt64, opened: ContinuousClock.Instant, writes: Int)?
    var batchesBegun: UInt64 = 0
    /// True while `forEachRecord`'s walk owns the open transaction: writes join it, nothing else commits it.
    var isWalking = false
    /// The failure that lost uncommitted writes: every later call throws it, so no caller believes
    /// its work saved (the run fails, and the next one redoes what was lost).
    var failure: StoreError?

    init(_ database: SQLiteDatabase, groupCommit: GroupCommit) {
      self.database = database
      self.groupCommit = groupCommit
    }

    deinit {
      if batch != nil { try? database.execute("COMMIT") }
    }

    /// Runs `body` unless the store has failed; when `body` fails and SQLite rolled back the open batch
    /// or walk with it, the store fails from then on.
    func run<T>(_ body: (SQLiteDatabase) throws(StoreError) -> T) throws(StoreError) -> T {
      if let failure { throw failure }
      do {
        return try body(database)
      } catch {
        guard batch != nil || isWalking, !database.isInTransaction else { throw error }
        throw fail(error)
      }
    }

    /// Commits the open batch, if any; a failed commit rolls it back and fails the store.
    func commit() throws(StoreError) {
      if let failure { throw failure }
      guard batch != nil else { return }
      do {
        try database.execute("COMMIT")
        batch = nil
      } catch {
        if database.isInTransaction { try? database.execute("ROLLBACK") }
        throw fail(error)
      }
    }

    private func fail(_ error: StoreError) -> StoreError {
      let lost = batch.map { " (\($0.writes) uncommitted writes were lost)" } ?? ""
      batch = nil
      isWalking = false
      let failure: StoreError =
        switch error {
        case .database(let path, let message): .database(path: path, message: message + lost)
        default: error
        }
      self.failure = failure
      return failure
    }
  }
}
