import Testing

@testable import ThumbifyFetching

@Suite("Request URLs as curl parses them")
struct FetchTargetTests {
  @Test(arguments: [
    ("http://Example.ORG/a?b=c#frag", "example.org:80", "http://example.org:80", "/a?b=c"),
    ("https://example.org", "example.org:443", "https://example.org:443", "/"),
    ("HTTPS://example.org:8443/x", "example.org:8443", "https://example.org:8443", "/x"),
    ("http://[::1]:8080/p", "[::1]:8080", "http://[::1]:8080", "/p"),
  ])
  func keysAndPaths(url: String, hostKey: String, origin: String, path: String) throws {
    let target = try FetchTarget(url)
    #expect(target.hostKey == hostKey)
    #expect(target.origin == origin)
    #expect(target.pathAndQuery == path)
  }

  @Test(arguments: [
    ("mailto:a@b.c", FetchError.unsupportedScheme("mailto")),
    ("data:text/html,hi", .unsupportedScheme("data")),
    ("//example.org/", .invalidURL("//example.org/")),
    ("http://exa mple.org/", .invalidURL("http://exa mple.org/")),
    ("", .invalidURL("")),
  ])
  func rejectsWhatCannotBeFetched(url: String, expected: FetchError) {
    #expect(throws: expected) { try FetchTarget(url) }
  }

  @Test(arguments: [
    ("HTTP://example.org/", "http"),
    ("Svn+SSH://host/repo", "svn+ssh"),
    ("a1.b-c:rest", "a1.b-c"),
    ("mailto:a@b.c", "mailto"),
  ])
  func schemesAreReadLowercased(url: String, scheme: String) {
    #expect(FetchTarget.scheme(of: url) == scheme)
  }

  @Test(arguments: ["", "example.org/no-colon", "1http://x/", ":x", "ht tp://x/", "h\u{E9}:x", "ht_p://x/"])
  func textBeforeAColonThatIsNoSchemeIsNone(url: String) {
    #expect(FetchTarget.scheme(of: url) == nil)
  }
}
