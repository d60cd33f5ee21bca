import Foundation
import Testing

@testable import Thumbify

@Suite("Cards from crawl records")
struct CardTests {
  func record(outcome: CrawlRecord.Outcome = .ok, metadata: PageMetadata = PageMetadata()) -> CrawlRecord {
    CrawlRecord(
      url: "https://www.Example.com/a#x", normalizedURL: "https://www.example.com/a", outcome: outcome,
      fetch: FetchFacts(
        finalURL: "https://www.example.com/a?final", status: 200, fetchedAt: "2026-01-01T00:00:00Z"),
      metadata: metadata,
      image: ThumbnailSet(
        source: "https://www.example.com/og.jpg", width: 1600, height: 900,
        placeholder: "1QcSHQRnh493V4dIh4eXh1h4kJUI",
        color: "#336699",
        variants: [
          Thumbnail(
            name: "card2x", path: "blobs/b.webp", width: 1200, height: 675, bytes: 9, format: .webp,
            sha256: "b"),
          Thumbnail(
            name: "card", path: "blobs/a.webp", width: 600, height: 338, bytes: 5, format: .webp, sha256: "a"),
        ]),
      error: outcome == .ok
        ? nil : RecordError(code: "dns", message: "Could not resolve host.", stage: "fetch"))
  }

  @Test func okRecordGivesTheDrawingFieldsWithVariantsNarrowestFirst() {
    var metadata = PageMetadata()
    metadata.title = "  A title \n"
    metadata.siteName = "Example"
    metadata.url = "https://www.example.com/canonical"
    let card = Card(record: record(metadata: metadata))
    #expect(card.key == CardKey(normalizedURL: "https://www.example.com/a").hex)
    #expect(card.url == "https://www.example.com/canonical")
    #expect(card.domain == "example.com")
    #expect(card.title == "A title")
    #expect(card.state == .ok)
    #expect(!card.stale)
    #expect(card.image?.variants.map(\.width) == [600, 1200])
    #expect(card.image?.variants.first?.path == "blobs/a.webp")
    #expect(card.image?.color == "#336699")
    #expect(card.error == nil)
  }

  @Test(arguments: [
    "javascript:alert(1)", "data:text/html,<script>x</script>", "//evil.example/", "vbscript:x",
  ])
  func nonHTTPCanonicalURLsAreNeverTheLink(_ hostile: String) {
    var metadata = PageMetadata()
    metadata.url = hostile
    metadata.video = VideoCandidate(url: hostile)
    let card = Card(record: record(metadata: metadata))
    #expect(card.url == "https://www.example.com/a?final")
    #expect(card.video == nil)
  }

  @Test func staleRecordKeepsItsDataAndCarriesTheError() {
    var metadata = PageMetadata()
    metadata.title = "Old title"
    let card = Card(record: record(outcome: .stale, metadata: metadata))
    #expect(card.state == .stale)
    #expect(card.stale)
    #expect(card.title == "Old title")
    #expect(card.image != nil)
    #expect(card.error?.code == "dns")
  }

  @Test func failedRecordHasOnlyURLDomainAndError() {
    var metadata = PageMetadata()
    metadata.title = "ignored"
    let card = Card(record: record(outcome: .failed, metadata: metadata))
    #expect(card.state == .failed)
    #expect(card.title == nil)
    #expect(card.image == nil)
    #expect(card.error?.message == "Could not resolve host.")
    #expect(card.url != nil)
  }

  @Test func anImageThatFailedIsExplainedOnlyWhenThereIsNoImage() {
    var withoutImage = record()
    withoutImage.image = nil
    withoutImage.imageError = RecordError(
      code: "undecodableImage", message: "The JPEG image could not be decoded.")
    #expect(Card(record: withoutImage).imageError?.code == "undecodableImage")
    var withImage = record()
    withImage.imageError = RecordError(code: "httpStatus", message: "The server answered HTTP 404.")
    #expect(Card(record: withImage).imageError == nil)
  }

  @Test func notModifiedIsOK() {
    #expect(Card(record: record(outcome: .notModified)).state == .ok)
  }

  @Test func longTextIsCutAndMalformedPlaceholdersDropped() {
    var metadata = PageMetadata()
    metadata.description = String(repeating: "x", count: 50_000)
    var hostile = record(metadata: metadata)
    hostile.image?.color = "red;background:url(x)"
    hostile.image?.placeholder = "<script>"
    let card = Card(record: hostile)
    #expect(card.description?.count == Card.maximumTextLength)
    #expect(card.image?.color == nil)
    #expect(card.image?.placeholder == nil)
  }
}
