import Testing
import ThumbifyFetchingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyFetching

@Suite("robots.txt against the fault server", .timeLimit(.minutes(5)), .dedicatedExecutor)
struct RobotsFetchTests {
  /// A fetcher that honours robots.txt and maps `hosts` (`<variant>.test`) to the server.
  func robotsFetcher(
    _ server: FaultServer, hosts: [String], robots: RobotsCache? = nil,
    _ customize: (inout FetcherConfiguration) -> Void = { _ in }
  ) throws -> CurlFetcher {
    var configuration = FetcherConfiguration()
    configuration.allowsPrivateNetwork = true
    configuration.retry.maxAttempts = 1
    configuration.resolve = hosts.map(server.resolveEntry)
    // A starved Python server may send a big robots.txt slower than curl's default low-speed limit.
    configuration.lowSpeedTime = .seconds(120)
    customize(&configuration)
    return try CurlFetcher(configuration: configuration, robots: robots)
  }

  @Test func missingRobotsAllowsAllAndIsFetchedOncePerHost() async throws {
    let server = try await FaultServer()
    let fetcher = try robotsFetcher(server, hosts: ["robots-missing.test"])
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<6 {
        group.addTask {
          try await fetcher.fetch(
            FetchRequest(url: server.url(host: "robots-missing.test", "/ok"), kind: .page)
          ).status
        }
      }
      return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(statuses == Array(repeating: 200, count: 6))
    #expect(try server.stats(bucket: "robots:robots-missing.test").count == 1, "coalesced into one fetch")
    #expect(fetcher.robots.export().map(\.status) == [404])
  }

  @Test func serverErrorDisallowsForTheRun() async throws {
    let server = try await FaultServer()
    let fetcher = try robotsFetcher(server, hosts: ["robots-5xx.test"])
    let url = server.url(host: "robots-5xx.test", "/ok")
    let error = await fetchError { try await fetcher.fetch(FetchRequest(url: url, kind: .page)) }
    #expect(error == .blockedByRobots(url))
    #expect(fetcher.robots.export().isEmpty, "a 5xx verdict is not persisted")
    let image = try await fetcher.fetch(FetchRequest(url: url, kind: .image))
    #expect(image.status == 200, "images are not subject to robots.txt")
  }

  @Test func unreachableRobotsDisallows() async throws {
    let refusing = try RefusingPort()
    defer { withExtendedLifetime(refusing) {} }  // refusing until the test ends
    var configuration = FetcherConfiguration()
    configuration.allowsPrivateNetwork = true
    let fetcher = try CurlFetcher(configuration: configuration)
    let url = "http://127.0.0.1:\(refusing.port)/page"
    let error = await fetchError { try await fetcher.fetch(FetchRequest(url: url, kind: .page)) }
    #expect(error?.code == "connect", "disallowed, and the error says why: \(String(describing: error))")
    #expect(fetcher.robots.export().isEmpty, "an unreachable verdict is not persisted")
  }

  @Test func hugeRobotsKeepsOnlyWholeLinesBeforeTheCap() async throws {
    let server = try await FaultServer()
    let fetcher = try robotsFetcher(server, hosts: ["robots-huge.test"])
    let allowed = try await fetcher.fetch(
      FetchRequest(url: server.url(host: "robots-huge.test", "/ok"), kind: .page))
    #expect(allowed.status == 200, "the cut line 'Disallow: /' must be dropped")
    let blockedURL = server.url(host: "robots-huge.test", "/filler-000001")
    let blocked = await fetchError { try await fetcher.fetch(FetchRequest(url: blockedURL, kind: .page)) }
    #expect(blocked == .blockedByRobots(blockedURL))
    let afterCapURL = server.url(host: "robots-huge.test", "/after-the-cap")
    let afterCap = await fetchError { try await fetcher.fetch(FetchRequest(url: afterCapURL, kind: .page)) }
    #expect(afterCap == .httpStatus(404), "rules past the cap are not read")
    let entry = try #require(fetcher.robots.export().first)
    #expect(entry.body.utf8.count <= 500 << 10 && entry.body.hasSuffix("\n"))
  }

  @Test func thumbifyGroupRulesApplyAndCrawlDelayIsCapped() async throws {
    let server = try await FaultServer()
    let fetcher = try robotsFetcher(server, hosts: ["robots-rules.test"]) {
      $0.maxCrawlDelay = .milliseconds(400)
    }
    let privateURL = server.url(host: "robots-rules.test", "/private/x")
    let blocked = await fetchError { try await fetcher.fetch(FetchRequest(url: privateURL, kind: .page)) }
    #expect(blocked == .blockedByRobots(privateURL))
    let start = ContinuousClock.now
    for _ in 0..<3 {
      _ = try await fetcher.fetch(
        FetchRequest(url: server.url(host: "robots-rules.test", "/ok"), kind: .page))
    }
    let elapsed = start.duration(to: .now)
    #expect(elapsed >= .milliseconds(800), "three starts 400 ms apart (Crawl-delay 60 capped to 0.4)")
    // Uncapped, the three starts would take at least 120 s: a bound of 60 s tells the two apart
    // even on a machine loaded enough to stall a test for tens of seconds.
    #expect(elapsed < .seconds(60), "the 60 s Crawl-delay is capped")
  }

