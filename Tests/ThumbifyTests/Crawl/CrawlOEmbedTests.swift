import Foundation
import Testing
import Thumbify
import ThumbifyExtracting
import ThumbifyFetchingTestSupport
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// Issue 35: a page's oEmbed endpoint is discovered and fetched through thumbify's fetcher — its
/// SSRF guard, its queues, the URL's `--timeout` — and fills what the page lacks.
@Suite("oEmbed in crawls and previews", .timeLimit(.minutes(10)), .dedicatedExecutor)
struct CrawlOEmbedTests {
  /// Crawls `paths` of `server` with the real binary; returns the records and the log (stderr).
  private func crawl(_ server: FaultServer, _ paths: [String], _ extra: [String] = []) async throws
    -> (records: [CrawlRecord], log: String)
  {
    let out = makeTemporaryDirectory("oembed")
    let list = out + ".urls.txt"
    let log = out + ".log"
    defer {
      removeDirectory(out)
      try? FileManager.default.removeItem(atPath: list)
      try? FileManager.default.removeItem(atPath: log)
    }
    try (paths.map(server.url).joined(separator: "\n") + "\n").write(
      toFile: list, atomically: true, encoding: .utf8)
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    let process = thumbifyProcess(
      ["crawl", list, "--out", out, "--allow-private-network", "--ignore-robots"] + extra)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle(forWritingAtPath: log)
    let status = try await ChildProcess.run(process)
    #expect(status == 0)
    try expectValidOutput(out)
    return (try readManifest(out), (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
  }

  @Test(arguments: ["json", "xml"])
  func aDiscoveredEndpointFillsTheCard(format: String) async throws {
    // Given a page with a title and no image, declaring a JSON (or XML) endpoint whose html holds
    // one https iframe on the endpoint's host and a script
    let server = try await FaultServer()

    // When it is crawled
    let (records, _) = try await crawl(server, ["/oembed-page?format=\(format)"])

    // Then the endpoint was fetched once, the page's title won, the provider filled the rest, and
    // the embed is the iframe alone
    #expect(try server.stats(bucket: "oembed:\(format)").count == 1)
    let record = try #require(records.first)
    #expect(record.outcome == .ok)
    #expect(record.oembedError == nil, "\(String(describing: record.oembedError))")
    let metadata = try #require(record.metadata)
    #expect(metadata.title == "A video page")
    #expect(metadata.author == "A. Author")
    #expect(metadata.siteName == "Loopback Video")
    #expect(metadata.image == ImageCandidate(url: server.url("/thumb.jpg"), width: 480, height: 270))
    #expect(
      metadata.embed
        == Embed(
          provider: "Loopback Video", type: "video", width: 640, height: 360,
          iframeURL: "https://127.0.0.1/embed/42"))
    #expect(
      metadata.video
        == VideoCandidate(
          url: "https://127.0.0.1/embed/42", type: "text/html", width: 640, height: 360, kind: .player))
    let card = Card(record: record)
    #expect(card.embed?.iframeURL == "https://127.0.0.1/embed/42")
    #expect(card.video?.kind == .player)
  }

  @Test func oEmbedNeverFetchesNothing() async throws {
    let server = try await FaultServer()
    let (records, _) = try await crawl(server, ["/oembed-page?format=json"], ["--oembed", "never"])
    #expect(try server.stats(bucket: "oembed:json").count == 0)
    let metadata = try #require(records.first?.metadata)
    #expect(metadata.oembed == server.url("/oembed?format=json"))
    #expect(metadata.embed == nil && metadata.author == nil)
  }

  @Test func aGarbageResponseIsReportedAndTheCardIsThePages() async throws {
    let server = try await FaultServer()
    let (records, _) = try await crawl(server, ["/oembed-page?format=garbage"])
    let record = try #require(records.first)
    #expect(record.outcome == .ok)
    #expect(record.oembedError?.code == "oembedInvalid")
    #expect(record.oembedError?.stage == "oembed")
    #expect(record.metadata?.title == "A video page" && record.metadata?.embed == nil)
  }

