import Foundation
import ThumbifySystem

/// The lock that keeps two runs off one output directory: `<state>/lock` (`OutputLayout.lock`).
///
/// It is an `flock(2)` exclusive lock, so the kernel releases it when the holder exits in any way —
/// including `kill -9` — and a lock file left behind by a dead process never blocks the next run.
/// The holder's pid is written into the file so the refusal can name it.
public final class RunLock: Sendable {
  private let descriptor: Int32

  /// Takes the lock of `layout`'s output directory, without waiting, creating its state directory.
  ///
  /// The corresponding C function is `flock(2)` with `LOCK_EX | LOCK_NB`.
  public convenience init(_ layout: OutputLayout) throws(StoreError) {
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
      throw .io(path: path, operation: "open", message: SystemCall.message(errno))
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let code = errno
      var buffer = [UInt8](repeating: 0, count: 32)
      let count = pread(fd, &buffer, buffer.count, 0)
      close(fd)
      guard code == EWOULDBLOCK else {
        throw .io(path: path, operation: "lock", message: SystemCall.message(code))
      }
      let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
      throw .locked(directory: directory, pid: Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
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
