import Foundation
import Testing
import ThumbifyImagingTestSupport
import ThumbifyStore
import ThumbifySystemTestSupport

@Suite("Line reader", .offThePool)
struct LineReaderTests {
  /// Reads every line of `bytes` through a file and through memory; both must agree.
  func lines(_ bytes: [UInt8], maxLength: Int) throws -> [[UInt8]] {
    let path = try Fixtures.temporaryDirectory() + "/lines"
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    let file = try LineReader(path: path, maxLength: maxLength)
    var fromFile: [[UInt8]] = []
    while let line = try file.nextLine() { fromFile.append(line) }
    let memory = LineReader(bytes: bytes, maxLength: maxLength)
    var fromMemory: [[UInt8]] = []
    while let line = try memory.nextLine() { fromMemory.append(line) }
    #expect(fromFile == fromMemory)
    return fromFile
  }

  @Test func linesAcrossChunkBoundariesComeWhole() throws {
    // Lines of every length around the 64 KB read size, so that newlines fall on and next to it
    let lengths = [0, 1, 65_534, 65_535, 65_536, 65_537, 3, 131_072, 7]
    let expected: [[UInt8]] = lengths.enumerated().map { index, length in
      [UInt8](repeating: UInt8(ascii: "a") + UInt8(index), count: length)
    }
    var bytes: [UInt8] = []
    for line in expected { bytes += line + [0x0A] }
    #expect(try lines(bytes, maxLength: 1 << 20) == expected)
    #expect(try lines(Array(bytes.dropLast()), maxLength: 1 << 20) == expected, "no final newline")
  }

  @Test func anOverLongLineIsCutAndTheNextLineIsWhole() throws {
    let bytes = Array(repeating: UInt8(ascii: "x"), count: 200_000) + Array("\nnext\n".utf8)
    let read = try lines(bytes, maxLength: 10)
    #expect(read == [Array(repeating: UInt8(ascii: "x"), count: 11), Array("next".utf8)])
  }

  @Test func aStopEndsTheReadOfAnEndlessDevice() throws {
    // Given /dev/zero, one line that never ends
    let reader = try LineReader(path: "/dev/zero", maxLength: 100)
    // Then its first line comes at once, cut, and a stop ends the skipping of its rest
    #expect(try reader.nextLine()?.count == 101)
    let reads = Counter()
    reader.isStopped = { reads.increment() > 3 }
    #expect(try reader.nextLine() == nil)
  }

  /// Counts the stop checks (read from the reader's thread only).
  final class Counter: @unchecked Sendable {
    // Confined to the reading thread: the reader asks isStopped on the thread that reads.
    private var count = 0
    func increment() -> Int {
      count += 1
      return count
    }
  }
}
