import CSQLite
import Dispatch
import Synchronization

/// Checkpoints a WAL-mode database (copies its log into the database file and fsyncs both) on a
/// connection and thread of its own, so the connection that writes rarely waits for a checkpoint.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past
/// `wal_autocheckpoint` pages, on the committing thread. For the state store that thread holds the
/// store's Mutex, so the crawl's workers waited while 64 MB were copied and fsynced: a 100,000-URL
/// crawl made nine such checkpoints of ~0.8 s each (strace, from the log's fdatasync to the
/// database's), and its CPU use dipped at each. With this, those checkpoints take 0.1–0.25 s.
///
/// Installed on a connection (`sqlite3_wal_hook`, which replaces the automatic checkpoint), it is
/// told the log's size after each commit:
/// - every `backgroundPages` pages of growth it asks its own thread for a PASSIVE checkpoint, which
///   never blocks the writer (SQLite lets a checkpoint run beside a writing connection);
/// - at `limitPages` the committing connection waits for a running background checkpoint, then
///   checkpoints itself, as SQLite would. Most of the log has been copied by then, so this is short,
///   and it is what bounds the log: SQLite starts the log afresh only at a write that finds it fully
///   copied, which a checkpoint that runs while commits keep coming rarely achieves.
///
/// A background checkpoint that does not catch up with the log does not fsync the database (SQLite
/// syncs it when a checkpoint copies the whole log), and the log is never reused before such a
/// complete checkpoint, so a kill or power cut at any point loses nothing committed. The
/// checkpointer flushes what it copied itself, on its thread: otherwise the checkpoint at
/// `limitPages` flushed ~64 MB in the committing thread, 0.10–0.14 s each time with the workers
/// waiting (`strace -T`, ten times in a 100,000-URL crawl).
final class WALCheckpointer: Sendable {
  let path: String
  let backgroundPages: Int32
  let limitPages: Int32
  private let queue = DispatchQueue(label: "thumbify.sqlite.checkpoint")
  /// The log size (pages) at which the last background checkpoint was asked for, whether one is
  /// queued, and whether `close()` was called (no more are queued then).
  private let requests = Mutex<(lastPages: Int32, isQueued: Bool, isClosed: Bool)>((0, false, false))
  /// The checkpointing connection, opened on first use. Confined to `queue`.
  private nonisolated(unsafe) var connection: OpaquePointer?
  /// Background checkpoints run, skipped (SQLITE_BUSY), failed, the most log frames one left copied,
  /// and the flushes of the database file that followed them, for tests.
  private let counters = Mutex<Counts>(Counts())

  /// What `backgroundCheckpoints` reports.
  struct Counts {
    var runs = 0
    /// SQLITE_BUSY: another checkpoint held SQLite's checkpoint lock, or the writer was changing the
    /// log's index at that moment. Nothing is lost; the next checkpoint copies what this one did not.
    var skipped = 0
    var failures = 0
    var framesCopied = 0
    var flushes = 0
  }

  init(path: String, backgroundPages: Int32, limitPages: Int32) {
    self.path = path
    self.backgroundPages = max(1, backgroundPages)
    self.limitPages = max(self.backgroundPages, limitPages)
  }

  /// Makes `handle` report its commits here; the checkpointer must outlive the handle's use.
  func install(on handle: OpaquePointer) {
    let context = Unmanaged.passUnretained(self).toOpaque()
    sqlite3_wal_hook(
      handle,
      { context, handle, _, pages in
        guard let context, let handle else { return SQLITE_OK }
        Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(handle, pages: pages)
        return SQLITE_OK
      }, context)
  }

  /// After a commit on `handle`, whose log now holds `pages` pages.
  private func committed(_ handle: OpaquePointer, pages: Int32) {
    if pages >= limitPages {
      // A background checkpoint holds SQLite's checkpoint lock, which would make this one give up:
      // wait for it (it has copied most of the log), then do what SQLite's own hook does.
      queue.sync {}
      sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
      return
    }
    let isDue = requests.withLock { state -> Bool in
      if pages < state.lastPages { state.lastPages = 0 }  // the log was started afresh
      guard !state.isQueued, !state.isClosed, pages - state.lastPages >= backgroundPages else { return false }
      state.lastPages = pages
      state.isQueued = true
      return true
    }
    if isDue { queue.async { self.checkpointInBackground() } }
  }

  private func checkpointInBackground() {
    defer { requests.withLock { $0.isQueued = false } }
    if connection == nil {
      var db: OpaquePointer?
      // A connection that has not read the database yet has not opened its log, and a checkpoint on
      // it does nothing (and reports success): read the schema once.
      var status = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
      if status == SQLITE_OK {
        status = sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", nil, nil, nil)
      }
      guard status == SQLITE_OK else {
        sqlite3_close(db)
        counters.withLock { Self.count(status, in: &$0) }
        return
      }
      connection = db
    }
    var copied: Int32 = 0
    let status = sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, &copied)
    let isFlushed = status == SQLITE_OK && copied > 0 && flushDatabaseFile()
    counters.withLock {
      $0.runs += 1
      Self.count(status, in: &$0)
      $0.framesCopied = max($0.framesCopied, Int(copied))
      if isFlushed { $0.flushes += 1 }
    }
  }

  /// Counts a status other than SQLITE_OK as skipped (busy) or failed.
  private static func count(_ status: Int32, in counts: inout Counts) {
    if status & 0xff == SQLITE_BUSY {
      counts.skipped += 1
    } else if status != SQLITE_OK {
      counts.failures += 1
    }
  }

  /// fsyncs the database file through SQLite's own file handle (`xSync`): a second descriptor of our
  /// own, once closed, would drop the POSIX locks SQLite holds on the file.
  private func flushDatabaseFile() -> Bool {
    var file: UnsafeMutablePointer<sqlite3_file>?
    guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
      let file, let sync = file.pointee.pMethods?.pointee.xSync
    else { return false }
    return sync(file, SQLITE_SYNC_NORMAL) == SQLITE_OK
  }

  /// Waits for a queued checkpoint and closes the checkpointing connection; call before closing the
  /// database, so that the writing connection is the last one and checkpoints what is left.
  func close() {
    requests.withLock { $0.isClosed = true }
    queue.sync {
      sqlite3_close(connection)
      connection = nil
    }
  }

  /// For tests: background checkpoints run so far, how many were skipped or failed, the most frames
  /// of the log one of them left copied, and how many flushed the database file.
  var backgroundCheckpoints: Counts {
    queue.sync {}
    return counters.withLock { $0 }
  }
}
