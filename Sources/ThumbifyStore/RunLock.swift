import Foundation
import ThumbifySystem

/// The lock that keeps two runs off one output directory: `<state>/lock` (`OutputLayout.lock`).
///
/// It is an `flock(2)` exclusive lock, so the kernel releases it when the holder exits in any way —
/// including `kill -9` — and a lock file left behind by a dead process never blocks the next run.
/// The holder's pid is written into the file so the refusal can name it.
package final class RunLock: Sendable {
  private let descriptor: Int32

  /// Takes the lock of `layout`'s output directory, without waiting, creating its state directory.
  ///
  /// The corresponding C function is `flock(2)` with `LOCK_EX | LOCK_NB`.
  package convenience init(_ layout: OutputLayout) throws(StoreError) {
    guard !layout.directory.isEmpty, !layout.stateDirectory.isEmpty else {
      throw .io(path: layout.directory, operation: "use", message: "An output directory must be named")
    }
    try FileSystem.makeDirectories(layout.stateDirectory)
    try self.init(path: layout.lock, directory: layout.directory)
  }

  /// Takes the lock file at `path` (which names `directory` in the refusal), without waiting.
  init(path: String, directory: String) throws(StoreError) {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw .io(path: path, operation: "open", message: SystemCall.message())
    }
    // A lock whose file names no pid is being let go (its run's last step empties the file) or is
    // held a moment longer by a child this process forked, until the child's exec closes its copy
    // of the descriptor (O_CLOEXEC acts at exec, not at fork): seen on a loaded machine, where the
    // next run in the same process was refused. Such a lock is tried again for up to a second; a
    // run that holds it writes its pid at once.
    var retries = 100
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let error = Errno.current
      var buffer = [UInt8](repeating: 0, count: 32)
      let count = pread(fd, &buffer, buffer.count, 0)
      let pid = Int32(
        String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(
          in: .whitespacesAndNewlines))
      if error == .wouldBlock, pid == nil, retries > 0 {
        retries -= 1
        usleep(10_000)
        continue
      }
      close(fd)
      guard error == .wouldBlock else {
        throw SystemCall.error("lock", path, error)
      }
      throw .locked(directory: directory, pid: pid)
    }
    let pid = "\(getpid())\n"
    _ = ftruncate(fd, 0)
    _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
    descriptor = fd
  }

  deinit {
    _ = ftruncate(descriptor, 0)
    close(descriptor)
  }
}
