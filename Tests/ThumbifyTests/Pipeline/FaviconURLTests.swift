import Testing

@testable import Thumbify
@testable import ThumbifyExtracting

@Suite("The /favicon.ico fallback")
struct FaviconURLTests {
  @Test(arguments: [
    ("http://site.test/a/b.html?q=1#top", "http://site.test/favicon.ico"),
    ("HTTPS://Site.TEST:443/", "https://site.test/favicon.ico"),
    ("http://127.0.0.2:18080/p/0.html", "http://127.0.0.2:18080/favicon.ico"),
    ("http://[::1]:8080", "http://[::1]:8080/favicon.ico"),
    // The origin's, as the extractor's own fallback (IconRanking): no credentials in an icon URL.
    ("http://user:pw@site.test/x", "http://site.test/favicon.ico"),
  ])
  func isAtTheRootOfThePagesOrigin(page: String, favicon: String) {
    #expect(Crawler.faviconURL(for: page) == favicon)
    #expect(WebURL(page)?.faviconURL == favicon, "the extractor's fallback is the same URL")
  }

  @Test func aURLThatIsNotHTTPHasNone() {
    #expect(Crawler.faviconURL(for: "ftp://site.test/a") == nil)
    #expect(Crawler.faviconURL(for: "not a url") == nil)
  }
}
