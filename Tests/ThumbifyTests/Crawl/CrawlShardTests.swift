import Foundation
import Testing
import ThumbifyFetchingTestSupport
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// `thumbify crawl --shard K/N` against a web of one address and 64 ports (issue 23): every port is
/// crawled by the one shard its key names, each of 4 shards gets a fair share, and the shards together
/// make the unsharded crawl's records.
@Suite("Sharded crawls", .serialized)
final class CrawlShardTests {
  let nginx: LoopbackNginx
  let root: String
  let listPath: String
  static let ports = 64
  static let pagesPerPort = 2

  init() async throws {
    root = makeTemporaryDirectory("shards")
    let www = root + "/www"
    try FileManager.default.createDirectory(atPath: www + "/p", withIntermediateDirectories: true)
    for page in 1...Self.pagesPerPort {
      try
        "<html><head><title>Page \(page)</title><meta property=og:description content=\"d\(page)\"></head></html>"
        .write(toFile: www + "/p/\(page).html", atomically: true, encoding: .utf8)
    }
    var options = LoopbackNginx.Options()
    options.extraPorts = Self.ports - 1
    nginx = try await LoopbackNginx(docroot: URL(fileURLWithPath: www), options: options)
    listPath = root + "/urls.txt"
    // Ports interleaved, as a real list mixes hosts; a comment, an invalid line and a duplicate.
    var lines = ["# the web", "not a url"]
    for page in 1...Self.pagesPerPort {
      lines += nginx.ports.map { "http://127.0.0.1:\($0)/p/\(page).html" }
    }
    lines.append("http://127.0.0.1:\(nginx.ports[0])/p/1.html")
    try (lines.joined(separator: "\n") + "\n").write(toFile: listPath, atomically: true, encoding: .utf8)
  }

  deinit {
    nginx.stop()
    removeDirectory(root)
  }

  func crawl(_ out: String, _ extra: [String] = []) async throws -> Int32 {
    let process = thumbifyProcess(
      ["crawl", listPath, "--out", out, "--state", out + ".state", "--allow-private-network", "--quiet"]
        + extra)
    process.standardError = FileHandle.nullDevice
    return try await ChildProcess.run(process)
  }

  /// The manifest's records by normalized URL, in order, without what differs from run to run.
  func records(_ out: String) throws -> [(url: String, record: NSDictionary)] {
    let text = try String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8)
    return try text.split(separator: "\n").map { line in
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      var record = object
      if var fetch = record["fetch"] as? [String: Any] {
        fetch["fetchedAt"] = nil
        fetch["durationMs"] = nil
        fetch["duration"] = nil
        record["fetch"] = fetch
      }
      return (try #require(object["normalizedURL"] as? String), record as NSDictionary)
    }
  }

  @Test func fourShardsSplitTheWebFairlyAndTogetherMakeTheUnshardedCrawl() async throws {
    // The unsharded crawl first: an invalid line makes it exit 1, like shard 0 (which alone reports it).
    #expect(try await crawl(root + "/all") == 1)
    let whole = try records(root + "/all")
    #expect(whole.count == Self.ports * Self.pagesPerPort)
    var crawledBy: [Int: Set<Int>] = [:]  // port → the shards whose run fetched from it
    var shardRecords: [[(url: String, record: NSDictionary)]] = []
    for index in 0..<4 {
      let before = nginx.portLog().count
      let status = try await crawl(root + "/shard-\(index)", ["--shard", "\(index)/4"])
      #expect(status == (index == 0 ? 1 : 0), "shard \(index)")
      for request in nginx.portLog().dropFirst(before) { crawledBy[request.port, default: []].insert(index) }
      shardRecords.append(try records(root + "/shard-\(index)"))
    }
    // Every port by exactly one shard, the one its key names (robots.txt and favicon included).
    #expect(crawledBy.count == Self.ports)
    for (port, shards) in crawledBy {
      #expect(shards == [Shard.index(ofKey: "127.0.0.1:\(port)", count: 4)], "port \(port): \(shards)")
    }
    // A fair share: 16 ports each on average; the ports are the kernel's, so each shard's count is
    // binomial (64, 1/4) and the bounds are loose: some shard outside 2...36 has a chance of about
    // 1e-6 a run. (The earlier 4...28 had 1.3e-3, and a shard of 30 ports failed a run once.) The
    // balance over many keys is ShardTests' job.
    for (index, records) in shardRecords.enumerated() {
      let ports = Set(records.map { Shard.key(ofNormalizedURL: $0.url) })
      #expect((2...36).contains(ports.count), "shard \(index): \(ports.count) ports")
      #expect(records.count == ports.count * Self.pagesPerPort)
      // In list order: the whole crawl's order restricted to the shard's URLs.
      let mine = Set(records.map(\.url))
      #expect(records.map(\.url) == whole.map(\.url).filter { mine.contains($0) })
    }
    // Together: the unsharded crawl's records, each once, equal but for fetch timestamps.
    let union = Dictionary(uniqueKeysWithValues: shardRecords.joined().map { ($0.url, $0.record) })
    #expect(union.count == whole.count)
    for (url, record) in whole { #expect(union[url] == record, "\(url)") }
  }

  /// A shard's state keeps and lists only its own URLs missing from the list: a state that an
  /// unsharded run filled (every URL) does not put other shards' records in this shard's manifest.
  @Test func aShardKeepsOnlyItsOwnUnlistedURLs() async throws {
    let out = root + "/reused"
    #expect(try await crawl(out) == 1)
    // The next night's list names one page per port: the other page of each is missing from it.
    let short = root + "/short.txt"
    try nginx.ports.map { "http://127.0.0.1:\($0)/p/1.html\n" }.joined().write(
      toFile: short, atomically: true, encoding: .utf8)
    let process = thumbifyProcess([
      "crawl", short, "--out", out, "--state", out + ".state", "--allow-private-network", "--quiet",
      "--shard", "2/4",
    ])
    #expect(try await ChildProcess.run(process) == 0)
    let listed = try records(out).map(\.url)
    #expect(!listed.isEmpty)
    #expect(listed.allSatisfy { Shard.index(ofNormalizedURL: $0, count: 4) == 2 })
    // Its listed pages first, then its kept ones.
    let kept = listed.drop { $0.hasSuffix("/p/1.html") }
    #expect(!kept.isEmpty && kept.allSatisfy { $0.hasSuffix("/p/2.html") })
    #expect(listed.count == 2 * Set(listed.map { Shard.key(ofNormalizedURL: $0) }).count)
    // Other shards' cards are left in place (no sweep in a sharded run).
    let cards = try FileManager.default.contentsOfDirectory(atPath: out + "/cards")
    #expect(cards.count == Self.ports * Self.pagesPerPort)
  }
}
