import Foundation
import Testing

@testable import ThumbifySystem
@testable import ThumbifyTestSupport

@Suite("Errno and directory entries", .offThePool)
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
}
