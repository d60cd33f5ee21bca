import Foundation
import Testing
import ThumbifyExtracting
import ThumbifyExtractingTestSupport
import ThumbifySystem
import ThumbifySystemTestSupport

@testable import ThumbifyStore

/// `JSONWriter` must give exactly `JSONEncoder`'s bytes (sorted keys, unescaped slashes): the state
/// database, the manifest and the cards are written with it, and readers compare bytes.
@Suite("JSON writer", .offThePool)
struct JSONWriterTests {
  static let reference: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  /// A record with every optional of every type it holds set (and every array non-empty).
  static let completeRecord: CrawlRecord = {
    let metadata = PageMetadata.complete
    let thumbnail = Thumbnail(
      name: "card", path: "blobs/ab/cd/abcd.webp", width: 600, height: 315, bytes: 12_345, format: .webp,
      sha256: String(repeating: "ab", count: 32))
    let set = ThumbnailSet(
      source: "https://example.com/i.jpg", width: 1200, height: 630, placeholder: "3IoFDIDPqGV2d6d6",
      color: "#88c847", variants: [thumbnail, thumbnail],
      profile: ProfileRecord(
        description: "Adobe RGB (1998)", converted: false,
        warning: ProfileWarningRecord(code: "colorProfileUnusable", message: "The profile is \"odd\".")))
    let error = RecordError(code: "httpStatus", message: "The server answered HTTP 503.", stage: "fetch")
    return CrawlRecord(
      originalURL: "https://Example.com/a#top", normalizedURL: "https://example.com/a", outcome: .stale,
      fetch: FetchFacts(
        finalURL: "https://example.com/a", status: 200, redirects: ["http://example.com/a"], etag: "\"e\"",
        lastModified: "Tue, 01 Dec 2026 06:52:01 GMT", fetchedAt: "2026-12-01T11:36:44Z", duration: 0.00518),
      metadata: metadata, image: set, icon: set, error: error, imageError: error, iconError: error,
      render: RenderFacts(
        reason: "appShell", fields: ["title", "image"], finalURL: "https://example.com/a/rendered"),
      renderError: RecordError(code: "renderFailed", message: "The browser exited.", stage: "render"),
      oembedError: RecordError(code: "oembedInvalid", message: "Not oEmbed.", stage: "oembed"),
      needsRendering: true, incomplete: ["oembed", "image", "icon"])
  }()

  /// A card with every optional set.
  static let completeCard: Card = {
    var card = Card(record: completeRecord)
    let picture = Card.Picture(
      url: "https://example.com/i.jpg", width: 1200, height: 630, placeholder: "3IoF", color: "#88c847",
      alt: "Alt",
      variants: [
        Card.Variant(name: "card", path: "blobs/ab/cd/abcd.webp", width: 600, height: 315, format: "webp")
      ])
    card.image = picture
    card.icon = picture
    card.video = Card.Video(
      url: "https://example.com/v.mp4", type: "video/mp4", width: 640, height: 360, kind: .file, duration: 93)
    card.audio = Card.Audio(url: "https://example.com/a.mp3", type: "audio/mpeg", kind: .file, duration: 1800)
    card.error = Card.Failure(code: "timeout", message: "m", stage: "fetch")
    card.imageError = card.error
    return card
  }()

