import Foundation
import Testing
import Thumbify
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport
import ThumbifyTestSupport

/// The crawl writes each card file as its record is saved and removes the cards of URLs no longer
/// listed at the end of a run (with the crawl's test doubles for the network, extraction and imaging).
@Suite("Cards written by the crawl")
struct CrawlCardsTests {
  let directory = makeTemporaryDirectory("cards")
  let fetcher = StubFetcher()

  init() {
    fetcher.serve("http://site.test/a", "title: A\nimage: http://site.test/og.jpg")
    fetcher.serve("http://site.test/b", "title: B\nimage: http://site.test/og.jpg")
    fetcher.serve("http://site.test/og.jpg", bytes: Array("site-wide image".utf8))
  }

  func crawl(_ list: String) async throws -> [CrawlRecord] {
    let job = CrawlJob(
      layout: testLayout(directory), configuration: CrawlConfiguration(concurrency: 2), fetcher: fetcher,
      extractor: StubExtractor(), thumbnailer: StubThumbnailer(root: directory))
    _ = try await job.run(openList: { URLListReader(bytes: Array(list.utf8)) })
    return try readManifest(directory)
  }

  func cardFiles() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory + "/cards").sorted()
  }

  @Test func everyManifestRecordHasItsCardAndUnlistedURLsKeepTheirs() async throws {
    defer { removeDirectory(directory) }
    let records = try await crawl("http://site.test/a\nhttp://site.test/b\nhttp://site.test/missing\n")
    #expect(records.count == 3)
    #expect(try cardFiles() == records.map { CardKey(normalizedURL: $0.normalizedURL).fileName }.sorted())
    for record in records {
      let path = directory + "/cards/" + CardKey(normalizedURL: record.normalizedURL).fileName
      let card = try JSONDecoder().decode(
        Card.self, from: try #require(FileManager.default.contents(atPath: path)))
      #expect(card == Card(record: record))
    }

    // URLs missing from the next list keep their cards (and records) unless the crawl prunes them.
    let second = try await crawl("http://site.test/a\n")
    #expect(second.count == 3)
    #expect(try cardFiles() == records.map { CardKey(normalizedURL: $0.normalizedURL).fileName }.sorted())
  }

  @Test func aFirstCrawlRemovesCardsItFindsThatAreNotListed() async throws {
    defer { removeDirectory(directory) }
    // Given cards/ holding a card and a temporary file of another crawl, and no state database,
    let foreign = CardKey(normalizedURL: "http://other.test/").fileName
    try FileSystem.makeDirectories(directory + "/cards")
    try FileSystem.writeAtomically(Array("{}".utf8), to: directory + "/cards/" + foreign)
    try FileSystem.writeAtomically(Array("{".utf8), to: directory + "/cards/.tmp-left")
    // the crawl's sweep still runs: only the listed URL's card is left.
    let records = try await crawl("http://site.test/a\n")
    #expect(try cardFiles() == [CardKey(normalizedURL: records[0].normalizedURL).fileName])
  }

  @Test func aCardThatCannotBeWrittenFailsTheRunAndTheRerunFinishesIt() async throws {
    defer { removeDirectory(directory) }
    // Given a directory where the card of /b should be (its rename fails),
    let blocked = directory + "/cards/" + CardKey(normalizedURL: "http://site.test/b").fileName
    try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: true)
    // when the crawl runs, it fails with a storage error naming the card and writes no manifest,
    await #expect {
      _ = try await crawl("http://site.test/a\nhttp://site.test/b\n")
    } throws: { error in
      guard let error = error as? StoreError, case .io = error else { return false }
      return error.description.contains(CardKey(normalizedURL: "http://site.test/b").fileName)
    }
    #expect(!FileManager.default.fileExists(atPath: directory + "/manifest.jsonl"))
    // and once the obstacle is gone the rerun resumes without fetching again and writes every card.
    try FileManager.default.removeItem(atPath: blocked)
    fetcher.resetLog()
    let records = try await crawl("http://site.test/a\nhttp://site.test/b\n")
    #expect(fetcher.requests.filter { $0.kind == .page }.isEmpty)
    #expect(try cardFiles() == records.map { CardKey(normalizedURL: $0.normalizedURL).fileName }.sorted())
  }
}
