import Foundation
import Testing

@testable import Thumbify

@Suite("File system calls")
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
}
