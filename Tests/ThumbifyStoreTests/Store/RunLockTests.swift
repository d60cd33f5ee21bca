import Foundation
import Testing
import ThumbifyStore
import ThumbifySystemTestSupport

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Run lock", .offThePool)
struct RunLockTests {
  let directory = NSTemporaryDirectory() + "thumbify-lock-\(UUID().uuidString)"

  /// Holds `path`'s flock on a description of its own, as another process (or a forked child of
  /// this one) would, writing `pid` into the file when given.
  private func holdLock(_ path: String, pid: Int32?) throws -> Int32 {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    try #require(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
    _ = ftruncate(fd, 0)
    if let pid { _ = "\(pid)\n".withCString { pwrite(fd, $0, strlen($0), 0) } }
    return fd
  }

  @Test func aHeldLockIsRefusedWithItsHoldersPid() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let layout = OutputLayout(directory, stateDirectory: directory + "/state")
    try FileSystem.makeDirectories(layout.stateDirectory)
    let fd = try holdLock(layout.lock, pid: 4242)
    defer { close(fd) }
    #expect(throws: StoreError.locked(directory: directory, pid: 4242)) { try RunLock(layout) }
    // And a second lock in the same process is refused too (flock is per open file description).
    close(fd)
    let first = try RunLock(layout)
    #expect(throws: StoreError.self) { try RunLock(layout) }
    withExtendedLifetime(first) {}
  }

  /// A lock let go by its run can stay held a moment longer by a child this process forked, until
  /// the child's exec closes its copy of the descriptor (seen on a loaded machine: the next crawl of
  /// a test, right after the first, was refused). Such a lock names no pid; it is waited for.
  @Test func aLockHeldWithoutAPidIsWaitedForBriefly() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let layout = OutputLayout(directory, stateDirectory: directory + "/state")
    try FileSystem.makeDirectories(layout.stateDirectory)
    let fd = try holdLock(layout.lock, pid: nil)
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) { close(fd) }
    let lock = try RunLock(layout)
    withExtendedLifetime(lock) {}
  }
}
