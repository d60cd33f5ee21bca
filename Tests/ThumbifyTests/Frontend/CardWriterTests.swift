import Foundation
import Testing
import ThumbifyStore
import ThumbifySystemTestSupport
import ThumbifyTestSupport

@Suite("Card files", .offThePool)
struct CardWriterTests {
  func inode(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
  }

  @Test func writesOneCardPerURLNamedByItsKey() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    let records = try FrontendFixtures.records(in: directory, count: 5)
    let summary = try CardWriter(outputDirectory: directory).write(records: records)
    #expect(summary.written == 5)
    for record in records {
      let path = directory + "/cards/" + CardKey(normalizedURL: record.normalizedURL).fileName
      let data = try #require(FileManager.default.contents(atPath: path))
      let card = try JSONDecoder().decode(Card.self, from: data)
      #expect(card == Card(record: record))
      for variant in card.image?.variants ?? [] {
        #expect(FileManager.default.fileExists(atPath: directory + "/" + variant.path))
      }
    }
  }

  @Test func unchangedCardsAreNotRewrittenAndChangedOnesAre() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    var records = try FrontendFixtures.records(in: directory, count: 3)
    let writer = CardWriter(outputDirectory: directory)
    try writer.write(records: records)
    let paths = records.map { directory + "/cards/" + CardKey(normalizedURL: $0.normalizedURL).fileName }
    let before = try paths.map(inode)

    records[1].metadata?.title = "A new title"
    records[2].fetch?.fetchedAt = "2026-11-30T00:00:00Z"  // not drawn: no rewrite
    let summary = try writer.write(records: records)

    #expect(summary.written == 1)
    #expect(summary.unchanged == 2)
    let after = try paths.map(inode)
    #expect(after[0] == before[0])
    #expect(after[1] != before[1])
    #expect(after[2] == before[2])
  }

  @Test func aCardKnownToBeNewIsWrittenWithoutReadingWhatIsThere() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    let record = try #require(try FrontendFixtures.records(in: directory, count: 1).first)
    let writer = CardWriter(outputDirectory: directory)
    let key = CardKey(normalizedURL: record.normalizedURL)
    let path = directory + "/cards/" + key.fileName
    try FileManager.default.createDirectory(atPath: directory + "/cards", withIntermediateDirectories: true)
    let bytes = try CardWriter.encodedCard(for: record)
    #expect(try writer.write(encoded: bytes, key: key, isNew: true), "a first card")
    let first = try inode(path)
    // A card there all the same (a killed run wrote it, its record was lost) is replaced, not read,
    #expect(try writer.write(encoded: bytes, key: key, isNew: true))
    #expect(try inode(path) != first)
    #expect(FileManager.default.contents(atPath: path) == Data(bytes))
    // while a card that may exist is compared first and left alone when it holds the same bytes.
    let second = try inode(path)
    #expect(try !writer.write(encoded: bytes, key: key))
    #expect(try inode(path) == second)
  }

  @Test func cardsOfURLsNoLongerInTheManifestAreRemoved() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    let records = try FrontendFixtures.records(in: directory, count: 4)
    let writer = CardWriter(outputDirectory: directory)
    try writer.write(records: records)
    #expect(FileManager.default.createFile(atPath: directory + "/cards/.tmp-abc123", contents: Data([1])))
    #expect(FileManager.default.createFile(atPath: directory + "/cards/README.txt", contents: Data([1])))

    let summary = try writer.write(records: records.prefix(2))

    #expect(summary.removed == 2)
    let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/cards").sorted()
    let kept = records.prefix(2).map { CardKey(normalizedURL: $0.normalizedURL).fileName }
    #expect(names == (kept + ["README.txt"]).sorted())
  }

  @Test func aSessionThatAsksItsCallerKeepsNothingInMemoryAndRemovesTheRest() throws {
    // Given 300 cards on disk from an earlier run and a caller that keeps only some keys,
    let directory = try FrontendFixtures.temporaryDirectory()
    let records = try FrontendFixtures.records(in: directory, count: 3)
    var earlier = try CardWriter(outputDirectory: directory).start()
    for index in 0..<300 {
      var record = records[index % 3]
      record.normalizedURL = "http://old.test/\(index)"
      try earlier.write(record)
    }
    _ = try earlier.finish()
    let keep = Set(records.prefix(2).map { CardKey(normalizedURL: $0.normalizedURL) })
    // when a session started with `start(keeping:)` writes two records and finishes,
    var session = try CardWriter(outputDirectory: directory).start(keeping: { keep.contains($0) })
    for record in records.prefix(2) { try session.write(record) }
    let summary = try session.finish()
    // then only the kept cards are left.
    #expect(summary.written == 2)
    #expect(summary.removed == 300)
    let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/cards").sorted()
    #expect(names == keep.map(\.fileName).sorted())
  }

  @Test func encodedCardsWrittenToAnInMemorySessionAreKeptByFinish() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    let records = try FrontendFixtures.records(in: directory, count: 2)
    var session = try CardWriter(outputDirectory: directory).start()
    for record in records {
      try session.write(
        encoded: try CardWriter.encodedCard(for: record), key: CardKey(normalizedURL: record.normalizedURL))
    }
    let summary = try session.finish()
    #expect(summary.written == 2)
    #expect(summary.removed == 0)
    let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/cards").sorted()
    #expect(names == records.map { CardKey(normalizedURL: $0.normalizedURL).fileName }.sorted())
  }

  @Test func duplicateURLsKeepTheFirstRecord() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    var records = try FrontendFixtures.records(in: directory, count: 1)
    var second = records[0]
    second.metadata?.title = "second"
    records.append(second)
    let summary = try CardWriter(outputDirectory: directory).write(records: records)
    #expect(summary.written == 1)
    #expect(summary.duplicates == 1)
  }

  @Test func regeneratesFromTheManifest() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    let records = try FrontendFixtures.records(in: directory, count: 3)
    try FrontendFixtures.writeManifest(records, in: directory)
    let summary = try CardWriter(outputDirectory: directory).writeFromManifest()
    #expect(summary.written == 3)
    #expect(try CardWriter(outputDirectory: directory).writeFromManifest().unchanged == 3)
  }

  @Test func aMissingManifestIsASentence() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    #expect(
      throws: StoreError.io(
        path: directory + "/manifest.jsonl", operation: "read the manifest",
        message: "No such file or directory")
    ) {
      try CardWriter(outputDirectory: directory).writeFromManifest()
    }
  }

  @Test func aMalformedLineIsReportedWithItsNumber() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    let records = try FrontendFixtures.records(in: directory, count: 1)
    try FrontendFixtures.writeManifest(records, in: directory)
    let handle = try #require(FileHandle(forWritingAtPath: directory + "/manifest.jsonl"))
    handle.seekToEndOfFile()
    handle.write(Data("\n{\"schema\":1}\n".utf8))
    handle.closeFile()
    do {
      try CardWriter(outputDirectory: directory).writeFromManifest()
      Issue.record("a malformed manifest was accepted")
    } catch {
      #expect(error.description.hasPrefix("Line 3 of '\(directory)/manifest.jsonl' is not a crawl record: "))
    }
  }

  @Test func anUnwritableDirectoryIsAStoreError() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    // A file where the cards directory should be.
    #expect(FileManager.default.createFile(atPath: directory + "/cards", contents: Data()))
    #expect(throws: StoreError.self) {
      try CardWriter(outputDirectory: directory).write(records: [])
    }
  }
}
