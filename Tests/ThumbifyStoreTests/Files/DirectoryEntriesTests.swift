import Foundation
import Testing
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystem
import ThumbifySystemTestSupport

@Suite("Errno, owned descriptors and directory entries", .offThePool)
struct DirectoryEntriesTests {
  @Test func entriesAreEveryNameButDotAndDotDot() throws {
    let directory = makeTemporaryDirectory("entries")
    defer { removeDirectory(directory) }
    let names = ["a.json", ".tmp-1", "sub", "ünïcode ✓"]
    for name in names.dropLast(2) { try FileSystem.writeAtomically([1], to: directory + "/" + name) }
    try FileSystem.makeDirectories(directory + "/sub")
    try FileSystem.writeAtomically([2], to: directory + "/ünïcode ✓")
    let entries = try DirectoryEntries(directory)
    var seen: [String] = []
    while let name = try entries.next() { seen.append(name) }
    #expect(seen.sorted() == names.sorted())
    #expect(try entries.next() == nil, "the end stays the end")
  }

  @Test func anEmptyDirectoryHasNoEntries() throws {
    let directory = makeTemporaryDirectory("entries")
    defer { removeDirectory(directory) }
    #expect(try DirectoryEntries(directory).next() == nil)
    #expect(FileSystem.isMissingOrEmpty(directory))
    #expect(FileSystem.isMissingOrEmpty(directory + "/missing"))
    try FileSystem.writeAtomically([1], to: directory + "/x")
    #expect(!FileSystem.isMissingOrEmpty(directory))
  }

  @Test func aMissingDirectoryIsTheErrnoOfOpendir() {
    #expect(throws: Errno.noSuchFileOrDirectory) { _ = try DirectoryEntries("/nonexistent/thumbify") }
    #expect(throws: Errno(rawValue: ENOTDIR)) { _ = try DirectoryEntries("/dev/null") }
  }

  @Test func anErrnoReadsAsStrerrorsSentence() {
    #expect(Errno.noSuchFileOrDirectory.description == "No such file or directory")
    #expect(
      SystemCall.error("list", "/x", .crossDevice)
        == StoreError.io(path: "/x", operation: "list", message: "Invalid cross-device link"))
  }

  @Test func valueOrErrnoRetriesInterruptionsAndTypesFailures() {
    var calls = 0
    let retried = SystemCall.valueOrErrno { () -> Int32 in
      calls += 1
      if calls < 3 {
        Errno.current = .interrupted
        return -1
      }
      return 7
    }
    #expect(retried == .success(7))
    #expect(calls == 3)
    let failed = SystemCall.valueOrErrno { () -> Int32 in
      Errno.current = .fileExists
      return -1
    }
    #expect(failed == .failure(.fileExists))
    #expect(throws: Errno.fileExists) { try SystemCall.check { link("/etc/hostname", "/etc/hostname") } }
  }

  @Test func aDescriptorIsClosedWhenItsOwnerGoesAway() throws {
    let directory = makeTemporaryDirectory("descriptor")
    defer { removeDirectory(directory) }
    do {
      let file = try FileDescriptor(opening: directory + "/file", O_WRONLY | O_CREAT | O_TRUNC)
      try file.writeAll(Array("hello".utf8))
      try file.sync()
      #expect(try file.status().st_size == 5)
      #expect(fcntl(file.rawValue, F_GETFD) & FD_CLOEXEC != 0, "opened close-on-exec")
    }
    // A pipe's reader sees its end only once every write end is closed: the owned one must be.
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    // Non-blocking: with a write end still open the last read fails (EAGAIN) instead of waiting.
    #expect(fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK) == 0)
    do {
      let writer = FileDescriptor(owning: ends[1])
      try writer.writeAll([42])
    }
    var bytes = [UInt8](repeating: 0, count: 2)
    #expect(read(ends[0], &bytes, 2) == 1)
    #expect(read(ends[0], &bytes, 2) == 0, "end of file: the write end was closed with its owner")
    #expect(throws: Errno.noSuchFileOrDirectory) {
      _ = try FileDescriptor(opening: directory + "/missing", O_RDONLY)
    }
  }
}
