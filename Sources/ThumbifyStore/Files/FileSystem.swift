import Foundation
import Synchronization
import ThumbifySystem

/// The POSIX file calls the store and manifests make, each failure turned
/// into a `StoreError` carrying `strerror(errno)`.
package enum FileSystem {
  /// `mkdir -p`: creates `path` and any missing parents (mode 0755).
  package static func makeDirectories(_ path: String) throws(StoreError) {
    if isDirectory(path) { return }
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component
      if mkdir(prefix, 0o755) != 0, errno != EEXIST {
        throw SystemCall.error("create directory", prefix)
      }
      if !isDirectory(prefix) {
        throw .io(path: prefix, operation: "create directory", message: SystemCall.message(ENOTDIR))
      }
      prefix += "/"
    }
  }

  /// Writes `bytes` to a new file beside `path`, `fsync`s it and puts it in place of
  /// `path`: readers see the old file or the new one, never a torn one.
  ///
  /// The temporary file is unnamed (`O_TMPFILE`) and linked into place once written, so a process
  /// killed part-way leaves nothing behind, and a new `path` costs one directory entry instead of a
  /// temporary name created and renamed away (a crawl writes a card file per URL). When `path`
  /// exists the file is linked at a temporary name and renamed over it. File systems without
  /// `O_TMPFILE` (or a process without `/proc`) get a named temporary file (`mkstemp`) instead.
  ///
  /// With `isDurable` false the `fsync` is skipped: the replacement is still atomic for readers and
  /// survives the process being killed, but a power cut may leave the new file empty. For files that
  /// are derived from a durable one and rewritten when their bytes differ (cards from the manifest).
  package static func writeAtomically(_ bytes: [UInt8], to path: String, isDurable: Bool = true)
    throws(StoreError)
  {
    let directory = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? "."
    if try writeLinked(bytes, to: path, in: directory, isDurable: isDurable) { return }
    var template = Array((directory + "/.tmp-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw SystemCall.error("create a temporary file in", directory) }
    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var isRenamed = false
    defer {
      if !isRenamed { unlink(temporary) }
    }
    do {
      defer { close(descriptor) }
      try finish(descriptor, writing: bytes, isDurable: isDurable, path: temporary)
    }
    guard rename(temporary, path) == 0 else { throw SystemCall.error("rename a temporary file to", path) }
    isRenamed = true
  }

  /// Seconds after which a `.tmp-*` file of `writeAtomically` is taken for a killed writer's: a live
  /// write links its temporary name and renames it within microseconds of writing its bytes.
  package static let temporaryFileAge: Double = 600

  /// Removes the regular files named `.tmp-*` in `directory` (not below it) that were last modified
  /// at least `age` seconds before `now`: the temporary names `writeAtomically` leaves when it is
  /// killed between linking and renaming (issue 21: the served tree must not keep them). For a caller
  /// holding the run lock; returns how many were removed.
  @discardableResult
  package static func removeStaleTemporaries(
    in directory: String, olderThan age: Double = temporaryFileAge, now: Double = Date().timeIntervalSince1970
  ) -> Int {
    guard let entries = try? DirectoryEntries(directory) else { return 0 }
    var removed = 0
    while let name = try? entries.next() {
      guard name.hasPrefix(".tmp-") else { continue }
      let path = FilePath(directory).appending(name).string
      var status = stat()
      guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
        now - Double(status.st_mtim.tv_sec) >= age
      else { continue }
      if unlink(path) == 0 { removed += 1 }
    }
    return removed
  }

  /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`; Glibc's macro does not import into Swift).
  private static let temporaryFileFlag: Int32 = 0o20_000_000 | O_DIRECTORY

  /// The `O_TMPFILE` half of `writeAtomically`: false, with nothing visible written, when the file
  /// system or the process cannot do it (the caller then uses a named temporary file, which also
  /// reports any error that is not about `O_TMPFILE`).
  static func writeLinked(_ bytes: [UInt8], to path: String, in directory: String, isDurable: Bool)
    throws(StoreError) -> Bool
  {
    let descriptor = open(directory, temporaryFileFlag | O_WRONLY | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    try finish(descriptor, writing: bytes, isDurable: isDurable, path: path)
    if link(descriptor, to: path) { return true }
    guard errno == EEXIST else { return false }
    for _ in 0..<8 {
      let temporary = directory + "/.tmp-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
      guard link(descriptor, to: temporary) else {
        if errno == EEXIST { continue }
        return false
      }
      guard rename(temporary, path) == 0 else {
        let failure = SystemCall.error("rename a temporary file to", path)
        unlink(temporary)
        throw failure
      }
      return true
    }
    return false
  }

  /// Whether `linkat(descriptor, "", …, AT_EMPTY_PATH)` may work in this process; cleared the first time
  /// it fails where the `/proc/self/fd` path works.
  private static let linksDescriptors = Atomic<Bool>(true)

  /// `AT_EMPTY_PATH` (Glibc defines it only with `_GNU_SOURCE`).
  private static let emptyPathFlag: Int32 = 0x1000

  /// Gives the unnamed file open at `descriptor` the name `path` (false with `errno` set when it cannot).
  ///
  /// Linux 6.10 and later link a descriptor for any process (`AT_EMPTY_PATH`); before that only with
  /// `CAP_DAC_READ_SEARCH`, and others name it by its `/proc/self/fd` path. That path costs a lookup
  /// through `/proc` per file: ~1 % of a crawl's CPU, which links a card file per URL.
  private static func link(_ descriptor: Int32, to path: String) -> Bool {
    if linksDescriptors.load(ordering: .relaxed) {
      if linkat(descriptor, "", AT_FDCWD, path, emptyPathFlag) == 0 { return true }
      guard errno == ENOENT || errno == EPERM else { return false }
    }
    let linked = linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0
    if linked { linksDescriptors.store(false, ordering: .relaxed) }
    return linked
  }

  /// Writes all of `bytes` to a new file, makes it 0644 and, when `isDurable`, flushes it to disk.
  private static func finish(_ descriptor: Int32, writing bytes: [UInt8], isDurable: Bool, path: String)
    throws(StoreError)
  {
    guard bytes.withUnsafeBytes({ SystemCall.writeAll(descriptor, $0) }) else {
      throw SystemCall.error("write", path)
    }
    guard fchmod(descriptor, 0o644) == 0 else { throw SystemCall.error("set permissions of", path) }
    guard !isDurable || fsync(descriptor) == 0 else { throw SystemCall.error("flush", path) }
  }

  /// Whether `path` is known to hold nothing: it does not exist, or it is a directory with no entry
  /// besides `.` and `..` (false when it cannot be read). Reads at most three entries.
  package static func isMissingOrEmpty(_ path: String) -> Bool {
    let entries: DirectoryEntries
    do {
      entries = try DirectoryEntries(path)
    } catch {
      return error == .noSuchFileOrDirectory
    }
    do {
      return try entries.next() == nil
    } catch {
      return false
    }
  }

  /// Whether the regular file at `path` holds exactly `bytes` (false when it is missing or unreadable).
  ///
  /// A file of another size is not read.
  package static func fileHolds(_ bytes: [UInt8], at path: String) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
      Int(status.st_size) == bytes.count
    else { return false }
    var contents = [UInt8](repeating: 0, count: bytes.count)
    var offset = 0
    while offset < contents.count {
      let count = contents.withUnsafeMutableBytes {
        SystemCall.read(descriptor, into: $0.baseAddress! + offset, count: $0.count - offset)
      }
      guard count > 0 else { return false }
      offset += count
    }
    // One more byte means the file grew since `fstat`.
    var extra: UInt8 = 0
    return read(descriptor, &extra, 1) == 0 && contents == bytes
  }

  package static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }
}

extension FileSystem {
  /// The contents of the file at `path`, refusing files larger than `limit` bytes before reading them.
  ///
  /// - Throws: `StoreError.io` with `strerror(errno)` when the file cannot be
  ///   opened or read, or is larger than `limit` (`EFBIG`).
  package static func readFile(_ path: String, limit: Int) throws(StoreError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw SystemCall.error("read", path) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw SystemCall.error("read", path) }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      throw .io(path: path, operation: "read", message: SystemCall.message(EISDIR))
    }
    // A regular file is read straight into an array of its size (no chunk copies, no
    // regrowth); the loop below still catches a file that grew, and pipes.
    var bytes: [UInt8] = []
    if (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0, status.st_size <= limit {
      var failure: Int32 = 0
      bytes = [UInt8](unsafeUninitializedCapacity: Int(status.st_size)) { buffer, filled in
        filled = 0
        while filled < buffer.count {
          let count = SystemCall.read(
            descriptor, into: buffer.baseAddress! + filled, count: buffer.count - filled)
          if count < 0 { failure = errno }
          if count <= 0 { break }
          filled += count
        }
      }
      if failure != 0 {
        errno = failure
        throw SystemCall.error("read", path)
      }
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes {
        SystemCall.read(descriptor, into: $0.baseAddress!, count: $0.count)
      }
      if count < 0 { throw SystemCall.error("read", path) }
      if count == 0 { return bytes }
      if bytes.count + count > limit {
        throw .io(path: path, operation: "read", message: SystemCall.message(EFBIG))
      }
      bytes.append(contentsOf: chunk.prefix(count))
    }
  }
}
