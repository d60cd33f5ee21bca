import Foundation
import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyStore

/// The decode journal's parsing and the policy of deaths (`DecodeJournal`); the fatal-signal line is
/// tested with the real binary (`CrawlCrashLoopTests`).
@Suite("Decode journal", .offThePool)
struct DecodeJournalTests {
  static let a = String(repeating: "a", count: 64)
  static let b = String(repeating: "b", count: 64)

  let directory = makeTemporaryDirectory("journal")
  var journalPath: String { directory + "/decodes.journal" }

  func state() throws -> StateStore { try StateStore(path: directory + "/state.sqlite") }

  /// Leaves `lines` as a dead run's journal.
  func leave(_ lines: String) throws {
    try lines.write(toFile: journalPath, atomically: true, encoding: .utf8)
  }

  @Test func aBeginWithoutItsEndIsADeathAndATornLineIsIgnored() {
    var parser = DecodeJournal.Parser()
    let lines = [
      "attempt 42\n", "begin \(Self.a) http://x/a.jpg\n", "begin \(Self.b) http://x/b.jpg\n",
      "begin \(Self.a) http://x/a2.jpg\n", "end \(Self.a)\n", "end \(Self.b)\n", "begin not-a-digest u\n",
      "end \(Self.b)", "bogus\n",
    ]
    for line in lines { parser.consume(line) }
    #expect(
      parser.contents
        == DecodeJournal.Contents(
          attempt: "42",
          deaths: [DecodeJournal.Death(sourceSHA256: Self.a, url: "http://x/a.jpg", crashed: false)]
        ))
  }

  @Test func aCrashLineMarksItsSource() {
    var parser = DecodeJournal.Parser()
    for line in ["attempt 1\n", "begin \(Self.a) u\n", "begin \(Self.b) v\n", "crash \(Self.b)\n"] {
      parser.consume(line)
    }
    #expect(parser.contents.deaths.map(\.crashed) == [false, true])
  }

  @Test func aCrashPoisonsAtOnce() throws {
    let state = try state()
    try leave("attempt 1\nbegin \(Self.a) http://x/a.jpg\ncrash \(Self.a)\n")
    let journal = try DecodeJournal(path: journalPath, state: state, version: "1")
    #expect(journal.poisoned == [Self.a])
    #expect(journal.isPoisoned(Self.a, url: "http://y/same-bytes.jpg"))
    #expect(journal.skipped == ["http://y/same-bytes.jpg"])
    // The file is started afresh once its deaths are recorded.
    let contents = try DecodeJournal.read(journalPath)
    #expect(contents.deaths.isEmpty && contents.attempt != nil)
  }

  @Test func oneUnexplainedDeathIsForgivenASecondPoisons() throws {
    let state = try state()
    try leave("attempt 1\nbegin \(Self.a) http://x/a.jpg\n")
    #expect(try DecodeJournal(path: journalPath, state: state, version: "1").poisoned.isEmpty)
    // The same journal recorded twice (a run that died before starting it afresh) is one death.
    try leave("attempt 1\nbegin \(Self.a) http://x/a.jpg\n")
    #expect(try DecodeJournal(path: journalPath, state: state, version: "1").poisoned.isEmpty)
    try leave("attempt 2\nbegin \(Self.a) http://x/a.jpg\n")
    #expect(try DecodeJournal(path: journalPath, state: state, version: "1").poisoned == [Self.a])
  }

  @Test func aSourceThatDecodesAgainLosesItsForgivenDeath() throws {
    let state = try state()
    try leave("attempt 1\nbegin \(Self.a) http://x/a.jpg\n")
    let journal = try DecodeJournal(path: journalPath, state: state, version: "1")
    let value = journal.decoding(sha: Self.a, url: "http://x/a.jpg") { 7 }
    #expect(value == 7)
    let written = try String(contentsOfFile: journalPath, encoding: .utf8)
    #expect(written.hasSuffix("begin \(Self.a) http://x/a.jpg\nend \(Self.a)\n"))
    try leave("attempt 2\nbegin \(Self.a) http://x/a.jpg\n")
    #expect(try DecodeJournal(path: journalPath, state: state, version: "1").poisoned.isEmpty)
  }

  @Test func anotherVersionTriesAgain() throws {
    let state = try state()
    try leave("attempt 1\nbegin \(Self.a) http://x/a.jpg\ncrash \(Self.a)\n")
    #expect(try DecodeJournal(path: journalPath, state: state, version: "1").poisoned == [Self.a])
    #expect(try DecodeJournal(path: journalPath, state: state, version: "2").poisoned.isEmpty)
  }

  @Test func anUnwritableJournalIsAStorageError() throws {
    let state = try state()
    try FileManager.default.createDirectory(atPath: journalPath, withIntermediateDirectories: true)
    #expect(throws: StoreError.self) { try DecodeJournal(path: self.journalPath, state: state, version: "1") }
  }
}
