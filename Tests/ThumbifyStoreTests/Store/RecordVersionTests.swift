import Foundation
import Testing
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyStore

/// Issue 21 changed the record's shape (schema 2): a state database written by an older thumbify
/// holds schema 1 records, which must still read, draw the same cards, and reach the manifest in the
/// new shape.
@Suite("Manifest records of schema 1", .offThePool)
struct RecordVersionTests {
  /// A schema 1 record as thumbify wrote it: the input under `url`; the canonical URL (else the page
  /// URL) and the page URL inside `metadata`.
  static let canonical =
    #"{"fetch":{"fetchedAt":"2026-12-01T11:36:44Z","finalURL":"https://www.example.com/a/","status":200},"metadata":{"originalURL":"https://www.example.com/a/","title":"A","url":"https://example.com/canonical"},"normalizedURL":"https://www.example.com/a","outcome":"ok","schema":1,"url":"https://WWW.example.com/a"}"#
  static let noCanonical =
    #"{"fetch":{"fetchedAt":"2026-12-01T11:36:44Z","finalURL":"https://b.test/final","status":200},"metadata":{"originalURL":"https://b.test/final","url":"https://b.test/final"},"normalizedURL":"https://b.test/","outcome":"ok","schema":1,"url":"https://b.test/"}"#

  @Test func aSchemaOneRecordDecodesIntoTheNewShape() throws {
    let record = try #require(StateStore.decode(Self.canonical))
    #expect(record.schema == 2)
    #expect(record.originalURL == "https://WWW.example.com/a")
    #expect(record.metadata?.canonicalURL == "https://example.com/canonical")
    #expect(record.url == "https://example.com/canonical")
    // The old `url` was only the page URL: no canonical URL, and the link is where the fetch ended.
    let plain = try #require(StateStore.decode(Self.noCanonical))
    #expect(plain.metadata?.canonicalURL == nil)
    #expect(plain.url == "https://b.test/final")
    #expect(Card(record: plain).url == "https://b.test/final")
    #expect(Card(record: record).url == "https://example.com/canonical")
  }

  @Test func theManifestWalkRewritesSchemaOneAndPassesSchemaTwoAsStored() throws {
    let upgraded = StateStore.currentJSON(Self.canonical)
    #expect(
      upgraded.contains(#""schema":2"#) && upgraded.contains(#""originalURL":"https://WWW.example.com/a""#))
    #expect(!upgraded.contains(#""schema":1"#))
    #expect(StateStore.decode(upgraded) == StateStore.decode(Self.canonical))
    #expect(StateStore.currentJSON(upgraded) == upgraded, "a current record is written as stored")
    // A URL holding the pattern's text is escaped in JSON, so it is not mistaken for version 1.
    let tricky = CrawlRecord(
      originalURL: #"https://c.test/?q=","schema":1,"url":""#, normalizedURL: "https://c.test/",
      outcome: .failed)
    let encoded = StateStore.encode(tricky)
    #expect(StateStore.currentJSON(encoded) == encoded)
  }

  @Test func aStateDatabaseHoldingSchemaOneRecordsGivesASchemaTwoWalk() throws {
    let directory = makeTemporaryDirectory("state")
    defer { removeDirectory(directory) }
    let state = try StateStore(path: directory + "/state.sqlite")
    try state.savePage(
      "https://b.test/",
      record: CrawlRecord(originalURL: "x", normalizedURL: "https://b.test/", outcome: .ok),
      run: 1, isGood: true, etag: nil, lastModified: nil, fetchedAt: 1)
    try state.flush()
    // An older thumbify's row:
    let changed = state.withDatabaseForTesting { db in
      let updated = try? db.query(
        "UPDATE pages SET current = ?1, good = ?1 WHERE url = ?2",
        [.text(Self.noCanonical), .text("https://b.test/")])
      return updated == nil ? -1 : db.changes
    }
    #expect(changed == 1)
    var stored: [StateStore.StoredRecord] = []
    var urls = ["https://b.test/"].makeIterator()
    try state.forEachRecord(of: 1, in: { urls.next() }, { stored.append($0) })
    let json = try #require(stored.first?.json)
    #expect(json.contains(#""originalURL":"https://b.test/""#) && json.contains(#""schema":2"#), "\(json)")
    #expect(json.hasSuffix(#""schema":2,"url":"https://b.test/final"}"#), "\(json)")
    #expect(try state.page("https://b.test/").good?.originalURL == "https://b.test/")
  }
}
