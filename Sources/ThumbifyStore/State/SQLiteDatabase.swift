import CSQLite
import Foundation
import ThumbifySystem

/// A SQLite connection: owns the `sqlite3` handle and funnels every return code into `StoreError`.
///
/// Not thread-safe on its own: `StateStore` guards it with a Mutex (and groups its writes into batches).
final class SQLiteDatabase {
  /// One value bound to a `?` parameter or read from a column.
  enum Value: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
  }

  let path: String
  private let handle: OpaquePointer
  private var statements: [String: OpaquePointer] = [:]
  /// Set by `checkpointInBackground()`.
  private(set) var checkpointer: WALCheckpointer?

  /// Opens (creating if needed) the database at `path`.
  ///
  /// The corresponding C function is `sqlite3_open_v2`.
  init(path: String) throws(StoreError) {
    self.path = path
    handle = try Self.open(path, as: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
  }

  /// Opens the existing database at `path` for reading only, writing nothing beside it: a database
  /// without a write-ahead log (closed cleanly) is opened `immutable` (no lock or shared-memory file is
  /// created); one with a log is opened `mode=ro`, which reads the log (SQLite may then need its
  /// `-shm` file).
  ///
  /// The corresponding C function is `sqlite3_open_v2` with `SQLITE_OPEN_READONLY | SQLITE_OPEN_URI`.
  init(readingOnly path: String) throws(StoreError) {
    self.path = path
    var status = stat()
    guard stat(path, &status) == 0 else {
      throw StoreError.database(path: path, message: SystemCall.message())
    }
    var log = stat()
    let hasLog = stat(path + "-wal", &log) == 0 && log.st_size > 0
    // A URI filename: `%`, `?` and `#` in the path would be read as its syntax.
    let escaped = path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "?", with: "%3F")
      .replacingOccurrences(of: "#", with: "%23")
    let uri = "file:" + escaped + (hasLog ? "?mode=ro" : "?immutable=1")
    handle = try Self.open(path, as: uri, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
  }

  /// A connection to the database at `path`, opened by the name `filename` (the path or a URI) with
  /// `flags`, waiting up to 5 s for another connection's lock.
  private static func open(_ path: String, as filename: String, flags: Int32) throws(StoreError)
    -> OpaquePointer
  {
    var db: OpaquePointer?
    let status = sqlite3_open_v2(filename, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
    guard status == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
      sqlite3_close(db)
      throw StoreError.database(path: path, message: message)
    }
    sqlite3_busy_timeout(db, 5_000)
    return db
  }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    checkpointer?.close()  // so that this connection is the last and checkpoints what is left
    sqlite3_close(handle)
  }

  /// Replaces SQLite's automatic checkpoint (in the committing thread) with `WALCheckpointer`'s, which
  /// runs on a thread and connection of its own. For a database in WAL mode.
  func checkpointInBackground(backgroundPages: Int32 = 2_048, limitPages: Int32 = 16_384) {
    let checkpointer = WALCheckpointer(path: path, backgroundPages: backgroundPages, limitPages: limitPages)
    checkpointer.install(on: handle)
    self.checkpointer = checkpointer
  }

  /// Runs one or more statements without parameters.
  func execute(_ sql: String) throws(StoreError) {
    var error: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
      let message = error.map { String(cString: $0) } ?? lastError
      sqlite3_free(error)
      throw StoreError.database(path: path, message: message)
    }
  }

  /// Runs a statement with parameters and returns every row.
  @discardableResult
  func query(_ sql: String, _ parameters: [Value] = []) throws(StoreError) -> [[Value]] {
    var rows: [[Value]] = []
    try forEachRow(sql, parameters) { rows.append($0) }
    return rows
  }

  /// Runs a statement with parameters and hands each row to `body` as it is stepped (nothing accumulates).
  func forEachRow(_ sql: String, _ parameters: [Value] = [], _ body: ([Value]) -> Void) throws(StoreError) {
    let statement = try prepared(sql)
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    for (offset, parameter) in parameters.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch parameter {
      case .null: status = sqlite3_bind_null(statement, index)
      case .integer(let value): status = sqlite3_bind_int64(statement, index, value)
      case .real(let value): status = sqlite3_bind_double(statement, index, value)
      case .text(let value):
        status = value.withCString { thumbify_sqlite3_bind_text_transient(statement, index, $0, -1) }
      case .blob(let value):
        status = value.withUnsafeBytes {
          thumbify_sqlite3_bind_blob_transient(statement, index, $0.baseAddress, Int32($0.count))
        }
      }
      guard status == SQLITE_OK else { throw StoreError.database(path: path, message: lastError) }
    }
    while true {
      let status = sqlite3_step(statement)
      if status == SQLITE_DONE { break }
      guard status == SQLITE_ROW else { throw StoreError.database(path: path, message: lastError) }
      let count = sqlite3_column_count(statement)
      body((0..<count).map { column(statement, $0) })
    }
  }

  /// Runs `body` in one transaction, committed when it returns and rolled back when it throws.
  func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer {
    if let statement = statements[sql] { return statement }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw StoreError.database(path: path, message: lastError)
    }
    statements[sql] = statement
    return statement
  }

  private func column(_ statement: OpaquePointer, _ index: Int32) -> Value {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
    case SQLITE_NULL: return .null
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(statement, index))
      guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    default:
      guard let text = sqlite3_column_text(statement, index) else { return .null }
      return .text(String(cString: text))
    }
  }

  /// Whether a transaction is open: false again after COMMIT, ROLLBACK, or an error SQLite answered by
  /// rolling the whole transaction back (a full disk, an I/O error, `RAISE(ROLLBACK)`).
  ///
  /// The corresponding C function is `sqlite3_get_autocommit`.
  var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// For tests: makes every COMMIT fail and roll the transaction back (as a full disk would), or stops.
  ///
  /// The corresponding C function is `sqlite3_commit_hook`.
  func makeCommitsFail(_ isFailing: Bool) {
    if isFailing {
      sqlite3_commit_hook(handle, { _ in 1 }, nil)
    } else {
      sqlite3_commit_hook(handle, nil, nil)
    }
  }

  /// Rows the last INSERT, UPDATE or DELETE changed.
  ///
  /// The corresponding C function is `sqlite3_changes`.
  var changes: Int { Int(sqlite3_changes(handle)) }

  private var lastError: String { String(cString: sqlite3_errmsg(handle)) }
}

extension SQLiteDatabase.Value {
  var text: String? { if case .text(let value) = self { value } else { nil } }
  var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
  var real: Double? {
    switch self {
    case .real(let value): value
    case .integer(let value): Double(value)
    default: nil
    }
  }
}
