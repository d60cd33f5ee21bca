import Foundation
import Testing
import ThumbifyFetchingTestSupport
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// `thumbify merge` and `crawl --baseline` (issue 23) against a web of one address and 16 ports whose
/// pages have an image and a favicon: the merged shards are the unsharded crawl, record for record;
/// merging is idempotent and survives `kill -9`; the next night starts from the merged state.
@Suite("Merging shards", .serialized)
final class ShardMergeTests {
  let nginx: LoopbackNginx
  let root: String
  let www: String
  let listPath: String
  static let ports = 16
  static let pagesPerPort = 2
  /// Every port's pages, and one page listed on the first port only (it fails on the second night).
  static let pageCount = ports * pagesPerPort + 1
  var failing: String { "http://127.0.0.1:\(nginx.ports[0])/p/only.html" }

  init() async throws {
    root = makeTemporaryDirectory("merge")
    www = root + "/www"
    let files = FileManager.default
    try files.createDirectory(atPath: www + "/p", withIntermediateDirectories: true)
    try files.createDirectory(atPath: www + "/img", withIntermediateDirectories: true)
    let fixtures = TestPaths.repository + "/Tests/ThumbifyImagingTestSupport/Fixtures/"
    try files.copyItem(atPath: fixtures + "rgba-37x23.png", toPath: www + "/img/1.png")
    try files.copyItem(atPath: fixtures + "gray4-trns.png", toPath: www + "/img/2.png")
    try files.copyItem(atPath: fixtures + "three-sizes.ico", toPath: www + "/favicon.ico")
    try "<html><head><title>Only</title><meta property=og:image content=\"/img/1.png\"></head></html>"
      .write(toFile: www + "/p/only.html", atomically: true, encoding: .utf8)
    for page in 1...Self.pagesPerPort {
      try """
      <html><head><title>Page \(page)</title><meta property=og:description content="d\(page)">
      <meta property=og:image content="/img/\(page).png"></head></html>
      """.write(toFile: www + "/p/\(page).html", atomically: true, encoding: .utf8)
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
    lines.append("http://127.0.0.1:\(nginx.ports[0])/p/only.html")
    lines.append("http://127.0.0.1:\(nginx.ports[0])/p/1.html")
    try (lines.joined(separator: "\n") + "\n").write(toFile: listPath, atomically: true, encoding: .utf8)
  }

  deinit {
    nginx.stop()
    removeDirectory(root)
  }

  func run(_ arguments: [String]) async throws -> Int32 {
    let process = thumbifyProcess(arguments)
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    return try await ChildProcess.run(process)
  }

  func crawl(_ out: String, _ extra: [String] = []) async throws -> Int32 {
    try await run(
      ["crawl", listPath, "--out", out, "--state", out + ".state", "--allow-private-network", "--quiet"]
        + extra)
  }

  /// Crawls `count` shards into `<root>/<name>-K` (states beside them) and returns their directories.
  func crawlShards(_ name: String, count: Int, _ extra: [String] = []) async throws -> [String] {
    var directories: [String] = []
    for index in 0..<count {
      let out = root + "/\(name)-\(index)"
      // Shard 0 reports the invalid line and exits 1, and so does the shard whose page fails on night 2.
      let isFailing =
        extra.contains("--baseline") && Shard.index(ofNormalizedURL: failing, count: count) == index
      let status = try await crawl(out, ["--shard", "\(index)/\(count)"] + extra)
      #expect(status == (index == 0 || isFailing ? 1 : 0), "shard \(index)")
      directories.append(out)
    }
    return directories
  }

  /// `thumbify merge` in the form the Slurm script uses.
  func mergeArguments(_ shards: [String], into out: String, list: Bool = true) -> [String] {
    ["merge"] + shards + shards.flatMap { ["--shard-state", $0 + ".state"] }
      + (list ? ["--list", listPath] : []) + ["--out", out, "--state", out + ".state", "--quiet"]
  }

  /// The manifest's records by normalized URL, in order, without what differs from run to run.
  func records(_ out: String) throws -> [(url: String, record: NSDictionary)] {
    let text = try String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8)
    return try text.split(separator: "\n").map { line in
      var record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      if var fetch = record["fetch"] as? [String: Any] {
        fetch["fetchedAt"] = nil
        fetch["durationMs"] = nil
        fetch["duration"] = nil
        record["fetch"] = fetch
      }
      return (try #require(record["normalizedURL"] as? String), record as NSDictionary)
    }
  }

  /// Every file below `directory` with its size, modification time and inode: what a rerun must not change.
  func snapshot(_ directory: String) -> [String: [Int]] {
    var files: [String: [Int]] = [:]
    let enumerator = FileManager.default.enumerator(atPath: directory)
    while let path = enumerator?.nextObject() as? String {
      var status = stat()
      guard stat(directory + "/" + path, &status) == 0 else { continue }
      files[path] = [
        Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec), Int(status.st_ino),
      ]
    }
    return files
  }

