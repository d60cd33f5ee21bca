import Foundation
import Testing
import ThumbifyFetchingTestSupport
import ThumbifySystem
import ThumbifySystemTestSupport

@testable import ThumbifyFetching

@Suite("Fetching from nginx on loopback", .timeLimit(.minutes(5)))
struct NginxFetchTests {
  @Test func keepAliveReusesOneConnection() async throws {
    let nginx = try await LoopbackNginx()
    try nginx.write("index.html", "<html><title>hello</title></html>")
    let fetcher = try makeTestFetcher()
    for _ in 0..<5 {
      let response = try await fetcher.fetch(FetchRequest(url: nginx.url("/index.html"), kind: .page))
      #expect(response.status == 200)
      #expect(String(decoding: response.body, as: UTF8.self) == "<html><title>hello</title></html>")
      #expect(response.httpVersion == "1.1")
    }
    let connections = Set(nginx.accessLog().map { $0.split(separator: " ")[3] })
    #expect(nginx.accessLog().count == 5)
    #expect(connections.count == 1, "\(nginx.accessLog())")
  }

  @Test func gzipIsRequestedAndDecoded() async throws {
    let nginx = try await LoopbackNginx(options: .init(gzip: true))
    let text = String(repeating: "thumbify compresses well. ", count: 4000)
    try nginx.write("big.html", text)
    let fetcher = try makeTestFetcher()
    let response = try await fetcher.fetch(FetchRequest(url: nginx.url("/big.html"), kind: .page))
    #expect(String(decoding: response.body, as: UTF8.self) == text)
    let echo = try await FaultServer()
    let headers = try await fetcher.fetch(FetchRequest(url: echo.url("/echo-headers"), kind: .page))
    let sent = try JSONSerialization.jsonObject(with: Data(headers.body)) as? [String: String] ?? [:]
    let encodings = sent["accept-encoding"] ?? ""
    #expect(encodings.contains("gzip") && encodings.contains("deflate"))
    #expect(sent["user-agent"] == "thumbify/\(ThumbifyVersion.current)")
    #expect(sent["accept"]?.hasPrefix("text/html") == true)
  }

  @Test func aRequestSendsOnlyItsOwnHeadersOnAReusedHandle() async throws {
    // One transfer at a time, so each runs on the easy handle the one before it left.
    let fetcher = try makeTestFetcher { $0.maxConcurrentTransfers = 1 }
    let echo = try await FaultServer()
    func sentHeaders(_ request: FetchRequest) async throws -> [String: String] {
      let response = try await fetcher.fetch(request)
      return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String] ?? [:]
    }
    let conditional = try await sentHeaders(
      FetchRequest(
        url: echo.url("/echo-headers"), kind: .image, etag: "\"v1\"",
        lastModified: "Tue, 01 Dec 2026 06:52:01 GMT"))
    #expect(conditional["if-none-match"] == "\"v1\"")
    #expect(conditional["accept"]?.hasPrefix("image/") == true)
    let plain = try await sentHeaders(FetchRequest(url: echo.url("/echo-headers"), kind: .page))
    #expect(plain["if-none-match"] == nil && plain["if-modified-since"] == nil, "\(plain)")
    #expect(plain["accept"]?.hasPrefix("text/html") == true)
    #expect(plain["user-agent"] == "thumbify/\(ThumbifyVersion.current)")
    #expect(fetcher.easyHandlesMade == 1, "every transfer ran on the first one's handle")
  }

  @Test func userAgentCarriesTheContactURL() async throws {
    let nginx = try await LoopbackNginx()
    try nginx.write("a.html", "a")
    let fetcher = try makeTestFetcher { $0.contactURL = "https://example.org/bot" }
    _ = try await fetcher.fetch(FetchRequest(url: nginx.url("/a.html"), kind: .page))
    #expect(
      nginx.accessLog().first?.hasSuffix("\"thumbify/\(ThumbifyVersion.current) (+https://example.org/bot)\"")
        == true)
  }

  @Test func validatorsGiveNotModified() async throws {
    let nginx = try await LoopbackNginx()
    try nginx.write("page.html", "<html>v1</html>")
    let fetcher = try makeTestFetcher()
    let first = try await fetcher.fetch(FetchRequest(url: nginx.url("/page.html"), kind: .page))
    let etag = try #require(first.etag)
    let lastModified = try #require(first.lastModified)
    #expect(!first.isNotModified)
    let byETag = try await fetcher.fetch(FetchRequest(url: nginx.url("/page.html"), kind: .page, etag: etag))
    #expect(byETag.isNotModified && byETag.status == 304 && byETag.body.isEmpty)
    let byDate = try await fetcher.fetch(
      FetchRequest(url: nginx.url("/page.html"), kind: .page, lastModified: lastModified))
    #expect(byDate.isNotModified)
    let stale = try await fetcher.fetch(
      FetchRequest(url: nginx.url("/page.html"), kind: .page, etag: "\"old\""))
    #expect(!stale.isNotModified && stale.status == 200)
    #expect(nginx.accessLog().map { $0.split(separator: " ")[0] } == ["200", "304", "304", "200"])
  }

  @Test func httpsWithTheTestCA() async throws {
    let nginx = try await LoopbackNginx(options: .init(https: true))
    try nginx.write("s.html", "secure")
    let trusting = try makeTestFetcher { $0.caFile = nginx.caFile }
    let response = try await trusting.fetch(FetchRequest(url: nginx.url("/s.html"), kind: .page))
    #expect(String(decoding: response.body, as: UTF8.self) == "secure")
    let untrusting = try makeTestFetcher()
    let error = await fetchError {
      try await untrusting.fetch(FetchRequest(url: nginx.url("/s.html"), kind: .page))
    }
    guard case .tls(let message) = error else {
      Issue.record("expected a TLS error, got \(String(describing: error))")
      return
    }
    #expect(message.contains("certificate"), "\(message)")
  }

  @Test func http2MultiplexesOverTLS() async throws {
    let nginx = try await LoopbackNginx(options: .init(http2: true))
    try nginx.write("h2.html", "two")
    let fetcher = try makeTestFetcher {
      $0.caFile = nginx.caFile
      $0.maxTransfersPerHost = 8
    }
    let versions = try await withThrowingTaskGroup(of: String?.self) { group in
      for _ in 0..<8 {
        group.addTask {
          try await fetcher.fetch(FetchRequest(url: nginx.url("/h2.html"), kind: .page)).httpVersion
        }
      }
      return try await group.reduce(into: [String?]()) { $0.append($1) }
    }
    #expect(versions == Array(repeating: "2", count: 8))
    let log = nginx.accessLog()
    #expect(log.allSatisfy { $0.contains("HTTP/2.0") })
    #expect(Set(log.map { $0.split(separator: " ")[3] }).count == 1, "one multiplexed connection: \(log)")
  }
}
