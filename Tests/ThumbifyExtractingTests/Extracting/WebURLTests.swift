import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyExtracting

@Suite("WHATWG URL resolution", .offThePool)
struct WebURLTests {
  private static let base = "https://www.example.com/a/b/c.html?q=1#frag"

  @Test(arguments: [
    ("d.png", "https://www.example.com/a/b/d.png"),
    ("./d.png", "https://www.example.com/a/b/d.png"),
    ("../d.png", "https://www.example.com/a/d.png"),
    ("../../../../d.png", "https://www.example.com/d.png"),
    ("/x/./y/../z", "https://www.example.com/x/z"),
    ("//cdn.example.net/i.jpg", "https://cdn.example.net/i.jpg"),
    ("\\\\cdn.example.net\\i.jpg", "https://cdn.example.net/i.jpg"),
    ("/a\\b", "https://www.example.com/a/b"),
    ("?x=2", "https://www.example.com/a/b/c.html?x=2"),
    ("#top", "https://www.example.com/a/b/c.html?q=1#top"),
    ("", "https://www.example.com/a/b/c.html?q=1"),
    ("  /trim me.png \n", "https://www.example.com/trim%20me.png"),
    ("/im\tag\ne.png", "https://www.example.com/image.png"),
    ("/café/ü.png?q=é", "https://www.example.com/caf%C3%A9/%C3%BC.png?q=%C3%A9"),
    ("/a b\"<>`{}.png", "https://www.example.com/a%20b%22%3C%3E%60%7B%7D.png"),
    ("/%7Efoo/%2e%2E/bar", "https://www.example.com/bar"),
    ("/q?a='b c'#f g", "https://www.example.com/q?a=%27b%20c%27#f%20g"),
    ("HTTP://EXAMPLE.COM:80/", "http://example.com/"),
    ("https://example.com:443/x", "https://example.com/x"),
    ("https://example.com:8443/x", "https://example.com:8443/x"),
    ("http:foo.png", "http://foo.png/"),
    ("https:foo.png", "https://www.example.com/a/b/foo.png"),
    ("https:/foo.png", "https://www.example.com/foo.png"),
    ("https://bücher.example/straße", "https://xn--bcher-kva.example/stra%C3%9Fe"),
    ("https://ДОМЕН.рф/", "https://xn--d1acufc.xn--p1ai/"),
    ("https://例え.テスト/", "https://xn--r8jz45g.xn--zckzah/"),
    ("https://EXAMPLE。com/", "https://example.com/"),
    ("https://0x7f.1/", "https://127.0.0.1/"),
    ("https://2130706433/", "https://127.0.0.1/"),
    ("http://127.0.0.2:18080/p/1.html", "http://127.0.0.2:18080/p/1.html"),
    ("https://255.0.10.1/", "https://255.0.10.1/"),
    ("https://127.000.0.1/", "https://127.0.0.1/"),
    ("https://010.0.0.1/", "https://8.0.0.1/"),
    ("https://1.2.3/", "https://1.2.0.3/"),
    ("https://[::1]:8080/", "https://[::1]:8080/"),
    ("https://user:pa ss@example.com/", "https://user:pa%20ss@example.com/"),
    ("/a/b/..", "https://www.example.com/a/"),
    ("/a/b/.", "https://www.example.com/a/b/"),
  ])
  func resolvesLikeBrowsers(_ input: String, _ expected: String) {
    let base = WebURL(Self.base)
    #expect(WebURL(input, relativeTo: base)?.description == expected)
  }

  @Test(arguments: [
    "data:image/png;base64,AAAA", "javascript:alert(1)", "mailto:a@example.com", "ftp://example.com/x",
    "JaVaScRiPt:alert(1)", " javascript:alert(1)", "https://exa mple.com/", "https://example.com:99999/",
    "https://ex<ample.com/", "https://256.256.256.256/", "https://1.2.3.4.5/", "https:///",
  ])
  func rejects(_ input: String) {
    #expect(WebURL(input, relativeTo: WebURL(Self.base)) == nil)
  }

  @Test(arguments: [
    "https://example.com", "https://example.com/", "http://a.b-c.example/x/y?z=1&w=2#f", "/x/y?q#f", "/",
    "https://cdn.example.com/i.jpg?w=1200&h=630", "/a/./b", "/a/%2e%2E/b", "https://example.com/a/../b",
    "https://EXAMPLE.com/", "https://1.2.3.4/", "https://example.com./", "/q?a='b'", "/a b", "/a\\b",
    "https://example.com/{x}", "https://ex_ample.com/", "/%41", "https://xn--bcher-kva.example/",
  ])
  func fastPathAgreesWithTheFullParser(_ input: String) {
    let base = WebURL(Self.base)
    let fast = WebURLFastPath.parse(Array(input.utf8), base: base)
    let full = WebURLParser.parseFully(Array(input.utf8), base: base)
    #expect(fast == nil || fast == full)
  }

  @Test func relativeWithoutBaseIsRejected() {
    #expect(WebURL("/x") == nil)
  }

  @Test(
    arguments: [
      (["b", "ü", "c", "h", "e", "r"], "bcher-kva"), (["m", "ü", "n", "c", "h", "e", "n"], "mnchen-3ya"),
      (["ü"], "tda"), (["日", "本"], "wgv71a"),
    ] as [([Unicode.Scalar], String)])
  func punycode(_ scalars: [Unicode.Scalar], _ expected: String) {
    #expect(Punycode.encode(scalars) == expected)
  }
}