  func cards(_ out: String) throws -> [String: Data] {
    var cards: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: out + "/cards") {
      cards[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/cards/" + name))
    }
    return cards
  }

  func report(_ out: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: out + ".state/last-merge.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func theMergedShardsAreTheUnshardedCrawlAndAMergeRunTwiceWritesNothing() async throws {
    // Given an unsharded crawl of the web and the same list crawled as 4 shards
    #expect(try await crawl(root + "/all") == 1)
    let whole = try records(root + "/all")
    #expect(whole.count == Self.pageCount)
    let shards = try await crawlShards("shard", count: 4)

    // When the shards are merged with the list
    let merged = root + "/merged"
    #expect(try await run(mergeArguments(shards, into: merged)) == 0)

    // Then the manifest is the unsharded crawl's, record for record and in order (fetch times aside),
    // and so are the cards (byte for byte) and the blobs
    let mergedRecords = try records(merged)
    #expect(mergedRecords.map(\.url) == whole.map(\.url))
    for (mine, theirs) in zip(mergedRecords, whole) { #expect(mine.record == theirs.record, "\(mine.url)") }
    #expect(try cards(merged) == cards(root + "/all"))
    #expect(!blobFiles(merged).isEmpty)
    #expect(blobFiles(merged) == blobFiles(root + "/all"))
    // The merged state knows every page with its validators, outside any run of its own.
    let state = try StateStore(path: merged + ".state/state.sqlite")
    #expect(try state.pageCount() == whole.count)
    for (url, _) in whole {
      let page = try state.page(url)
      #expect(page.good != nil && (page.etag != nil || page.lastModified != nil) && page.run == nil, "\(url)")
    }
    let first = try report(merged)
    #expect(first["records"] as? Int == whole.count)
    #expect(first["listed"] as? Int == whole.count)
    #expect(first["invalidLines"] as? Int == 1)
    #expect(first["duplicates"] as? Int == 1)
    #expect((first["outcomes"] as? [String: Int])?["ok"] == whole.count)

    // When it is merged again
    let before = snapshot(merged)
    #expect(try await run(mergeArguments(shards, into: merged)) == 0)

    // Then nothing in the output directory was written
    #expect(snapshot(merged) == before)
    let second = try report(merged)
    #expect(second["manifestReplaced"] as? Bool == false)
    #expect((second["cards"] as? [String: Int])?["written"] == 0)
    #expect((second["blobs"] as? [String: Int])?["linked"] == 0)
    #expect((second["blobs"] as? [String: Int])?["copied"] == 0)

    // And without the list, the shards' manifests follow one another: the same records, each once
    let concatenated = root + "/concatenated"
    #expect(try await run(mergeArguments(shards, into: concatenated, list: false)) == 0)
    let unordered = try records(concatenated)
    #expect(unordered.count == whole.count)
    #expect(Set(unordered.map(\.url)) == Set(whole.map(\.url)))
    #expect(
      unordered.map { Shard.index(ofNormalizedURL: $0.url, count: 4) }
        == unordered.map {
          Shard.index(ofNormalizedURL: $0.url, count: 4)
        }.sorted())
  }

  @Test func aMergeKilledAtRandomMomentsIsFinishedByTheNextOne() async throws {
    // Given 4 shards and their merge, made once without interruption
    let shards = try await crawlShards("shard", count: 4)
    let reference = root + "/reference"
    let started = Date()
    #expect(try await run(mergeArguments(shards, into: reference)) == 0)
    let duration = Date().timeIntervalSince(started)
    let manifest = try Data(contentsOf: URL(fileURLWithPath: reference + "/manifest.jsonl"))

    // When merges into another directory are killed (SIGKILL) at random moments of a merge's time
    var generator = SplitMix(seed: 23)
    let killed = root + "/killed"
    for _ in 0..<8 {
      let process = thumbifyProcess(mergeArguments(shards, into: killed))
      process.standardError = FileHandle.nullDevice
      process.standardOutput = FileHandle.nullDevice
      let child = try ChildProcess(process)
      let delay = Double(generator.next() % 1000) / 1000 * duration
      try await Task.sleep(for: .seconds(delay))
      kill(child.processIdentifier, SIGKILL)
      _ = await child.exitStatus()
      // Then the manifest is never torn: absent, or the whole merged one
      if let partial = try? Data(contentsOf: URL(fileURLWithPath: killed + "/manifest.jsonl")) {
        #expect(partial == manifest)
      }
    }

    // And the next merge finishes the job: the same manifest, cards and blobs, no temporary file left
    #expect(try await run(mergeArguments(shards, into: killed)) == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: killed + "/manifest.jsonl")) == manifest)
    #expect(try cards(killed) == cards(reference))
    #expect(blobFiles(killed) == blobFiles(reference))
    #expect(snapshot(killed).keys.allSatisfy { !$0.contains(".tmp") })
  }

