import Foundation
import Testing
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyStore

@Suite("File system calls", .offThePool)
struct FileSystemTests {
  @Test func fileHoldsComparesSizeThenBytes() throws {
    let directory = makeTemporaryDirectory("fs")
    defer { removeDirectory(directory) }
    let path = directory + "/card.json"
    let bytes = Array("{\"a\":1}\n".utf8)
    #expect(!FileSystem.fileHolds(bytes, at: path), "missing")
    try FileSystem.writeAtomically(bytes, to: path)
    #expect(FileSystem.fileHolds(bytes, at: path))
    #expect(!FileSystem.fileHolds(Array("{\"a\":2}\n".utf8), at: path), "same size, other bytes")
    #expect(!FileSystem.fileHolds(bytes + [0x0A], at: path), "longer")
    #expect(!FileSystem.fileHolds(Array(bytes.dropLast()), at: path), "shorter")
    #expect(!FileSystem.fileHolds([], at: directory), "a directory")
    try FileSystem.writeAtomically([], to: path)
    #expect(FileSystem.fileHolds([], at: path), "empty")
  }

  @Test(arguments: [0, 1, 65_535, 65_536, 65_537, 3_000_001])
  func readFileReturnsEveryByteOfARegularFile(size: Int) throws {
    let directory = makeTemporaryDirectory("fs-read")
    defer { removeDirectory(directory) }
    let path = directory + "/image"
    let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
    try FileSystem.writeAtomically(bytes, to: path)
    #expect(try FileSystem.readFile(path, limit: size) == bytes)
    if size > 0 {
      #expect(throws: StoreError.self, "one byte over the limit") {
        _ = try FileSystem.readFile(path, limit: size - 1)
      }
    }
  }

  @Test func readFileReadsAPipeAndRefusesADirectory() throws {
    let directory = makeTemporaryDirectory("fs-read-pipe")
    defer { removeDirectory(directory) }
    let fifo = directory + "/fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 / 3) }
    let writer = Thread {
      let handle = FileHandle(forWritingAtPath: fifo)
      handle?.write(Data(bytes))
      try? handle?.close()
    }
    writer.start()
    #expect(try FileSystem.readFile(fifo, limit: 1 << 20) == bytes)
    #expect(throws: StoreError.self) { _ = try FileSystem.readFile(directory, limit: 1 << 20) }
  }

  @Test func writeAtomicallyLinksAWholeFileAndLeavesNoTemporaryName() throws {
    let directory = makeTemporaryDirectory("fs-link")
    defer { removeDirectory(directory) }
    let path = directory + "/card.json"
    // This machine's file systems take O_TMPFILE: the unnamed-file path is the one under test.
    #expect(try FileSystem.writeLinked(Array("first".utf8), to: path, in: directory, isDurable: false))
    #expect(FileSystem.fileHolds(Array("first".utf8), at: path))
    var before = stat()
    #expect(stat(path, &before) == 0)
    #expect(before.st_mode & 0o777 == 0o644)
    // An existing file is replaced by a new inode (readers holding the old one see it whole).
    try FileSystem.writeAtomically(Array("second, longer".utf8), to: path, isDurable: false)
    #expect(FileSystem.fileHolds(Array("second, longer".utf8), at: path))
    var after = stat()
    #expect(stat(path, &after) == 0)
    #expect(after.st_ino != before.st_ino)
    #expect(after.st_mode & 0o777 == 0o644)
    try FileSystem.writeAtomically(Array("third".utf8), to: directory + "/other.json")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["card.json", "other.json"])
  }

  @Test func writeAtomicallyIntoANonDirectoryFails() throws {
    let directory = makeTemporaryDirectory("fs-fail")
    defer { removeDirectory(directory) }
    let file = directory + "/plain"
    try FileSystem.writeAtomically([1], to: file)
    #expect(throws: StoreError.self) { try FileSystem.writeAtomically([2], to: file + "/card.json") }
    #expect(throws: StoreError.self) {
      try FileSystem.writeAtomically([2], to: directory + "/missing/card.json")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["plain"])
  }

  @Test func isMissingOrEmptyIsTrueOnlyForNothingThere() throws {
    let directory = makeTemporaryDirectory("fs-empty")
    defer { removeDirectory(directory) }
    #expect(FileSystem.isMissingOrEmpty(directory + "/missing"))
    try FileManager.default.createDirectory(atPath: directory + "/empty", withIntermediateDirectories: false)
    #expect(FileSystem.isMissingOrEmpty(directory + "/empty"))
    try FileSystem.writeAtomically([1], to: directory + "/empty/.tmp-left")
    #expect(!FileSystem.isMissingOrEmpty(directory + "/empty"), "a dot file is an entry")
    #expect(!FileSystem.isMissingOrEmpty(directory + "/empty/.tmp-left"), "a file is not an empty directory")
  }
}
