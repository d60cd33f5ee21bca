import CLinux
import Foundation
import ThumbifySystem

/// Writes `manifest.jsonl` atomically: records go to a temp file that is fsynced and then renamed over
/// the old manifest, so a reader (or a crash) only ever sees the previous complete manifest or the new one.
package final class ManifestWriter {
  private let path: String
  private let temporaryPath: String
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  /// Bytes written to the file, and how many of them the kernel was asked to start writing back.
  private var bytesWritten = 0
  private var writebackStarted = 0
  /// Records written so far.
  package private(set) var count = 0

  /// Starts a new manifest that will replace the file at `path` when `commit()` is called.
  ///
  /// Call it holding the directory's run lock: it removes the temporary files of writers that were
  /// killed (``removeStaleTemporaries(of:)``).
  package init(path: String) throws(StoreError) {
    self.path = path
    temporaryPath = path + ".tmp-\(getpid())"
    Self.removeStaleTemporaries(of: path)
    descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw SystemCall.error("create", temporaryPath) }
  }

  deinit {
    close(descriptor)
    unlink(temporaryPath)
  }

  /// Removes `<path>.tmp-<pid>` files left by writers killed before they committed (issue 17: a kill
  /// during the manifest pass left one forever). Only for a caller holding the run lock, which no
  /// live writer of the directory can then hold; returns how many were removed.
  @discardableResult
  package static func removeStaleTemporaries(of path: String) -> Int {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) } ?? "."
    let prefix = (slash.map { String(path[path.index(after: $0)...]) } ?? path) + ".tmp-"
    // `/manifest.jsonl`'s directory is the root.
    let listed = FilePath(directory.isEmpty ? "/" : directory)
    guard let entries = try? DirectoryEntries(listed.string) else { return 0 }
    var removed = 0
    while let name = try? entries.next() {
      guard name.hasPrefix(prefix), name.dropFirst(prefix.count).allSatisfy(\.isNumber) else { continue }
      if unlink(listed.appending(name).string) == 0 { removed += 1 }
    }
    return removed
  }

  /// Appends one record as one line of JSON.
  package func append(_ record: CrawlRecord) throws(StoreError) {
    // JSONEncoder's bytes with sorted keys and unescaped slashes (`JSONWriter`).
    guard let data = try? JSONWriter.encode(record) else {
      throw .io(path: temporaryPath, operation: "encode a record for", message: "the record is not encodable")
    }
    try appendLine(data)
  }

  /// Appends one record already encoded as this writer would (sorted keys, unescaped slashes, one line).
  package func append(encoded json: String) throws(StoreError) {
    try appendLine(json.utf8)
  }

  private func appendLine(_ bytes: some Sequence<UInt8>) throws(StoreError) {
    buffer.append(contentsOf: bytes)
    buffer.append(0x0A)
    count += 1
    if buffer.count >= 1 << 16 { try flush() }
  }

  /// Flushes, fsyncs, and renames the temp file over the manifest; then fsyncs the directory.
  package func commit() throws(StoreError) {
    try flush()
    guard fsync(descriptor) == 0 else { throw SystemCall.error("sync", temporaryPath) }
    guard rename(temporaryPath, path) == 0 else { throw SystemCall.error("rename into", path) }
    let directory = FilePath(path).removingLastComponent().string
    let directoryDescriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY)
    if directoryDescriptor >= 0 {
      _ = fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }

  /// Commits (`commit()`) unless the manifest in place already holds exactly these bytes; then the
  /// temporary file is dropped and the manifest left untouched (its modification time stays): a
  /// rerun over the same inputs writes nothing new.
  ///
  /// - Returns: whether the manifest was replaced.
  @discardableResult
  package func commitIfChanged() throws(StoreError) -> Bool {
    try flush()
    if Self.sameContents(temporaryPath, path) { return false }
    try commit()
    return true
  }

  /// Whether the files at `a` and `b` exist and hold the same bytes (read in 64 KB pieces).
  private static func sameContents(_ a: String, _ b: String) -> Bool {
    let first = open(a, O_RDONLY | O_CLOEXEC)
    guard first >= 0 else { return false }
    defer { close(first) }
    let second = open(b, O_RDONLY | O_CLOEXEC)
    guard second >= 0 else { return false }
    defer { close(second) }
    var one = stat()
    var two = stat()
    guard fstat(first, &one) == 0, fstat(second, &two) == 0, one.st_size == two.st_size else { return false }
    var left = [UInt8](repeating: 0, count: 1 << 16)
    var right = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = left.withUnsafeMutableBytes {
        SystemCall.read(first, into: $0.baseAddress!, count: $0.count)
      }
      guard count >= 0 else { return false }
      if count == 0 { return true }
      var filled = 0
      while filled < count {
        let got = right.withUnsafeMutableBytes {
          SystemCall.read(second, into: $0.baseAddress! + filled, count: count - filled)
        }
        guard got > 0 else { return false }
        filled += got
      }
      guard left[..<count] == right[..<count] else { return false }
    }
  }

  private func flush() throws(StoreError) {
    guard buffer.withUnsafeBytes({ SystemCall.writeAll(descriptor, $0) }) else {
      throw SystemCall.error("write", temporaryPath)
    }
    bytesWritten += buffer.count
    buffer.removeAll(keepingCapacity: true)
    // Start writing back each 8 MB as it is written (sync_file_range, no waiting): the fsync in
    // `commit()` then waits for the last few MB instead of the whole manifest (0.44 s for the 200 MB
    // of a 100,000-URL crawl, at the end of the run). Advisory: a failure only leaves it to fsync.
    if bytesWritten - writebackStarted >= 8 << 20 {
      _ = thumbify_start_writeback(
        descriptor, Int64(writebackStarted), Int64(bytesWritten - writebackStarted))
      writebackStarted = bytesWritten
    }
  }
}
