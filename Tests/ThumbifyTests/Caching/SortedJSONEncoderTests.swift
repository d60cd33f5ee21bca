import Foundation
import Testing

@testable import Thumbify

/// `SortedJSONEncoder` must give exactly `JSONEncoder`'s bytes (sorted keys, unescaped slashes): the
/// state database, the manifest and the cards are written with it, and readers compare bytes.
@Suite("Sorted JSON encoder")
struct SortedJSONEncoderTests {
  static let reference: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  func expectSameBytes<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let expected = [UInt8](try Self.reference.encode(value))
    let actual = try SortedJSONEncoder.encode(value)
    #expect(
      String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
      sourceLocation: sourceLocation)
  }

  @Test func recordsAndCardsEncodeAsJSONEncoderDoes() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let records =
      try FrontendFixtures.records(in: directory, count: 10) + FrontendFixtures.hostileRecords(in: directory)
    for var record in records {
      try expectSameBytes(record)
      try expectSameBytes(Card(record: record))
      record.fetch?.duration = 0.000_05
      record.fetch?.redirects = ["http://a.example/", "http://b.example/x?y=/z"]
      record.imageError = RecordError(code: "httpStatus", message: "The server answered HTTP 404.")
      try expectSameBytes(record)
    }
    try expectSameBytes(RecordError(code: "c", message: "m", stage: nil))
    try expectSameBytes(CrawlRecord(url: "u", normalizedURL: "n", outcome: .failed))
  }

  @Test func numbersAndStringsEncodeAsJSONEncoderDoes() throws {
    try expectSameBytes([
      0.000_05, 1e-7, 0.1, 3.0, 12_345_678.9, 0.012, 1e21, 1e16, 123_456_789_012_345_678.0, -0.0, 0.000_123,
      1.5e300, 0.1 + 0.2, -2.5, 1_000_000,
    ])
    try expectSameBytes([Float(0.1), 2, 1e-7])
    try expectSameBytes([Int.min, -1, 0, Int.max])
    try expectSameBytes([UInt64.max])
    try expectSameBytes([true, false])
    var controls = ""
    for value in 0..<0x20 { controls.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
    try expectSameBytes([
      controls, "\u{7F}\u{2028}\u{2029}/\\\"", "é😀日本", "</script>", "", "a\u{0}b", "\u{FEFF}",
    ])
    try expectSameBytes([
      "b": 1, "a": 2, "B": 3, "_": 4, "é": 5, "a1": 6, "a10": 7, "a2": 8, "aB": 9, "ab": 10,
    ])
    try expectSameBytes([String: [Int]]())
    try expectSameBytes([[String]]())
  }

  @Test func aNonFiniteNumberIsAnError() {
    #expect(throws: EncodingError.self) { try SortedJSONEncoder.encode([Double.nan]) }
    #expect(throws: EncodingError.self) { try SortedJSONEncoder.encode([Double.infinity]) }
  }
}
