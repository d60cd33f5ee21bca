import Foundation
import Testing

@testable import Thumbify
@testable import ThumbifyExtracting
@testable import ThumbifyFetching
@testable import ThumbifyImaging
@testable import ThumbifyStore
@testable import ThumbifySystem
@testable import ThumbifyTestSupport

/// `JSONWriter` must give exactly `JSONEncoder`'s bytes (sorted keys, unescaped slashes): the state
/// database, the manifest and the cards are written with it, and readers compare bytes.
@Suite("JSON writer", .offThePool)
struct JSONWriterTests {
  static let reference: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  func expectSameBytes(
    _ value: some Encodable & JSONWritable, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let expected = [UInt8](try Self.reference.encode(value))
    let actual = try JSONWriter.encode(value)
    #expect(
      String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
      sourceLocation: sourceLocation)
  }

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
    try expectSameBytes(Self.completeRecord)
    try expectSameBytes(Self.completeCard)
    try expectSameBytes(Card(record: Self.completeRecord))
    var failed = Self.completeRecord
    failed.outcome = .failed
    try expectSameBytes(Card(record: failed))
    try expectSameBytes(CrawlRecord(originalURL: "u", normalizedURL: "n", outcome: .notModified))
    try expectSameBytes(RecordError(code: "c", message: "m", stage: nil))
    try expectSameBytes(PageMetadata())
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

  @Test func fixtureRecordsAndCardsEncodeAsJSONEncoderDoes() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let records =
      try FrontendFixtures.records(in: directory, count: 10) + FrontendFixtures.hostileRecords(in: directory)
    for record in records {
      try expectSameBytes(record)
      try expectSameBytes(Card(record: record))
    }
  }

  @Test func numbersEncodeAsJSONEncoderDoes() throws {
    var facts = Self.completeRecord.fetch!
    for duration in [
      0.000_05, 1e-7, 0.1, 3.0, 12_345_678.9, 0.012, 1e21, 1e16, 123_456_789_012_345_678.0, -0.0, 0.000_123,
      1.5e300, 0.1 + 0.2, -2.5, 1_000_000, 0,
    ] {
      facts.duration = duration
      try expectSameBytes(facts)
    }
    for status in [Int.min, -1, 0, Int.max] {
      facts.status = status
      try expectSameBytes(facts)
    }
  }

  @Test func stringsEncodeAsJSONEncoderDoes() throws {
    var controls = ""
    for value in 0..<0x20 { controls.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
    for text in [
      controls, "\u{7F}\u{2028}\u{2029}/\\\"", "é😀日本", "</script>", "", "a\u{0}b", "\u{FEFF}",
      "\"quoted\" \\ back", String(repeating: "long run / ", count: 500),
    ] {
      try expectSameBytes(RecordError(code: text, message: text, stage: text))
      try expectSameBytes(FetchFacts(finalURL: text, status: 1, redirects: [text, text], fetchedAt: text))
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
