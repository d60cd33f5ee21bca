import Testing
import ThumbifyFetching
import ThumbifyFetchingTestSupport
import ThumbifySystemTestSupport

@Suite("SSRF guard at connect time", .timeLimit(.minutes(5)))
struct SSRFGuardTests {
  /// Spellings of loopback that string checks miss; curl resolves each to 127.0.0.1 or ::ffff:127.0.0.1.
  static let loopbackSpellings = [
    "2130706433", "0x7f000001", "127.1", "[::ffff:127.0.0.1]", "0177.0.0.1", "localhost", "127.0.0.1",
  ]

  @Test(arguments: loopbackSpellings)
  func loopbackSpellingsAreRefused(host: String) async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher { $0.allowsPrivateNetwork = false }
    let error = await fetchError {
      try await fetcher.fetch(FetchRequest(url: "http://\(host):\(server.port)/ok", kind: .page))
    }
    guard case .blockedPrivateAddress(let address) = error else {
      Issue.record("\(host): expected blockedPrivateAddress, got \(String(describing: error))")
      return
    }
    #expect(address.contains("loopback"), "\(address)")
    #expect(try server.stats(bucket: "default").count == 0)
  }

  @Test(arguments: loopbackSpellings)
  func theSameSpellingsReachTheServerWhenPrivateNetworkIsAllowed(host: String) async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher()
    let response = try await fetcher.fetch(FetchRequest(url: "http://\(host):\(server.port)/ok", kind: .page))
    #expect(response.status == 200)
  }

  @Test func robotsFetchesAreCheckedToo() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher {
      $0.allowsPrivateNetwork = false
      $0.ignoresRobots = false
    }
    let error = await fetchError {
      try await fetcher.fetch(FetchRequest(url: server.url("/ok"), kind: .page))
    }
    guard case .blockedPrivateAddress = error else {
      Issue.record("robots.txt on a private address is refused too, got \(String(describing: error))")
      return
    }
    #expect(try server.stats(bucket: "robots:127.0.0.1").count == 0)
  }

  @Test(arguments: [
    "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://[::1]/", "http://[fd00::1]/",
    "http://192.168.1.1/", "http://100.64.0.1/", "http://[64:ff9b::a00:1]/", "http://0.0.0.0/",
  ])
  func redirectToAPrivateAddressIsRefusedBeforeConnecting(target: String) async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher {
      $0.allowsPrivateNetwork = false
      $0.exemptAddresses = ["127.0.0.1"]
    }
    let direct = try await fetcher.fetch(FetchRequest(url: server.url("/ok"), kind: .page))
    #expect(direct.status == 200, "the exempt test server itself is reachable")
    let error = await fetchError {
      try await fetcher.fetch(FetchRequest(url: server.url("/redirect?to=\(target)"), kind: .page))
    }
    guard case .blockedPrivateAddress = error else {
      Issue.record("\(target): expected blockedPrivateAddress, got \(String(describing: error))")
      return
    }
  }
}
