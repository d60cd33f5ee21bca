import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyExtracting

@Suite("Lenient JSON, UTF-8 validation, text cleaning", .offThePool)
struct ParserUnitTests {
  private func parse(_ text: String) -> [JSONValue] {
    Array(text.utf8).withUnsafeBufferPointer { LenientJSONParser.parseAll($0) }
  }

  @Test func parsesJSONWithEscapesAndSurrogatePairs() {
    let values = parse(
      #"{"a": "x\"y\\z\/\n\u00e9\ud83d\ude00", "b": [1, -2.5e3, true, false, null], "a": "dup"}"#)
    #expect(values.count == 1)
    #expect(values.first?["a"] == .string("x\"y\\z/\né😀"))
    #expect(values.first?["b"] == .array([.number(1), .number(-2500), .bool(true), .bool(false), .null]))
  }

  @Test func toleratesWhatPagesDo() {
    #expect(parse("<!--\n{\"a\": 1,}\n-->").first?["a"] == .number(1))
    #expect(
      parse("//<![CDATA[\n[{\"a\": \"tab\there\"},]\n//]]>").first
        == .array([.object(["a": .string("tab\there")])]))
    #expect(parse(#"{"a": 1} {"b": 2}"#).count == 2)
  }

  @Test(arguments: [
    #"{"a": }"#, #"{"a" 1}"#, #"{"a": "unterminated"#, #"[1 2]"#, #"{"a": tru}"#, #"{"a": "\u12"}"#,
  ])
  func rejectsMalformedJSON(_ text: String) {
    #expect(parse(text).isEmpty)
  }

  @Test func depthIsBounded() {
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(parse(deep).isEmpty)
    let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    #expect(parse(fine).count == 1)
  }

  @Test(
    arguments: [
      ([0x61, 0xC3, 0xA9], true), ([0xE2, 0x82, 0xAC], true), ([0xF0, 0x9F, 0x98, 0x80], true),
      ([0xC0, 0xAF], false), ([0xE0, 0x80, 0xAF], false), ([0xED, 0xA0, 0x80], false),
      ([0xF4, 0x90, 0x80, 0x80], false),
      ([0xC3], false), ([0x80], false), ([0xFF], false),
      (Array("plain ascii text, long enough for words".utf8), true),
    ] as [([UInt8], Bool)])
  func utf8Validation(_ bytes: [UInt8], _ isValid: Bool) {
    #expect(bytes.withUnsafeBufferPointer { UTF8Validator.validate($0) }.isValid == isValid)
  }

  @Test func utf8ValidationReportsNonASCII() {
    #expect(Array("abc".utf8).withUnsafeBufferPointer { UTF8Validator.validate($0) }.hasNonASCII == false)
    #expect(Array("abcé".utf8).withUnsafeBufferPointer { UTF8Validator.validate($0) }.hasNonASCII == true)
  }

  @Test(
    arguments: [
      ("  a  b  ", "a b"), ("\u{A0}a\u{2009}\u{3000}b\u{85}", "a b"), ("a\u{0}b", "ab"), (" \t\n ", nil),
      ("e\u{301}", "e\u{301}"),
    ] as [(String, String?)])
  func cleaning(_ input: String, _ expected: String?) {
    #expect(TextNormalizer.clean(input, limit: 100) == expected)
  }

  @Test func cappingKeepsWholeGraphemes() {
    let text = String(repeating: "e\u{301}", count: 10)
    #expect(TextNormalizer.clean(text, limit: 4) == String(repeating: "e\u{301}", count: 4))
    #expect(TextNormalizer.clean("ab cd", limit: 3) == "ab")
  }
}