  /// The paths of `value`'s properties that are nil or empty arrays, at any depth.
  static func unsetProperties(of value: Any, path: String = "") -> [String] {
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
      guard let wrapped = mirror.children.first?.value else { return [path] }
      return unsetProperties(of: wrapped, path: path)
    }
    if mirror.displayStyle == .collection {
      guard !mirror.children.isEmpty else { return [path] }
      return mirror.children.flatMap { unsetProperties(of: $0.value, path: path + "[]") }
    }
    guard mirror.displayStyle == .struct else { return [] }
    return mirror.children.flatMap { unsetProperties(of: $0.value, path: path + "." + ($0.label ?? "?")) }
  }

  @Test func theCompleteFixturesSetEveryProperty() {
    #expect(Self.unsetProperties(of: Self.completeRecord) == [])
    #expect(Self.unsetProperties(of: Self.completeCard) == [])
    // The check itself sees an unset property.
    #expect(
      Self.unsetProperties(of: CrawlRecord(originalURL: "u", normalizedURL: "n", outcome: .ok)).contains(
        ".fetch"))
  }

  @Test func everyPropertyOfRecordsAndCardsEncodesAsJSONEncoderDoes() throws {
    try expectJSONWriterMatchesJSONEncoder(Self.completeRecord)
    try expectJSONWriterMatchesJSONEncoder(Self.completeCard)
    try expectJSONWriterMatchesJSONEncoder(Card(record: Self.completeRecord))
    var failed = Self.completeRecord
    failed.outcome = .failed
    try expectJSONWriterMatchesJSONEncoder(Card(record: failed))
    try expectJSONWriterMatchesJSONEncoder(
      CrawlRecord(originalURL: "u", normalizedURL: "n", outcome: .notModified))
    try expectJSONWriterMatchesJSONEncoder(RecordError(code: "c", message: "m", stage: nil))
    try expectJSONWriterMatchesJSONEncoder(PageMetadata())
  }

  /// What the state database holds is read back for unchanged pages (304) and `thumbify cards`: every
  /// property must survive the trip, including those the hand-written `PageMetadata` decoder lists.
  @Test func everyPropertyOfRecordsAndCardsDecodesBackToTheSameValue() throws {
    let decoder = JSONDecoder()
    let record = try decoder.decode(CrawlRecord.self, from: Data(try JSONWriter.encode(Self.completeRecord)))
    #expect(record == Self.completeRecord)
    #expect(record.metadata == Self.completeRecord.metadata)
    let card = try decoder.decode(Card.self, from: Data(try JSONWriter.encode(Self.completeCard)))
    #expect(card == Self.completeCard)
  }

  /// An extracted date's text fields reach the JSON of the manifest and the cards (`PageMetadata`'s
  /// `JSONWritable` conformance is the store's, hence here and not with the date extraction tests).
  @Test func jsonCarriesTheTextFields() throws {
    let head = #"<meta property="article:published_time" content="4/6/2016">"#
    let html = "<!doctype html><html><head><title>T</title>\(head)</head><body></body></html>"
    let metadata = MetadataExtractor().extract(
      html: Array(html.utf8), pageURL: "https://www.example.com/articles/story.html", contentType: nil)
    let json = String(decoding: try JSONWriter.encode(metadata), as: UTF8.self)
    #expect(json.contains(#""publishedTimeText":"4/6/2016""#))
  }

  @Test func numbersEncodeAsJSONEncoderDoes() throws {
    var facts = Self.completeRecord.fetch!
    for duration in [
      0.000_05, 1e-7, 0.1, 3.0, 12_345_678.9, 0.012, 1e21, 1e16, 123_456_789_012_345_678.0, -0.0, 0.000_123,
      1.5e300, 0.1 + 0.2, -2.5, 1_000_000, 0,
    ] {
      facts.duration = duration
      try expectJSONWriterMatchesJSONEncoder(facts)
    }
    for status in [Int.min, -1, 0, Int.max] {
      facts.status = status
      try expectJSONWriterMatchesJSONEncoder(facts)
    }
  }

  @Test func stringsEncodeAsJSONEncoderDoes() throws {
    var controls = ""
    for value in 0..<0x20 { controls.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
    for text in [
      controls, "\u{7F}\u{2028}\u{2029}/\\\"", "é😀日本", "</script>", "", "a\u{0}b", "\u{FEFF}",
      "\"quoted\" \\ back", String(repeating: "long run / ", count: 500),
    ] {
      try expectJSONWriterMatchesJSONEncoder(RecordError(code: text, message: text, stage: text))
      try expectJSONWriterMatchesJSONEncoder(
        FetchFacts(finalURL: text, status: 1, redirects: [text, text], fetchedAt: text))
    }
  }

  @Test func aNonFiniteNumberIsAnError() {
    var facts = Self.completeRecord.fetch!
    for duration in [Double.nan, .infinity, -.infinity] {
      facts.duration = duration
      #expect(throws: EncodingError.self) { try JSONWriter.encode(facts) }
      #expect(throws: EncodingError.self) { try Self.reference.encode(facts) }
    }
  }
}
