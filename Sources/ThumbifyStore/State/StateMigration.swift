import Foundation
import ThumbifySystem

/// Moves a state directory of before issue 21 (`<out>/.thumbify`, inside the served tree) to the
/// layout's state directory, on the first run that finds it.
///
/// Crash-safe: a kill at any moment leaves the old directory or the new one complete.
/// 1. Takes the old lock (`<out>/.thumbify/lock`), so a still-running older thumbify is not disturbed
///    (it is refused as `StoreError.locked` instead).
/// 2. On one file system, one `rename(2)` of the whole directory: it is there or here.
/// 3. Across file systems (`EXDEV`), the files but the lock are copied into `<state>.tmp-<pid>` beside
///    the new directory, each fsynced, with ``OutputLayout/migrationRecord`` naming the old directory;
///    the copy is renamed into place, and only then is the old directory removed. A kill during the
///    copy leaves the old directory (the next run removes the partial copy and starts again); a kill
///    after the rename leaves the new one, whose record tells the next run to finish removing the old.
///
/// A new state directory that already holds a database wins: the old one is left, with a warning.
package enum StateMigration {
  /// What a migration did.
  package enum Outcome: Sendable, Equatable, CustomStringConvertible {
    /// There was no old state directory.
    case nothing
    /// The old directory was renamed (one file system) or copied and removed (`isCopied`).
    case moved(from: String, to: String, isCopied: Bool)
    /// An earlier run was killed after copying the old directory and before removing it; the rest of
    /// the old directory was removed now.
    case finishedRemoval(of: String)
    /// Both exist: the new one is used and the old one left alone.
    case keptBoth(old: String, new: String)

    /// One line for the log.
    package var description: String {
      switch self {
      case .nothing: "No state to move."
      case .moved(let from, let to, _): "Moved the crawl state from '\(from)' to '\(to)'."
      case .finishedRemoval(let old):
        "Removed '\(old)', the old copy of a crawl state an earlier run moved."
      case .keptBoth(let old, let new):
        "Warning: the old crawl state '\(old)' was left alone: the state '\(new)' already exists and is "
          + "used. Remove the old directory (it is inside the served output directory)."
      }
    }

    /// Whether it is a warning rather than news.
    package var isWarning: Bool {
      if case .keptBoth = self { return true }
      return false
    }
  }

  /// The points after which tests stop a migration as a kill would (no cleanup runs).
  package enum Step: Sendable, Equatable {
    /// Some files copied into the temporary directory.
    case copiedOneFile
    /// Everything copied and synced, not yet renamed into place.
    case copied
    /// The copy renamed into place; the old directory not yet removed.
    case renamed
    /// Some of the old directory's files removed.
    case removedOneFile
  }

  /// Moves `layout.legacyStateDirectory` to `layout.stateDirectory` when there is one to move.
  ///
  /// - Parameters:
  ///   - forceCopy: copy even on one file system (tests of the cross-file-system path).
  ///   - stoppingAfter: returns `nil` at that step, as a kill there would leave things (tests).
  /// - Throws: `StoreError.locked` when a run holds the old (or the new) directory; `.io` when a
  ///   file cannot be moved.
  @discardableResult
  package static func run(_ layout: OutputLayout) throws(StoreError) -> Outcome {
    try run(layout, forceCopy: false, stoppingAfter: nil) ?? .nothing
  }

  package static func run(_ layout: OutputLayout, forceCopy: Bool, stoppingAfter stop: Step?)
    throws(StoreError) -> Outcome?
  {
    let old = layout.legacyStateDirectory
    let new = layout.stateDirectory
    guard FileSystem.isDirectory(old) else { return .nothing }
    let oldLock = try RunLock(path: layout.legacyLock, directory: layout.directory)
    defer { withExtendedLifetime(oldLock) {} }
    let parent = FilePath(new).removingLastComponent().string
    let name = FilePath(new).lastComponent ?? new
    try FileSystem.makeDirectories(parent.isEmpty ? "." : parent)
    // Only a migration of this output directory writes `<name>.tmp-<pid>`, and it holds the old lock.
    removeStaleCopies(in: parent.isEmpty ? "." : parent, prefix: name + ".tmp-")
    if access(layout.stateDatabase, F_OK) == 0 {
      let record = try? FileSystem.readFile(layout.migrationRecord, limit: 1 << 16)
      guard let record, String(decoding: record, as: UTF8.self) == old else {
        return .keptBoth(old: old, new: new)
      }
      guard try removeTree(old, stoppingAfter: stop) else { return nil }
      unlink(layout.migrationRecord)
      return .finishedRemoval(of: old)
    }
    if FileSystem.isDirectory(new) { try clearUnused(layout) }
    if !forceCopy {
      if rename(old, new) == 0 {
        syncDirectory(parent)
        syncDirectory(layout.directory)
        return .moved(from: old, to: new, isCopied: false)
      }
      guard Errno.current == .crossDevice else { throw SystemCall.error("move the state directory to", new) }
    }
    let temporary = new + ".tmp-\(getpid())"
    guard mkdir(temporary, 0o755) == 0 else { throw SystemCall.error("create directory", temporary) }
    var copied = 0
    for file in try entries(of: old) where file != OutputLayout.lockName {
      let source = FilePath(old).appending(file).string
      var status = stat()
      guard lstat(source, &status) == 0 else { throw SystemCall.error("read", source) }
      guard (status.st_mode & S_IFMT) == S_IFREG else {
        throw .io(
          path: source, operation: "move",
          message: "it is not a regular file (a state directory holds only files); move it by hand")
      }
      try copyDurably(source, to: FilePath(temporary).appending(file).string)
      copied += 1
      if stop == .copiedOneFile, copied == 1 { return nil }
    }
    let record = OutputLayout(layout.directory, stateDirectory: temporary).migrationRecord
    try FileSystem.writeAtomically(Array(old.utf8), to: record)
    syncDirectory(temporary)
    if stop == .copied { return nil }
    guard rename(temporary, new) == 0 else { throw SystemCall.error("move the state directory to", new) }
    syncDirectory(parent)
    if stop == .renamed { return nil }
    guard try removeTree(old, stoppingAfter: stop) else { return nil }
    // Kept until the old directory is gone; afterwards it could only mislead (an older thumbify run
    // later would make a new `<out>/.thumbify`, which is not this copy's leftover).
    unlink(layout.migrationRecord)
    return .moved(from: old, to: new, isCopied: true)
  }

  /// Empties a new state directory that holds no database (a run that took the lock and stopped
  /// before opening the state, for instance), so the old one can take its place. Files of unknown
  /// names are not removed: the caller's rename then fails and says so.
  private static func clearUnused(_ layout: OutputLayout) throws(StoreError) {
    let lock = try RunLock(path: layout.lock, directory: layout.directory)
    defer { withExtendedLifetime(lock) {} }
    for path in [layout.standardInputSpool, layout.decodeJournal, layout.migrationRecord, layout.lock] {
      guard unlink(path) == 0 || Errno.current == .noSuchFileOrDirectory else {
        throw SystemCall.error("remove", path)
      }
    }
    guard rmdir(layout.stateDirectory) == 0 else {
      throw SystemCall.error("replace the unused state directory", layout.stateDirectory)
    }
  }

  /// Removes `directory` and its files; false when stopped at `stop`.
  @discardableResult
  private static func removeTree(_ directory: String, stoppingAfter stop: Step?) throws(StoreError) -> Bool {
    guard FileSystem.isDirectory(directory) else { return true }
    var removed = 0
    for file in try entries(of: directory) {
      let path = FilePath(directory).appending(file).string
      guard unlink(path) == 0 || Errno.current == .noSuchFileOrDirectory else {
        throw SystemCall.error("remove", path)
      }
      removed += 1
      if stop == .removedOneFile, removed == 1 { return false }
    }
    guard rmdir(directory) == 0 || Errno.current == .noSuchFileOrDirectory else {
      throw SystemCall.error("remove", directory)
    }
    syncDirectory(FilePath(directory).removingLastComponent().string)
    return true
  }

  /// Copies the file at `source` to a new file at `destination` and fsyncs it.
  private static func copyDurably(_ source: String, to destination: String) throws(StoreError) {
    let input: FileDescriptor
    do {
      input = try FileDescriptor(opening: source, O_RDONLY)
    } catch {
      throw SystemCall.error("open", source, error)
    }
    try SystemCall.copy(from: input.rawValue, inputName: source, to: destination)
    do {
      try FileDescriptor(opening: destination, O_WRONLY).sync()
    } catch {
      throw SystemCall.error("flush", destination, error)
    }
  }

  /// The names in `directory`, but `.` and `..`.
  private static func entries(of directory: String) throws(StoreError) -> [String] {
    var names: [String] = []
    try DirectoryEntries.forEach(in: directory) { names.append($0) }
    return names
  }

  /// Removes `<prefix><digits>` directories (copies a killed migration left) and their files.
  private static func removeStaleCopies(in directory: String, prefix: String) {
    guard let names = try? entries(of: directory) else { return }
    for name in names where name.hasPrefix(prefix) && name.dropFirst(prefix.count).allSatisfy(\.isNumber) {
      _ = try? removeTree(FilePath(directory).appending(name).string, stoppingAfter: nil)
    }
  }

  /// Makes a rename or removal in `directory` durable (failures ignored: the move itself succeeded).
  private static func syncDirectory(_ directory: String) {
    let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    close(descriptor)
  }
}
