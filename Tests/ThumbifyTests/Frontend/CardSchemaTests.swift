import Foundation
import Testing
import ThumbifyExtracting
import ThumbifyStore
import ThumbifyTestSupport

/// docs/cards.schema.json and the card files agree: every field written is in the schema, every
/// required field is written, and the documented patterns hold.
@Suite("Card schema")
struct CardSchemaTests {
  static let schemaPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/cards.schema.json")
    .path

  func object(_ value: Any?) throws -> [String: Any] { try #require(value as? [String: Any]) }

  /// Checks `value` against the subset of JSON Schema the card schema uses.
  func validate(_ value: Any, _ schema: [String: Any], root: [String: Any], at path: String) throws {
    var schema = schema
    if let reference = schema["$ref"] as? String {
      let name = String(reference.dropFirst("#/$defs/".count))
      schema = try object(try object(root["$defs"])[name])
    }
    if let pattern = schema["pattern"] as? String {
      let text = try #require(value as? String, "\(path) is not a string")
      #expect(text.range(of: pattern, options: .regularExpression) != nil, "\(path) = \(text) !~ \(pattern)")
    }
    if let choices = schema["enum"] as? [String] {
      #expect(choices.contains(value as? String ?? ""), "\(path) = \(value)")
    }
    if let properties = schema["properties"] as? [String: Any] {
      let dictionary = try object(value)
      for required in schema["required"] as? [String] ?? [] {
        #expect(dictionary[required] != nil, "\(path).\(required) is required")
      }
      for (key, member) in dictionary {
        let memberSchema = try #require(
          properties[key] as? [String: Any], "\(path).\(key) is not in the schema")
        try validate(member, memberSchema, root: root, at: "\(path).\(key)")
      }
    }
    if let items = schema["items"] as? [String: Any] {
      for (index, item) in try #require(value as? [Any]).enumerated() {
        try validate(item, items, root: root, at: "\(path)[\(index)]")
      }
    }
  }

  @Test func cardsOfEveryStateMatchTheSchema() throws {
    let root = try object(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.schemaPath))))
    let directory = try FrontendFixtures.temporaryDirectory()
    var records = try FrontendFixtures.records(in: directory, count: 5)
    records[0].metadata?.video = VideoCandidate(
      url: "https://v.example/a.mp4", type: "video/mp4", width: 640, height: 360)
    records[0].metadata?.image = ImageCandidate(url: "https://i.example/a.jpg", alt: "An image")
    records[0].error = RecordError(code: "dns", message: "m", stage: "fetch")
    var states = Set<String>()
    for record in records {
      let json = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(Card(record: record)))
      try validate(json, root, root: root, at: "card")
      states.insert(try object(json)["state"] as? String ?? "")
    }
    #expect(states == ["ok", "stale", "failed"])
  }
}
