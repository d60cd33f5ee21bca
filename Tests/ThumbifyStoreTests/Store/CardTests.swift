import Foundation
import Testing
import ThumbifyExtracting
import ThumbifySystemTestSupport

@testable import ThumbifyStore

@Suite("Cards from crawl records", .offThePool)
struct CardTests {
  func record(outcome: CrawlRecord.Outcome = .ok, metadata: PageMetadata = PageMetadata()) -> CrawlRecord {
    CrawlRecord(
      originalURL: "https://www.Example.com/a#x", normalizedURL: "https://www.example.com/a",
      outcome: outcome,
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

  /// `isLinkable` and `domain(of:)` read normal URLs from their bytes; they must say what
  /// `URLComponents` says about every spelling.
  @Test func linksAndDomainsAgreeWithURLComponents() {
    func viaComponents(_ url: String) -> (linkable: Bool, domain: String?) {
      let components = URLComponents(string: url)
      let scheme = components?.scheme?.lowercased()
      let host = components?.host?.lowercased()
      let linkable = (scheme == "http" || scheme == "https") && !(host ?? "").isEmpty
      var domain = host.flatMap { $0.isEmpty ? nil : $0 }
      if domain?.hasPrefix("www.") == true { domain?.removeFirst(4) }
      return (linkable, domain)
    }
    let urls = [
      "http://example.com/", "https://www.example.com/a?b=c&d=e", "http://127.0.0.2:18080/p/1.html",
      "https://example.com:8443/x", "http://a.test/x[1]", "http://a.test/a|b", "http://a.test/a^b",
      "http://a.test/~user/(x)*!$',;=:@", "http://a.test/?", "http://a.test/%41", "http://a.test/a b",
      "http://a.test/é", "http://a.test/{x}", "http://a.test/a\\b", "http://a.test/a\"b", "http://a.test/<a>",
      "http://a.test/`", "HTTP://A.TEST/", "http://a.test", "ftp://a.test/", "http:///x",
      "http://user@a.test/",
      "http://[::1]/", "http://xn--bcher-kva.test/", "http://a.test:80/", "mailto:a@b.test", "",
      "https://www.example.com/a?final", "http://a.test/#f", "http://1.2.3.4/", "http://a..test/",
    ]
    for url in urls {
      let expected = viaComponents(url)
      #expect(Card.isLinkable(url) == expected.linkable, "\(url)")
      #expect(Card.domain(of: url) == expected.domain, "\(url)")
      if Card.normalHost(url) != nil { #expect(expected.linkable, "the fast path only takes links: \(url)") }
    }
  }

  @Test func okRecordGivesTheDrawingFieldsWithVariantsNarrowestFirst() {
    var metadata = PageMetadata()
    metadata.title = "  A title \n"
    metadata.siteName = "Example"
    metadata.canonicalURL = "https://www.example.com/canonical"
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
    metadata.canonicalURL = hostile
    metadata.video = VideoCandidate(url: hostile)
    metadata.audio = AudioCandidate(url: hostile, type: "audio/mpeg")
    let card = Card(record: record(metadata: metadata))
    #expect(card.url == "https://www.example.com/a?final")
    #expect(card.canonicalURL == nil)
    #expect(card.video == nil)
    #expect(card.audio == nil)
  }

  @Test func audioIsCarriedLikeVideo() {
    var metadata = PageMetadata()
    metadata.audio = AudioCandidate(url: "https://cdn.example.net/ep1.mp3", type: "audio/mpeg")
    #expect(
      Card(record: record(metadata: metadata)).audio
        == Card.Audio(url: "https://cdn.example.net/ep1.mp3", type: "audio/mpeg"))
    #expect(Card(record: record(outcome: .failed, metadata: metadata)).audio == nil)
    #expect(Card(record: record(outcome: .stale, metadata: metadata)).audio?.type == "audio/mpeg")
  }

  /// Issue 19: a card links on the page's host (`url`, as its record's) and carries the canonical URL
  /// the page declares on any host (`canonicalURL`) for de-duplication.
  @Test func aCanonicalURLOnAnotherHostIsCarriedButNotLinked() {
    var metadata = PageMetadata()
    metadata.canonicalURL = "https://twitter.com/a/status/1"
    let crossHost = record(metadata: metadata)
    let card = Card(record: crossHost)
    #expect(card.url == "https://www.example.com/a?final")
    #expect(card.url == crossHost.url)
    #expect(card.canonicalURL == "https://twitter.com/a/status/1")
    #expect(card.domain == "example.com")
    metadata.canonicalURL = "https://example.com/canonical"
    let sameHost = Card(record: record(metadata: metadata))
    #expect(sameHost.url == "https://example.com/canonical")
    #expect(sameHost.canonicalURL == "https://example.com/canonical")
    // A failed record draws no page data, its canonical URL included.
    #expect(Card(record: record(outcome: .failed, metadata: metadata)).canonicalURL == nil)
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
