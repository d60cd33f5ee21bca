import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyCLI

@Suite("serve: request targets, listen addresses, rate limits", .offThePool)
struct ServeParsingTests {
  @Test("a card query decodes its url and variants")
  func cardQuery() {
    #expect(
      APIRequest.parse("/v1/card?url=https%3A%2F%2Fexample.com%2Fa%3Fb%3Dc&variants=card,icon")
        == .success(.card(url: "https://example.com/a?b=c", variants: ["card", "icon"])))
    #expect(APIRequest.parse("/v1/card?url=a+b") == .success(.card(url: "a b", variants: nil)))
  }

  @Test(
    "garbage queries are refused",
    arguments: [
      ("/v1/card", APIRequest.Failure.missingURL), ("/v1/card?url=", .missingURL),
      ("/v1/card?url=%", .badEscape),
      ("/v1/card?url=%4", .badEscape), ("/v1/card?url=%00", .badEscape), ("/v1/card?url=%ff", .badEscape),
      ("/v1/card?url=a&url=b", .repeatedParameter("url")), ("/v1/card?url=a&x=1", .unknownParameter("x")),
      ("/v1/card?url=a&variants=", .badVariants), ("/v1/card?url=a&variants=a/b", .badVariants),
    ])
  func garbage(target: String, failure: APIRequest.Failure) {
    #expect(APIRequest.parse(target) == .failure(failure))
  }

  @Test("file paths outside the content-addressed shapes are not served")
  func filePaths() {
    let hash = String(repeating: "ab", count: 32)
    #expect(
      APIRequest.parse("/blobs/ab/ab/\(hash).webp") == .success(.blob(path: "blobs/ab/ab/\(hash).webp")))
    #expect(APIRequest.parse("/cards/\(hash).json") == .success(.cardFile(path: "cards/\(hash).json")))
    for target in [
      "/blobs/../../etc/passwd", "/blobs/ab/cd/\(hash).webp", "/blobs/ab/ab/\(hash).exe", "/cards/../x.json",
      "/cards/\(hash.uppercased()).json", "/blobs/ab/ab/../\(hash).webp", "/cards/\(hash).json/..",
    ] {
      #expect(APIRequest.parse(target) == .success(.notFound), "\(target)")
    }
  }

  @Test("listen addresses: loopback and Unix sockets are local, others are not")
  func listenAddresses() {
    #expect(ListenAddress("127.0.0.1:8080") == .inet(host: "127.0.0.1", port: 8080))
    #expect(ListenAddress("[::1]:80")?.isLocal == true)
    #expect(ListenAddress("localhost:1")?.isLocal == true)
    #expect(ListenAddress("/run/thumbify.sock") == .unix(path: "/run/thumbify.sock"))
    #expect(ListenAddress("0.0.0.0:8080")?.isLocal == false)
    #expect(ListenAddress("192.168.1.2:8080")?.isLocal == false)
    for text in ["8080", "example.com:80", "127.0.0.1:99999", "127.0.0.1:", ":80"] {
      #expect(ListenAddress(text) == nil, "\(text)")
    }
  }

  @Test("the rate limiter lets a burst of the limit through, then one more per 60/limit seconds")
  func rateLimiter() {
    let limiter = RateLimiter(perMinute: 3)
    #expect((0..<3).map { _ in limiter.admit("a", now: 1_000) } == [nil, nil, nil])
    #expect(limiter.admit("a", now: 1_000) == 20)
    #expect(limiter.admit("b", now: 1_000) == nil)
    #expect(limiter.admit("a", now: 1_020) == nil)
    #expect(limiter.admit("a", now: 1_021) != nil)
    #expect(RateLimiter(perMinute: 0).admit("a", now: 0) == nil)
  }
}
