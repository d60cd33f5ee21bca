import CCurl
import Foundation
import Testing
import ThumbifyFetchingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyFetching

@Suite("Fetching from a misbehaving server", .timeLimit(.minutes(5)), .dedicatedExecutor)
struct FaultFetchTests {
  @Test func slowBodyHitsTheTotalTimeout() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher { $0.timeout = .seconds(1) }
    let start = ContinuousClock.now
    let error = await fetchError {
      try await fetcher.fetch(
        FetchRequest(url: server.url("/slow-body?bytes=1000&interval=0.1"), kind: .page))
    }
    guard case .timedOut(let message) = error else {
      Issue.record("expected timedOut, got \(String(describing: error))")
      return
    }
    #expect(message.contains("Timeout was reached"), "\(message)")
    // Well above a loaded machine's time (a 20 s bound of this kind was once missed by 9 s), well under 100 s.
    #expect(start.duration(to: .now) < .seconds(60), "the body alone takes 100 s")
  }

  @Test func lowSpeedAbortsATrickle() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher {
      $0.lowSpeedLimit = 1000
      $0.lowSpeedTime = .seconds(1)
    }
    let error = await fetchError {
      try await fetcher.fetch(FetchRequest(url: server.url("/slow-body?bytes=100&interval=0.1"), kind: .page))
    }
    guard case .timedOut(let message) = error else {
      Issue.record("expected timedOut, got \(String(describing: error))")
      return
    }
    #expect(message.contains("too slow"), "\(message)")
  }

  @Test func tarpitTimesOut() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher { $0.timeout = .milliseconds(800) }
    let error = await fetchError {
      try await fetcher.fetch(FetchRequest(url: server.url("/tarpit"), kind: .page))
    }
    #expect(error?.code == "timedOut", "\(String(describing: error))")
    #expect(error?.family == .timedOut)
  }

  @Test func endlessBodyStopsAtTheCap() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher { $0.bodyLimits[.page] = 256 << 10 }
    let error = await fetchError {
      try await fetcher.fetch(FetchRequest(url: server.url("/endless"), kind: .page))
    }
    #expect(error == .tooLarge(limit: 256 << 10))
  }

  /// Issue 17: 20 MB of response headers came back as `unknown` ("Out of memory"), not `tooLarge`.
  @Test(arguments: [
    ("line", 20_000_000, 100 << 10), ("many", 20_000_000, 256 << 10), ("many", 300_000, 256 << 10),
  ])
  func endlessHeadersAreTooLarge(kind: String, bytes: Int, limit: Int) async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher()
    let error = await fetchError {
      try await fetcher.fetch(
        FetchRequest(url: server.url("/huge-header?kind=\(kind)&bytes=\(bytes)"), kind: .page))
    }
    #expect(error == .tooLarge(limit: limit))
  }

  @Test func gzipBombIsCappedOnDecodedBytes() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher()
    let error = await fetchError {
      try await fetcher.fetch(FetchRequest(url: server.url("/gzip-bomb"), kind: .page))
    }
    #expect(error == .tooLarge(limit: 2 << 20), "50 MB decoded from 50 KB must stop at the 2 MB page cap")
    let image = await fetchError {
      try await fetcher.fetch(FetchRequest(url: server.url("/gzip-bomb"), kind: .image))
    }
    #expect(image == .tooLarge(limit: 10 << 20))
  }

  @Test func redirectsAreFollowedAndRecorded() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher()
    let response = try await fetcher.fetch(FetchRequest(url: server.url("/chain?n=3"), kind: .page))
    #expect(response.finalURL == server.url("/ok"))
    #expect(
      response.redirects == [server.url("/chain?n=3"), server.url("/chain?n=2"), server.url("/chain?n=1")])
    #expect(response.requestedURL == server.url("/chain?n=3"))
  }

  @Test(arguments: ["/redirect-loop", "/chain?n=6"])
  func tooManyRedirectsStopAtFive(path: String) async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher()
    let error = await fetchError { try await fetcher.fetch(FetchRequest(url: server.url(path), kind: .page)) }
    #expect(error == .tooManyRedirects(5))
  }

  @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/", "gopher://127.0.0.1/"])
  func redirectsLeaveHTTPNever(target: String) async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher()
    let error = await fetchError {
      try await fetcher.fetch(FetchRequest(url: server.url("/redirect?to=\(target)"), kind: .page))
    }
    let scheme = String(target.prefix { $0 != ":" })
    #expect(error == .unsupportedScheme(scheme))
  }

  @Test func lyingContentTypeIsReportedAsSent() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher()
    let response = try await fetcher.fetch(FetchRequest(url: server.url("/lying-type"), kind: .page))
    #expect(response.contentType == "image/png")
    #expect(String(decoding: response.body, as: UTF8.self).hasPrefix("<html>"))
  }

  @Test func connectionResetMidBodyIsATransferError() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher()
    let error = await fetchError {
      try await fetcher.fetch(FetchRequest(url: server.url("/reset"), kind: .page))
    }
    guard case .transfer(let message) = error else {
      Issue.record("expected transfer, got \(String(describing: error))")
      return
    }
    #expect(!message.isEmpty)
    #expect(error?.family == .failed)
  }

  @Test func refusedConnectionIsAConnectError() async throws {
    let refusing = try RefusingPort()
    defer { withExtendedLifetime(refusing) {} }  // refusing until the test ends
    let fetcher = try makeTestFetcher()
    let error = await fetchError {
      try await fetcher.fetch(FetchRequest(url: "http://127.0.0.1:\(refusing.port)/", kind: .page))
    }
    guard case .connect(let message) = error else {
      Issue.record("expected connect, got \(String(describing: error))")
      return
    }
    #expect(message.contains("Couldn't connect to server"), "\(message)")
  }

  @Test(arguments: [
    ("http://", FetchError.invalidURL("http://")), ("not a url", .invalidURL("not a url")),
    ("ftp://example.org/", .unsupportedScheme("ftp")), ("file:///etc/passwd", .unsupportedScheme("file")),
    ("javascript:alert(1)", .unsupportedScheme("javascript")),
  ])
  func badURLsFailBeforeAnyTransfer(url: String, expected: FetchError) async throws {
    let fetcher = try makeTestFetcher()
    let error = await fetchError { try await fetcher.fetch(FetchRequest(url: url, kind: .page)) }
    #expect(error == expected)
  }

  @Test func nonSuccessStatusIsAnErrorAnd304WithoutValidatorsToo() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher()
    let missing = await fetchError {
      try await fetcher.fetch(FetchRequest(url: server.url("/status?code=404"), kind: .page))
    }
    #expect(missing == .httpStatus(404))
    let unasked = await fetchError {
      try await fetcher.fetch(FetchRequest(url: server.url("/status?code=304"), kind: .page))
    }
    #expect(unasked == .httpStatus(304))
    let etag = try await fetcher.fetch(FetchRequest(url: server.url("/etag"), kind: .page, etag: "\"v1\""))
    #expect(etag.isNotModified && etag.etag == "\"v1\"")
  }

  /// A validator is sent back verbatim in the next night's conditional request: one holding a bare CR
  /// or another control byte is not a field value (RFC 9110 §5.5) and would inject into our request
  /// header. (A NUL in a header curl refuses itself: "Nul byte in header".)
  @Test func validatorsWithControlBytesAreNotKept() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher()
    let response = try await fetcher.fetch(FetchRequest(url: server.url("/hostile-validators"), kind: .page))
    #expect(response.status == 200)
    #expect(response.etag == nil)
    #expect(response.lastModified == nil)
  }

  @Test func curlCodesMapOntoTheTaxonomy() {
    #expect(
      FetchError(curlCode: CURLE_COULDNT_RESOLVE_HOST, message: "m", url: "u", redirectLimit: 5) == .dns("m"))
    #expect(
      FetchError(curlCode: CURLE_PEER_FAILED_VERIFICATION, message: "m", url: "u", redirectLimit: 5)
        == .tls("m"))
    #expect(
      FetchError(curlCode: CURLE_OPERATION_TIMEDOUT, message: "m", url: "u", redirectLimit: 5)
        == .timedOut("m"))
    #expect(
      FetchError(curlCode: CURLE_TOO_MANY_REDIRECTS, message: "m", url: "u", redirectLimit: 5)
        == .tooManyRedirects(5))
    #expect(
      FetchError(curlCode: CURLE_OUT_OF_MEMORY, message: "m", url: "u", redirectLimit: 5).family == .unknown)
  }
}
