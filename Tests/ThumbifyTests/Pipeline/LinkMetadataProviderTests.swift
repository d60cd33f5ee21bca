import Testing
import Thumbify
import ThumbifyFetching

/// A fetcher whose one page was reached through a redirect.
private struct RedirectedPageFetcher: Fetching {
  let html: String

  func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
    guard request.url == "http://example.test/old" else { throw .httpStatus(404) }
    return FetchResponse(
      requestedURL: request.url, finalURL: "https://example.test/articles/new",
      redirects: ["http://example.test/old"], status: 200, contentType: "text/html; charset=utf-8",
      etag: "\"e1\"", body: Array(html.utf8), duration: 0.25)
  }
}

@Suite("LinkMetadataProvider")
struct LinkMetadataProviderTests {
  let page = """
    <html><head><title>Fallback</title><meta property="og:title" content="A &amp; B">
    <meta property="og:image" content="../img/card.jpg"></head></html>
    """

  @Test func resolvesAgainstTheFinalURLAndKeepsTheURLAskedFor() async throws {
    // Given a page reached through a redirect
    let provider = LinkMetadataProvider(fetcher: RedirectedPageFetcher(html: page))
    // When its metadata is read
    let preview = try await provider.preview(for: "http://example.test/old")
    // Then relative URLs resolve against where the page really is, and the request is remembered
    #expect(preview.metadata.title == "A & B")
    #expect(preview.metadata.image?.url == "https://example.test/img/card.jpg")
    #expect(preview.originalURL == "http://example.test/old")
    // The page declares no canonical URL: the link leads where the redirects ended.
    #expect(preview.url == "https://example.test/articles/new")
    let fetch = try #require(preview.fetch)
    #expect(fetch.finalURL == "https://example.test/articles/new")
    #expect(fetch.redirects == ["http://example.test/old"])
    #expect(fetch.etag == "\"e1\"")
    #expect(fetch.fetchedAt.hasSuffix("Z"))
  }

  /// Issue 19: the library's preview says what `extract` and the crawl say — the canonical URL on any
  /// host in `metadata`, the link on the page's host.
  @Test func aCanonicalURLOnAnotherHostIsKeptButTheLinkStaysOnThePagesHost() async throws {
    let syndicated = "<link rel=canonical href=//origin.example/articles/new?id=7><title>T</title>"
    let provider = LinkMetadataProvider(fetcher: RedirectedPageFetcher(html: syndicated))
    let preview = try await provider.preview(for: "http://example.test/old")
    #expect(preview.metadata.canonicalURL == "https://origin.example/articles/new?id=7")
    #expect(preview.url == "https://example.test/articles/new")
    let sameHost = LinkMetadataProvider(
      fetcher: RedirectedPageFetcher(html: "<link rel=canonical href=/articles/canonical>"))
    #expect(
      try await sameHost.preview(for: "http://example.test/old").url
        == "https://example.test/articles/canonical")
  }

  @Test func fetchFailuresAreTypedWithTheirLinkPresentationFamily() async {
    let provider = LinkMetadataProvider(fetcher: RedirectedPageFetcher(html: page))
    do {
      _ = try await provider.preview(for: "http://example.test/missing")
      Issue.record("a 404 must throw")
    } catch {
      #expect(error == .httpStatus(404))
      #expect(error.family == .failed)
    }
  }
}
