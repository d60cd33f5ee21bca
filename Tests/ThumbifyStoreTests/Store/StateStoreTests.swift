import Foundation
import Testing
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyStore

@Suite("State database", .offThePool)
struct StateStoreTests {
  @Test func aDatabaseFromBeforeTheCardColumnsIsUpgradedAndItsRowsStillGiveRecords() throws {
    // Given a state database whose pages table predates the card columns, holding a record of run 1,
    let directory = makeTemporaryDirectory("state")
    defer { removeDirectory(directory) }
    let path = directory + "/state.sqlite"
    let record = CrawlRecord(originalURL: "http://a.test/", normalizedURL: "http://a.test/", outcome: .ok)
    let old = try SQLiteDatabase(path: path)
    try old.execute(
      """
      CREATE TABLE pages(url TEXT PRIMARY KEY, good TEXT, current TEXT, run INTEGER, etag TEXT,
        last_modified TEXT, fetched_at REAL, listed INTEGER);
      """)
    try old.query(
      "INSERT INTO pages(url, current, run) VALUES(?, ?, 1)",
      [.text(record.normalizedURL), .text(StateStore.encode(record))])
    // when it is opened and a second record is saved,
    let state = try StateStore(path: path)
    var second = record
    (second.originalURL, second.normalizedURL, second.outcome) = ("http://b.test/", "http://b.test/", .failed)
    try state.savePage(
      second.normalizedURL, record: second, run: 1, isGood: false, etag: nil, lastModified: nil,
      fetchedAt: nil)
    // then the walk hands over the old row without derived facts (decoded) and the new one with them.
    var stored: [StateStore.StoredRecord] = []
    let urls = ["http://a.test/", "http://b.test/", "http://a.test/"]
    var iterator = urls.makeIterator()
    try state.forEachRecord(of: 1, in: { iterator.next() }, { stored.append($0) })
    #expect(stored.map(\.normalizedURL) == ["http://a.test/", "http://b.test/"])
    #expect(stored[0].outcome == nil && stored[0].record == record)
    #expect(stored[1].outcome == .failed && stored[1].hasImageFailure == false)
    #expect(try state.isListed(CardKey(normalizedURL: "http://b.test/")))
    #expect(!(try state.isListed(CardKey(normalizedURL: "http://c.test/"))))
  }

  /// Issue 34 (`crawl --drop-gone-after`): a page is gone since the first of an unbroken series of
  /// 404/410 answers; any other result ends the series, a good one as well as another failure.
  @Test func aPageIsGoneSinceTheFirstOfAnUnbrokenSeriesOfAnswers() throws {
    let directory = makeTemporaryDirectory("state")
    defer { removeDirectory(directory) }
    let state = try StateStore(path: directory + "/state.sqlite")
    let url = "http://a.test/"
    let failed = CrawlRecord(originalURL: url, normalizedURL: url, outcome: .failed)
    func save(run: Int64, isGood: Bool = false, goneAt: Double?) throws -> Double? {
      try state.savePage(
        url, record: isGood ? CrawlRecord(originalURL: url, normalizedURL: url, outcome: .ok) : failed,
        run: run,
        isGood: isGood, etag: nil, lastModified: nil, fetchedAt: nil, goneAt: goneAt)
      var stored: [StateStore.StoredRecord] = []
      var urls = [url].makeIterator()
      try state.forEachRecord(of: run, in: { urls.next() }, { stored.append($0) })
      return stored.first?.goneSince
    }
    #expect(try save(run: 1, goneAt: 100) == 100)  // a new row, gone at once
    #expect(try save(run: 2, goneAt: 200) == 100)  // the series goes on
    #expect(try save(run: 3, goneAt: nil) == nil)  // another failure (a 503) ends it
    #expect(try save(run: 4, goneAt: 400) == 400)
    #expect(try save(run: 5, isGood: true, goneAt: nil) == nil)  // so does an answer
    #expect(try save(run: 6, goneAt: 600) == 600)
    var dropped: [String] = []
    try state.forEachPage(of: 6, goneSince: 599) { dropped.append($0) }
    #expect(dropped == [])
    try state.forEachPage(of: 6, goneSince: 600) { dropped.append($0) }
    try state.forEachPage(of: 5, goneSince: 1_000) { dropped.append($0) }  // not a page of run 5
    #expect(dropped == [url])
  }

  @Test func aWalkOfDistinctURLsHandsOverEveryRecordAndRemembersNoKeys() throws {
    let directory = makeTemporaryDirectory("state")
    defer { removeDirectory(directory) }
    let state = try StateStore(path: directory + "/state.sqlite")
    let urls = ["http://a.test/", "http://b.test/", "http://c.test/"]
    for url in urls {
      try state.savePage(
        url, record: CrawlRecord(originalURL: url, normalizedURL: url, outcome: .ok), run: 1, isGood: true,
        etag: nil,
        lastModified: nil, fetchedAt: 1)
    }
    // Given a walk that remembered its keys,
    var first = urls.makeIterator()
    try state.forEachRecord(of: 1, in: { first.next() }, { _ in })
    #expect(try state.isListed(CardKey(normalizedURL: "http://a.test/")))
    // a walk of distinct URLs (in another order) hands over each record and forgets the earlier keys.
    var stored: [String] = []
    var second = ["http://c.test/", "http://missing.test/", "http://a.test/"].makeIterator()
    try state.forEachRecord(
      of: 1, isDistinct: true, in: { second.next() }, { stored.append($0.normalizedURL) })
    #expect(stored == ["http://c.test/", "http://a.test/"])
    #expect(!(try state.isListed(CardKey(normalizedURL: "http://a.test/"))))
  }

  @Test func aGoodRecordIsStoredOnceAndAFailureAfterItKeepsBoth() throws {
    // Given a state database and a page that succeeds in run 1,
    let directory = makeTemporaryDirectory("state")
    defer { removeDirectory(directory) }
    let path = directory + "/state.sqlite"
    let state = try StateStore(path: path)
    let url = "http://a.test/"
    let good = CrawlRecord(originalURL: url, normalizedURL: url, outcome: .ok)
    try state.savePage(
      url, record: good, run: 1, isGood: true, etag: "\"e1\"", lastModified: nil, fetchedAt: 1)
    // then its record is held once (as the good record), and read back as both good and current;
    let raw = try SQLiteDatabase(path: path)
    let columns = try #require(try raw.query("SELECT good IS NULL, current IS NULL FROM pages").first)
    #expect(columns == [.integer(0), .integer(1)])
    var page = try state.page(url)
    #expect(page.good == good && page.current == good && page.run == 1 && page.etag == "\"e1\"")
    var stored: [StateStore.StoredRecord] = []
    var once = [url].makeIterator()
    try state.forEachRecord(of: 1, in: { once.next() }, { stored.append($0) })
    #expect(stored.map(\.record) == [good])
    // when run 2 fails on it,
    var stale = good
    stale.outcome = .stale
    try state.savePage(
      url, record: stale, run: 2, isGood: false, etag: nil, lastModified: nil, fetchedAt: nil)
    // then the good record survives beside the new current one.
    page = try state.page(url)
    #expect(page.good == good && page.current == stale && page.run == 2 && page.etag == "\"e1\"")
  }
}
