/// Why the output directory — its blobs, manifest, cards, state database or run lock — could not be
/// used: the one storage error of the package, from the file-system funnel up to the crawl job (the CLI
/// exits 70 on it).
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A file-system call failed; `message` is `strerror(errno)` or the library's own sentence.
  case io(path: String, operation: String, message: String)
  /// The crawl state database failed; `message` is SQLite's own (`sqlite3_errmsg`).
  case database(path: String, message: String)
  /// A line of a manifest (`manifest.jsonl`) is not a crawl record.
  case malformedLine(path: String, line: Int, message: String)
  /// A line of a manifest is longer than `limit` bytes.
  case lineTooLong(path: String, line: Int, limit: Int)
  /// Another live process holds the directory's run lock (`pid` when it wrote one).
  case locked(directory: String, pid: Int32?)
  /// Pruning would remove more of the known URLs than its limit allows (`limit` as given, `20%`):
  /// nothing was removed or replaced.
  case pruneRefused(removing: Int, known: Int, limit: String)

  /// A stable code: `storageFailed`, `stateFailed`, `malformedManifest`, `locked` or `pruneRefused`.
  public var code: String {
    switch self {
    case .io: "storageFailed"
    case .database: "stateFailed"
    case .malformedLine, .lineTooLong: "malformedManifest"
    case .locked: "locked"
    case .pruneRefused: "pruneRefused"
    }
  }

  public var description: String {
    switch self {
    case .io(let path, let operation, let message): "Could not \(operation) '\(path)': \(message)"
    case .database(let path, let message): "The crawl state database '\(path)' failed: \(message)"
    case .malformedLine(let path, let line, let message):
      "Line \(line) of '\(path)' is not a crawl record: \(message)"
    case .lineTooLong(let path, let line, let limit):
      "Line \(line) of '\(path)' is longer than \(limit) bytes."
    case .locked(let directory, let pid?):
      "Another thumbify run (pid \(pid)) is using '\(directory)'; wait for it to finish."
    case .locked(let directory, nil): "Another thumbify run is using '\(directory)'; wait for it to finish."
    case .pruneRefused(let removing, let known, let limit):
      "Pruning would remove \(removing) of the \(known) known URLs, more than the limit of \(limit); "
        + "nothing was removed."
    }
  }
}