  /// The guard refuses an endpoint on a private address as it refuses a page there: the page's own
  /// server (exempt, as the neighbouring SSRF tests make theirs) is reached, the endpoint never is.
  @Test(arguments: ["http://169.254.169.254/oembed", "http://10.0.0.1/oembed", "http://[::1]/oembed"])
  func anEndpointOnAPrivateAddressIsRefused(endpoint: String) async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher {
      $0.allowsPrivateNetwork = false
      $0.exemptAddresses = ["127.0.0.1"]
    }
    let provider = LinkMetadataProvider(fetcher: fetcher, timeout: .seconds(20), render: .never)
    let escaped = endpoint.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? endpoint
    let preview = try await provider.preview(for: server.url("/oembed-page?endpoint=\(escaped)"))
    #expect(preview.metadata.oembed == WebURL(endpoint)?.description)
    #expect(
      preview.oembedError?.code == "blockedPrivateAddress", "\(String(describing: preview.oembedError))")
    #expect(preview.metadata.title == "A video page" && preview.metadata.embed == nil)
  }

  /// The endpoint's host's robots.txt is honoured as a page's is: a disallowed endpoint is not fetched.
  @Test func robotsTxtOfTheEndpointsHostIsHonoured() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher {
      $0.ignoresRobots = false
      $0.resolve = ["page.test", "robots-etag.test"].map(server.resolveEntry)
    }
    let provider = LinkMetadataProvider(fetcher: fetcher, timeout: .seconds(20), render: .never)
    let endpoint = server.url(host: "robots-etag.test", "/blocked")
    let escaped = endpoint.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? endpoint
    let preview = try await provider.preview(
      for: server.url(host: "page.test", "/oembed-page?endpoint=\(escaped)"))
    #expect(preview.metadata.title == "A video page")
    #expect(preview.oembedError?.code == "blockedByRobots", "\(String(describing: preview.oembedError))")
    #expect(try server.stats(bucket: "robots:robots-etag.test").count == 1)
  }

  /// A response over the 256 KB cap is refused as a page over its cap is, and the card is the page's.
  @Test func aResponseOverTheCapIsTooLarge() async throws {
    let server = try await FaultServer()
    let provider = LinkMetadataProvider(fetcher: try makeTestFetcher(), timeout: .seconds(20), render: .never)
    let preview = try await provider.preview(for: server.url("/oembed-page?format=huge"))
    #expect(try server.stats(bucket: "oembed:huge").count == 1)
    #expect(preview.oembedError?.code == "tooLarge", "\(String(describing: preview.oembedError))")
    #expect(preview.metadata.title == "A video page" && preview.metadata.author == nil)
  }

  /// The same refusal through the step itself, on the test server's own (loopback) address.
  @Test func theStepGoesThroughTheGuard() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher { $0.allowsPrivateNetwork = false }
    var page = PageMetadata()
    page.oembed = server.url("/oembed?format=json")
    let outcome = await OEmbedStep(mode: .discovered, fetcher: fetcher).apply(to: page, timeout: .seconds(10))
    #expect(outcome.error?.code == "blockedPrivateAddress")
    #expect(try server.stats(bucket: "oembed:json").count == 0)
  }

  /// An endpoint that never answers gets what the page left of the URL's 2 s, not the fetcher's
  /// 100 s (nor 120 s, when the tarpit lets go): bounded by the budget, with a minute of slack for a
  /// loaded machine.
  @Test func aSlowEndpointIsBoundedByTheURLsBudget() async throws {
    let server = try await FaultServer()
    let fetcher = try makeTestFetcher { $0.timeout = .seconds(100) }
    let provider = LinkMetadataProvider(fetcher: fetcher, timeout: .seconds(2), render: .never)
    let start = ContinuousClock.now
    let preview = try await provider.preview(for: server.url("/oembed-page?format=tarpit"))
    let elapsed = start.duration(to: .now)
    #expect(try server.stats(bucket: "oembed:tarpit").count == 1)
    #expect(preview.oembedError?.code == "timedOut", "\(String(describing: preview.oembedError))")
    #expect(preview.metadata.title == "A video page")
    #expect(elapsed < .seconds(60), "the URL's 2 s budget, not the fetcher's 100 s; took \(elapsed)")
  }
}

/// Every manifest line and card file of `out` matches its schema (docs/manifest.schema.json,
/// docs/cards.schema.json).
func expectValidOutput(_ out: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
  let validator = try JSONSchemaValidator(directory: TestPaths.repository + "/docs")
  let manifest = try String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8)
  for line in manifest.split(separator: "\n") {
    let errors = validator.errors(ofText: String(line), against: "manifest.schema.json")
    #expect(errors.isEmpty, "\(errors)", sourceLocation: sourceLocation)
  }
  for name in try FileManager.default.contentsOfDirectory(atPath: out + "/cards")
  where name.hasSuffix(".json") {
    let text = try String(contentsOfFile: out + "/cards/" + name, encoding: .utf8)
    let errors = validator.errors(ofText: text, against: "cards.schema.json")
    #expect(errors.isEmpty, "\(errors)", sourceLocation: sourceLocation)
  }
}
