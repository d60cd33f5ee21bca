import Foundation

/// The lock that keeps two runs off one output directory: `<out>/.thumbify/lock`.
///
/// It is an `flock(2)` exclusive lock, so the kernel releases it when the holder exits in any way —
/// including `kill -9` — and a lock file left behind by a dead process never blocks the next run.
/// The holder's pid is written into the file so the refusal can name it.
public final class RunLock: Sendable {
  /// Why the lock could not be taken.
  public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another live process holds the lock.
    case held(directory: String, pid: Int32?)
    case io(StoreError)

    public var description: String {
      switch self {
      case .held(let directory, let pid?):
        "Another thumbify run (pid \(pid)) is using '\(directory)'; wait for it to finish."
      case .held(let directory, nil):
        "Another thumbify run is using '\(directory)'; wait for it to finish."
      case .io(let error): error.description
      }
    }
  }

  private let descriptor: Int32

  /// Takes the lock for `directory` (the output directory), without waiting.
  ///
  /// The corresponding C function is `flock(2)` with `LOCK_EX | LOCK_NB`.
  public init(directory: String) throws(Failure) {
    guard !directory.isEmpty else {
      throw .io(.io(path: directory, operation: "use", message: "An output directory must be named"))
    }
    let stateDirectory = directory + "/.thumbify"
    let path = stateDirectory + "/lock"
    do {
      try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
    } catch {
      throw .io(.io(path: stateDirectory, operation: "create", message: "\(error.localizedDescription)"))
    }
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw .io(.io(path: path, operation: "open", message: String(cString: strerror(errno))))
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let code = errno
      var buffer = [UInt8](repeating: 0, count: 32)
      let count = pread(fd, &buffer, buffer.count, 0)
      close(fd)
      guard code == EWOULDBLOCK else {
        throw .io(.io(path: path, operation: "lock", message: String(cString: strerror(code))))
      }
      let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
      throw .held(directory: directory, pid: Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
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
