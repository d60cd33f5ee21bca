import Foundation
import Testing
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

@Suite("Manifest writer", .offThePool)
struct ManifestWriterTests {
  let directory = makeTemporaryDirectory("manifest")

  @Test func aLargeManifestReplacesTheOldOneWholeOnlyWhenCommitted() throws {
    defer { removeDirectory(directory) }
    let path = directory + "/manifest.jsonl"
    try FileSystem.writeAtomically(Array("{\"old\":true}\n".utf8), to: path)
    // 10,000 lines of ~1.2 KB: past the 8 MB at which the writer starts the kernel's writeback.
    let lines = (0..<10_000).map { "{\"n\":\($0),\"pad\":\"\(String(repeating: "x", count: 1_200))\"}" }
    do {
      let writer = try ManifestWriter(path: path)
      for line in lines { try writer.append(encoded: line) }
      #expect(FileSystem.fileHolds(Array("{\"old\":true}\n".utf8), at: path), "not replaced before commit")
      try writer.commit()
      #expect(writer.count == lines.count)
    }
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written == lines.joined(separator: "\n") + "\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["manifest.jsonl"])
  }

  @Test func aWriterReleasedWithoutCommitLeavesTheOldManifestAndNoTemporaryFile() throws {
    defer { removeDirectory(directory) }
    let path = directory + "/manifest.jsonl"
    try FileSystem.writeAtomically(Array("{\"old\":true}\n".utf8), to: path)
    do {
      let writer = try ManifestWriter(path: path)
      try writer.append(encoded: "{\"new\":true}")
    }
    #expect(FileSystem.fileHolds(Array("{\"old\":true}\n".utf8), at: path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["manifest.jsonl"])
  }
}
