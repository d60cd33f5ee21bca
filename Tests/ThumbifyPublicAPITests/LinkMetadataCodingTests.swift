import Foundation
import Testing
import Thumbify

@Suite("Public API: LinkMetadata's encoding is the card")
struct PublicLinkMetadataCodingTests {
  /// A card as the crawl wrote it before `LinkMetadata` existed (schema 1, without `originalURL`,
  /// the dates and the pictures' `url`), committed so that a change to the format that breaks old
  /// archives fails here.
  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/card-schema1.json")

  @Test func aCommittedCardDecodes() throws {
    let metadata = try JSONDecoder().decode(LinkMetadata.self, from: Data(contentsOf: Self.fixture))
    #expect(metadata.title == "Storm season")
    #expect(metadata.summary == "Dark clouds over the motorway.")
    #expect(metadata.siteName == "Weather notes")
    #expect(metadata.url == URL(string: "https://example.com/en/storms.html"))
    // An old card has no originalURL: the normalized URL stands in.
    #expect(metadata.originalURL == URL(string: "https://example.com/en/storms.html"))
    #expect(metadata.image?.width == 1600)
    #expect(metadata.image?.variants.map(\.name) == ["card", "card2x"])
    #expect(metadata.image?.url == nil)
    #expect(metadata.icon?.color == "#ffcc00")
    #expect(metadata.video?.width == 1280)
    #expect(metadata.audio?.type == "audio/mpeg")
    #expect(metadata.publishedDate == nil)
  }

  @Test func itEncodesAsTheCardItDecodedFrom() throws {
    // Given the committed card
    let bytes = try Data(contentsOf: Self.fixture)
    let metadata = try JSONDecoder().decode(LinkMetadata.self, from: bytes)

    // When it is encoded again with sorted keys
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let encoded = try encoder.encode(metadata)

    // Then it is the same JSON object, and decodes to an equal value
    let original = try JSONSerialization.jsonObject(with: bytes) as? NSDictionary
    let again = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
    #expect(original != nil && original == again)
    #expect(try JSONDecoder().decode(LinkMetadata.self, from: encoded) == metadata)
  }

  @Test(arguments: [
    ("2026-11-02T07:30:00Z", 1_793_604_600.0), ("2026-11-02T08:30:00+01:00", 1_793_604_600.0),
    ("2026-11-02T07:30:00.500Z", 1_793_604_600.5), ("2026-11-02", 1_793_577_600.0),
  ])
  func datesAreReadInEachFormTheCardHolds(text: String, seconds: Double) throws {
    var card = try JSONDecoder().decode(Card.self, from: Data(contentsOf: Self.fixture))
    card.publishedTime = text
    card.modifiedTime = text
    let metadata = LinkMetadata(card: card)
    #expect(metadata.publishedDate == Date(timeIntervalSince1970: seconds))
    #expect(metadata.modifiedDate == Date(timeIntervalSince1970: seconds))
  }
}
