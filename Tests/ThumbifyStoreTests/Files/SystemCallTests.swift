import Foundation
import Testing
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystem
import ThumbifySystemTestSupport

@Suite("The system-call funnel and the output layout", .offThePool)
struct SystemCallTests {
  /// A pipe's read end carries bytes written by another thread, in chunks smaller and larger than the
  /// copy's 64 KB buffer, as standard input does.
  @Test(arguments: [0, 1, 65_536, 200_001])
  func copyTakesEveryByteOfAStream(size: Int) throws {
    let directory = makeTemporaryDirectory("syscall")
    defer { removeDirectory(directory) }
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let writer = Thread { [bytes, end = ends[1]] in
      _ = bytes.withUnsafeBytes { SystemCall.writeAll(end, $0) }
      close(end)
    }
    writer.start()
    defer { close(ends[0]) }
    try SystemCall.copy(from: ends[0], inputName: "standard input", to: directory + "/spool")
    #expect(try FileSystem.readFile(directory + "/spool", limit: size + 1) == bytes)
  }

  @Test func aFailedCallIsASentenceWithTheOperationAndPath() throws {
    #expect(
      throws: StoreError.io(
        path: "/nonexistent/spool", operation: "create", message: "No such file or directory")
    ) {
      try SystemCall.copy(from: 0, inputName: "standard input", to: "/nonexistent/spool")
    }
  }

  @Test func theLayoutNamesEveryPathOnceWhateverTheTrailingSlash() {
    for spelling in ["out", "out/", "out//"] {
      let layout = OutputLayout(spelling, stateDirectory: "state" + spelling.dropFirst(3))
      #expect(layout.manifest == "out/manifest.jsonl")
      #expect(layout.stateDatabase == "state/state.sqlite")
      #expect(layout.lock == "state/lock")
      #expect(layout.standardInputSpool == "state/stdin-urls.txt")
      #expect(layout.decodeJournal == "state/decodes.journal")
      #expect(layout.cards == "out/cards")
      #expect(layout.blobs == "out/blobs")
      #expect(layout.legacyStateDirectory == "out/.thumbify")
      #expect(OutputLayout.manifest(in: spelling) == "out/manifest.jsonl")
    }
    #expect(OutputLayout("/", stateDirectory: "/state").manifest == "/manifest.jsonl")
  }
}
