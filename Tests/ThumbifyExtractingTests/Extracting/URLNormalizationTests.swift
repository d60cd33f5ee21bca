import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyExtracting

@Suite("URL normalization", .offThePool)
struct URLNormalizationTests {
  @Test(arguments: [
    ("HTTP://Example.COM", "http://example.com/"),
    ("http://example.com:80/a", "http://example.com/a"),
    ("https://example.com:443/", "https://example.com/"),
    ("https://example.com:8443/", "https://example.com:8443/"),
    ("http://example.com:0080/", "http://example.com/"),
    ("http://example.com:/x", "http://example.com/x"),
    ("http://example.com/page#section", "http://example.com/page"),
    ("http://example.com/?#frag", "http://example.com/"),
    ("  http://example.com/a  ", "http://example.com/a"),
    ("http://example.com/a/./b/../c", "http://example.com/a/c"),
    ("http://example.com/a/..", "http://example.com/"),
    ("http://example.com/../../x", "http://example.com/x"),
    ("http://example.com\\a\\b", "http://example.com/a/b"),
    ("http://example.com/%7euser/%41", "http://example.com/~user/A"),
    ("http://example.com/a%2fb%2Fc", "http://example.com/a%2Fb%2Fc"),
    ("http://example.com/a b", "http://example.com/a%20b"),
    ("http://example.com/caf\u{E9}", "http://example.com/caf%C3%A9"),
    ("http://example.com/caf%c3%a9", "http://example.com/caf%C3%A9"),
    ("http://example.com/100%", "http://example.com/100%25"),
    ("http://example.com/s?q=a+b&x=%2f&y", "http://example.com/s?q=a+b&x=%2F&y"),
    ("http://example.com/s?b=2&a=1", "http://example.com/s?b=2&a=1"),
    ("http://B\u{FC}cher.example/", "http://xn--bcher-kva.example/"),
    ("http://\u{4E2D}\u{6587}.com/", "http://xn--fiq228c.com/"),
    ("http://\u{65E5}\u{672C}\u{8A9E}.jp/", "http://xn--wgv71a119e.jp/"),
    ("http://%D0%BF%D1%80%D0%B8%D0%BC%D0%B5%D1%80.ru/", "http://xn--e1afmkfd.ru/"),
    ("http://[::1]:8080/", "http://[::1]:8080/"),
    ("http://[2001:DB8::1]/", "http://[2001:db8::1]/"),
    ("http://User:P%61ss@Example.com/", "http://User:Pass@example.com/"),
    ("http://127.0.0.1:8080", "http://127.0.0.1:8080/"),
    ("http:///a", "http://a/"),
    ("http://0x7f000001:8080/", "http://127.0.0.1:8080/"),
    ("http://127.1/", "http://127.0.0.1/"),
  ])
  func normalizesSpellingsOfTheSameURL(input: String, expected: String) throws {
    #expect(try URLNormalization.normalize(input) == expected)
  }

  /// The already-normal shortcut must never change a result: every spelling here, normalized or not,
  /// gives the same string through the shortcut and through the full rules.
  @Test func theAlreadyNormalShortcutAgreesWithTheFullRules() throws {
    let spellings = [
      "http://127.0.0.2:18080/p/1.html", "https://example.com/", "http://example.com/a/b?x=1&y=2",
      "http://127.0.0.1:80/", "https://example.com:443/a", "http://example.com:8080/",
      "http://example.com:08080/",
      "http://example.com:65536/", "http://example.com:/", "http://example.com", "http://example.com?x",
      "http://example.com/?", "http://example.com/a?", "http://example.com/a?b?", "http://example.com/./a",
      "http://example.com/a/../b", "http://example.com/.well-known/x", "http://example.com/a.b/c..d",
      "http://example.com/a?x=/./..", "http://Example.com/", "http://example.COM/", "http://example.com./",
      "http://example..com/", "http://.example.com/", "http://xn--bcher-kva.example/",
      "http://xn--a.example/",
      "http://1.2.3/", "http://1.2.3.4.5/", "http://01.2.3.4/", "http://1.2.3.256/",
      "http://255.255.255.255/",
      "http://0.0.0.0/", "http://0x7f.0.0.1/", "http://example.1a/", "http://1a.example/", "http://a-b.c-d/",
      "http://user@example.com/", "http://[::1]/", "http://example.com/a b", "http://example.com/%41",
      "http://example.com/a#f", "http://example.com/a\\b", "http://example.com/caf\u{E9}",
      "http://example.com/a\"b", "http://example.com/{x}", "http://example.com/a|b", "http://example.com/a^b",
      "http://example.com/a`b", "http://example.com/<a>", "http://example.com/[a]:@!$&'()*+,;=~_-",
      " http://example.com/", "http://example.com/ ", "HTTP://example.com/", "ftp://example.com/",
      "http:/example.com/", "http:///a", "https://a/", "http://a:1/", "http://a:99999/",
    ]
    for spelling in spellings {
      let byRules = Result { () throws(URLNormalizationError) in
        try URLNormalization.normalizeByRules(spelling)
      }
      let fast = Result { () throws(URLNormalizationError) in try URLNormalization.normalize(spelling) }
      #expect(fast == byRules, "\(spelling)")
      if URLNormalization.isAlreadyNormal(spelling) { #expect(try byRules.get() == spelling, "\(spelling)") }
    }
    #expect(URLNormalization.isAlreadyNormal("http://127.0.0.2:18080/p/1.html"))
    #expect(URLNormalization.isAlreadyNormal("https://example.com/a/b?x=1&y=2"))
  }

  @Test func equivalentSpellingsCollapseToOneKey() throws {
    let spellings = [
      "http://example.com/a", "HTTP://EXAMPLE.com:80/a", "http://example.com/./a#x", "http://example.com/%61",
    ]
    let normalized = try Set(
      spellings.map { url throws(URLNormalizationError) in try URLNormalization.normalize(url) })
    #expect(normalized == ["http://example.com/a"])
  }

  @Test func normalizingTwiceChangesNothing() throws {
    let once = try URLNormalization.normalize("HTTP://M\u{FC}nchen.DE:80/a b/%7e/../c?x=%2f#f")
    #expect(once == "http://xn--mnchen-3ya.de/a%20b/c?x=%2F")
    #expect(try URLNormalization.normalize(once) == once)
  }

  @Test(arguments: ["ftp://example.com/", "javascript:alert(1)", "file:///etc/passwd", "mailto:a@b.c"])
  func rejectsOtherSchemes(input: String) {
    #expect {
      try URLNormalization.normalize(input)
    } throws: { error in
      if case .unsupportedScheme = error as? URLNormalizationError { return true }
      return false
    }
  }

  @Test(arguments: [
    "", "example.com", "http:", "http://", "http:///", "http://exa mple.com/", "http://host:99999/",
    "http://host:8x/", "http://[::1/", "://x", "http://a<b/",
  ])
  func rejectsInvalidURLs(input: String) {
    #expect(throws: URLNormalizationError.invalidURL(input)) { try URLNormalization.normalize(input) }
  }

}