  @Test func aCrawlDelayTooLargeForADurationIsCappedNotACrash() async throws {
    // Given robots.txt with `Crawl-delay: 1e308` (Int(delay * 1000) used to trap)
    let server = try await FaultServer()
    let fetcher = try robotsFetcher(server, hosts: ["robots-delay.test"]) {
      $0.maxCrawlDelay = .milliseconds(300)
    }

    // When two pages of the host are fetched
    let start = ContinuousClock.now
    for _ in 0..<2 {
      let response = try await fetcher.fetch(
        FetchRequest(url: server.url(host: "robots-delay.test", "/ok"), kind: .page))
      #expect(response.status == 200)
    }

    // Then the second waited the capped delay, and the rules still apply
    #expect(start.duration(to: .now) >= .milliseconds(300))
    let blockedURL = server.url(host: "robots-delay.test", "/blocked")
    let blocked = await fetchError { try await fetcher.fetch(FetchRequest(url: blockedURL, kind: .page)) }
    #expect(blocked == .blockedByRobots(blockedURL))
  }

  @Test(arguments: [(0.1, 100), (0.4, 400), (5, 400), (1e308, 400), (0, 0)] as [(Double, Int64)])
  func crawlDelayIsCappedAsSeconds(seconds: Double, milliseconds: Int64) {
    #expect(
      CurlFetcher.crawlDelay(seconds: seconds, cappedAt: .milliseconds(400)) == .milliseconds(milliseconds))
  }

  @Test func ignoringRobotsFetchesNoRobots() async throws {
    let server = try await FaultServer()
    let fetcher = try robotsFetcher(server, hosts: ["robots-5xx.test"]) { $0.ignoresRobots = true }
    let response = try await fetcher.fetch(
      FetchRequest(url: server.url(host: "robots-5xx.test", "/ok"), kind: .page))
    #expect(response.status == 200)
    #expect(try server.stats(bucket: "robots:robots-5xx.test").count == 0)
  }

  @Test func seededValidatorsAreRevalidatedAndReused() async throws {
    let server = try await FaultServer()
    let first = try robotsFetcher(server, hosts: ["robots-etag.test"])
    let blockedURL = server.url(host: "robots-etag.test", "/blocked")
    #expect(
      await fetchError { try await first.fetch(FetchRequest(url: blockedURL, kind: .page)) }
        == .blockedByRobots(blockedURL))
    var exported = try #require(first.robots.export().first)
    #expect(exported.etag == "\"r1\"")
    // Next run: the server answers 304 to the stored ETag, so the stored text is what applies.
    exported.body = "User-agent: *\nDisallow: /seeded-only\n"
    let second = try robotsFetcher(server, hosts: ["robots-etag.test"], robots: RobotsCache(seed: [exported]))
    let seededURL = server.url(host: "robots-etag.test", "/seeded-only")
    #expect(
      await fetchError { try await second.fetch(FetchRequest(url: seededURL, kind: .page)) }
        == .blockedByRobots(seededURL))
    #expect(
      await fetchError { try await second.fetch(FetchRequest(url: blockedURL, kind: .page)) }
        == .httpStatus(404))
    #expect(try server.stats(bucket: "robots:robots-etag.test").count == 2)
    #expect(second.robots.export() == [exported])
  }

  @Test func everyRedirectHopIsCheckedAgainstItsOwnRobots() async throws {
    let server = try await FaultServer()
    let fetcher = try robotsFetcher(server, hosts: ["robots-missing.test", "robots-5xx.test"])
    let target = server.url(host: "robots-5xx.test", "/ok")
    let start = server.url(host: "robots-missing.test", "/redirect?to=\(target)")
    let error = await fetchError { try await fetcher.fetch(FetchRequest(url: start, kind: .page)) }
    #expect(error == .blockedByRobots(target))
    #expect(try server.stats(bucket: "robots:robots-5xx.test").count == 1)
    let allowed = try await fetcher.fetch(
      FetchRequest(url: server.url(host: "robots-5xx.test", "/redirect?to=/ok"), kind: .image))
    #expect(allowed.redirects == [server.url(host: "robots-5xx.test", "/redirect?to=/ok")])
    #expect(allowed.finalURL == target, "images follow redirects without robots.txt")
  }
}
