import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyExtracting

@Suite("Character references", .offThePool)
struct CharacterReferenceTests {
  private func decode(_ text: String, attribute: Bool = false) -> String {
    let bytes = Array(text.utf8)
    let decoded = bytes.withUnsafeBufferPointer { CharacterReferences.decode($0, isAttribute: attribute) }
    return String(decoding: decoded, as: UTF8.self)
  }

  @Test func tableHasEveryHTML5Name() {
    #expect(CharacterReferences.named.count == 2231)
    #expect(CharacterReferences.named.keys.filter { !$0.hasSuffix(";") }.count == 106)
  }

  @Test(arguments: [
    ("&amp;", "&"), ("&lt;&gt;&quot;&apos;", "<>\"'"), ("&eacute;", "é"),
    ("&CounterClockwiseContourIntegral;", "\u{2233}"),
    ("&NotEqualTilde;", "\u{2242}\u{0338}"), ("&fjlig;", "fj"), ("&nbsp;", "\u{A0}"), ("&Afr;", "\u{1D504}"),
    ("&unknown;", "&unknown;"), ("&", "&"), ("& amp;", "& amp;"), ("a&&b", "a&&b"),
  ])
  func namedReferences(_ input: String, _ expected: String) {
    #expect(decode(input) == expected)
  }

  @Test(arguments: [
    ("&copy 2024", "© 2024"), ("&notit;", "¬it;"), ("&ampx", "&x"), ("&AMP", "&"), ("&Eacuteclair", "Éclair"),
  ])
  func legacyNamesWithoutSemicolonInText(_ input: String, _ expected: String) {
    #expect(decode(input) == expected)
  }

  @Test(arguments: [
    ("?a=1&copy=2", "?a=1&copy=2"), ("?x&notin=1", "?x&notin=1"), ("?x&copyright", "?x&copyright"),
    ("&copy 2024", "© 2024"), ("?a=1&amp;b=2", "?a=1&b=2"), ("&copy;=", "©="),
  ])
  func attributeValueException(_ input: String, _ expected: String) {
    #expect(decode(input, attribute: true) == expected)
  }

  @Test(arguments: [
    ("&#65;", "A"), ("&#x41;", "A"), ("&#X41", "A"), ("&#65x", "Ax"), ("&#x80;", "€"), ("&#150;", "–"),
    ("&#x9F;", "Ÿ"), ("&#x81;", "\u{81}"), ("&#0;", "\u{FFFD}"), ("&#xD800;", "\u{FFFD}"),
    ("&#x110000;", "\u{FFFD}"), ("&#99999999999999999999;", "\u{FFFD}"), ("&#;", "&#;"), ("&#x;", "&#x;"),
    ("&#x1F600;", "😀"),
  ])
  func numericReferences(_ input: String, _ expected: String) {
    #expect(decode(input) == expected)
  }
}