  @Test func theNextNightStartsFromTheMergedDirectoryWithAnotherShardCount() async throws {
    // Given night 1: 4 shards merged
    let night1 = root + "/night1"
    #expect(try await run(mergeArguments(try await crawlShards("n1", count: 4), into: night1)) == 0)
    let baselineBefore = snapshot(night1)
    let baselineStateBefore = snapshot(night1 + ".state")
    // ... and a page that fails on night 2 (404)
    try FileManager.default.removeItem(atPath: www + "/p/only.html")
    let logged = nginx.accessLog().count

    // When night 2 crawls 3 shards with fresh states and the merged directory as baseline
    let night2Shards = try await crawlShards(
      "n2", count: 3, ["--baseline", night1, "--baseline-state", night1 + ".state"])

    // Then every page was asked for conditionally: nginx answered 304 to all that are still there
    let pages = nginx.accessLog().dropFirst(logged).filter { $0.split(separator: " ")[2].hasPrefix("/p/") }
    #expect(pages.count == Self.pageCount)
    #expect(pages.filter { $0.hasPrefix("304 ") }.count == Self.pageCount - 1)
    // No image was fetched again
    #expect(!nginx.accessLog().dropFirst(logged).contains { $0.contains("/img/") })
    // And the page that fails keeps its card, stale, with its image
    let owner = night2Shards[Shard.index(ofNormalizedURL: failing, count: 3)]
    let record = try #require(try readManifest(owner).first { $0.normalizedURL == failing })
    #expect(record.outcome == .stale)
    #expect(record.image != nil)
    for path in record.blobPaths { #expect(FileManager.default.fileExists(atPath: owner + "/" + path)) }
    let card = try Data(
      contentsOf: URL(fileURLWithPath: owner + "/cards/" + CardKey(normalizedURL: failing).fileName))
    #expect(String(decoding: card, as: UTF8.self).contains("\"stale\":true"))
    // And the baseline was only read
    #expect(snapshot(night1) == baselineBefore)
    #expect(snapshot(night1 + ".state") == baselineStateBefore)

    // When night 2's shards are merged
    let night2 = root + "/night2"
    #expect(try await run(mergeArguments(night2Shards, into: night2)) == 0)

    // Then the merged manifest has every URL in list order, not modified but the stale one, whose
    // blobs are there
    let merged = try readManifest(night2)
    #expect(merged.map(\.normalizedURL) == (try readManifest(night1)).map(\.normalizedURL))
    #expect(merged.filter { $0.outcome == .notModified }.count == merged.count - 1)
    for path in merged.flatMap(\.blobPaths) {
      #expect(FileManager.default.fileExists(atPath: night2 + "/" + path))
    }

    // And an unsharded crawl on the merged directory and state sends conditional requests too
    let again = nginx.accessLog().count
    #expect(try await crawl(night2) == 1)
    let unsharded = nginx.accessLog().dropFirst(again).filter { $0.split(separator: " ")[2].hasPrefix("/p/") }
    #expect(unsharded.filter { $0.hasPrefix("304 ") }.count == Self.pageCount - 1)
    let final = try readManifest(night2)
    #expect(final.first { $0.normalizedURL == failing }?.outcome == .stale)
  }

  @Test func badUsageExits64AndAShardWithoutManifestExits70() async throws {
    // Given no shard directory, a --shard-state count that differs, and --baseline-state alone
    #expect(try await run(["merge", "--out", root + "/m"]) == 64)
    #expect(
      try await run(["merge", root + "/a", root + "/b", "--shard-state", root + "/s", "--out", root + "/m"])
        == 64)
    #expect(try await run(["crawl", listPath, "--out", root + "/c", "--baseline-state", root + "/s"]) == 64)
    // Given a shard directory without a manifest
    try FileManager.default.createDirectory(atPath: root + "/empty", withIntermediateDirectories: true)
    #expect(
      try await run(["merge", root + "/empty", "--shard-state", root + "/empty.state", "--out", root + "/m"])
        == 70)
  }
}
