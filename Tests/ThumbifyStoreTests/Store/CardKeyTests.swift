import Testing
import ThumbifyExtracting
import ThumbifyStore
import ThumbifySystemTestSupport

@Suite("Card keys", .offThePool)
struct CardKeyTests {
  @Test func keyIsTheSHA256OfTheNormalizedURLsUTF8() {
    // FIPS 180-2 test vector: SHA-256("abc").
    #expect(
      CardKey(normalizedURL: "abc").hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(CardKey(normalizedURL: "https://example.com/").hex.count == 64)
  }

  @Test func spellingsOfOneURLShareAKey() throws {
    let a = try CardKey(url: "HTTPS://Example.COM:443/a/./b/../c#top")
    let b = try CardKey(url: "https://example.com/a/c")
    #expect(a == b)
    #expect(a.hex == CardKey(normalizedURL: "https://example.com/a/c").hex)
    #expect(try CardKey(url: "https://example.com/a/d") != a)
  }

  @Test func nonHTTPURLsHaveNoKey() {
    #expect(throws: URLNormalizationError.unsupportedScheme("javascript")) {
      try CardKey(url: "javascript:alert(1)")
    }
    #expect(throws: URLNormalizationError.invalidURL("not a url")) { try CardKey(url: "not a url") }
  }

  @Test(arguments: ["", "abc", String(repeating: "A", count: 64), String(repeating: "g", count: 64)])
  func onlyLowerCaseHexNamesAreKeys(_ name: String) {
    #expect(CardKey(hex: name) == nil)
  }

  @Test func hexRoundTrips() {
    let key = CardKey(normalizedURL: "https://example.com/")
    #expect(CardKey(hex: key.hex) == key)
    #expect(key.fileName == key.hex + ".json")
  }
}
