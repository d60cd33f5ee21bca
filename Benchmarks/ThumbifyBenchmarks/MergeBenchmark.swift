import Foundation
import Thumbify

/// `merge`: what `thumbify merge` costs (issue 23). Generates `--shards=4` shard output directories of
/// `--records=250000` records each (a manifest, a card per record, a state database with each page's
/// record and validators; records of a realistic ~3–4 KB with title, description, image and icon
/// sets; 64 distinct blobs), then merges them with the release `thumbify` binary next to this program
/// (`thumbify merge <shards> --shard-state … --list <urls> --out <dir> --state <dir>`), into a fresh
/// directory and then again into the same one (idempotent: nothing written), and reports records/s,
/// CPU and the merge process's peak RSS (GNU `time`'s `%M`, `ChildProcess`).
///
///     swift build -c release --product thumbify && swift build -c release --product thumbify-benchmarks
///     .build/release/thumbify-benchmarks merge --records=250000 --shards=4
enum MergeBenchmark {
  static func run(_ arguments: [String]) async throws {
    func option(_ name: String, _ fallback: Int) -> Int {
      arguments.first { $0.hasPrefix("--\(name)=") }.flatMap { Int($0.dropFirst(name.count + 3)) } ?? fallback
    }
    let perShard = option("records", 250_000)
    let shardCount = option("shards", 4)
    let thumbify =
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/thumbify"
    guard FileManager.default.isExecutableFile(atPath: thumbify) else {
      throw BenchmarkFailure("Build thumbify first: swift build -c release --product thumbify")
    }
    let root = NSTemporaryDirectory() + "thumbify-merge-bench-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    let generated = Date()
    let list = root + "/urls.txt"
    let shards = try generate(root: root, list: list, perShard: perShard, shardCount: shardCount)
    let total = perShard * shardCount
    print(
      "generated \(shardCount) shards of \(perShard) records in "
        + String(format: "%.1f s", Date().timeIntervalSince(generated)) + "; manifest bytes: "
        + shards.map {
          "\(((try? FileManager.default.attributesOfItem(atPath: $0 + "/manifest.jsonl")[.size]) as? Int ?? 0) / 1_000_000) MB"
        }
        .joined(separator: ", "))
    let out = root + "/merged"
    let merge =
      ["merge"] + shards + shards.flatMap { ["--shard-state", $0 + ".state"] }
      + ["--list", list, "--out", out, "--state", out + ".state", "--quiet"]
    sync()
    for (label, run) in [("into a fresh directory", 1), ("again (nothing to write)", 2)] {
      _ = run
      let load =
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
        .joined(separator: " ") ?? "?"
      let outcome = try ChildProcess.run(thumbify, merge)
      print(
        "merge \(label): \(total) records in " + String(format: "%.2f s", outcome.seconds)
          + String(format: " (%.0f records/s)", Double(total) / outcome.seconds)
          + String(format: ", CPU %.2f s", outcome.cpuSeconds)
          + String(format: ", peak RSS %.1f MB", Double(outcome.peakRSSKiB) / 1024) + ", load \(load)")
    }
  }

  /// Writes the shards' directories and the list; returns the shard directories (states beside them).
  static func generate(root: String, list: String, perShard: Int, shardCount: Int) throws -> [String] {
    let shards = (0..<shardCount).map { root + "/shard-\($0)" }
    var writers: [(manifest: ManifestWriter, cards: CardWriter, state: StateStore)] = []
    for shard in shards {
      try FileManager.default.createDirectory(atPath: shard + "/cards", withIntermediateDirectories: true)
      writers.append(
        (
          try ManifestWriter(path: shard + "/manifest.jsonl"), CardWriter(outputDirectory: shard),
          try StateStore(path: shard + ".state/state.sqlite", groupCommit: .crawl)
        ))
    }
    // A few blobs, shared by every record as a site-wide og:image and favicon are.
    var sets: [ThumbnailSet] = []
    for index in 0..<32 {
      var variants: [Thumbnail] = []
      for (name, width) in [("card", 600), ("card2x", 1200)] {
        let bytes = Array("blob \(index) \(name)".utf8) + [UInt8](repeating: UInt8(index), count: 4096)
        let sha = SHA256Digest.hex(of: bytes)
        let path = OutputLayout.blobPath(sha256: sha, fileExtension: "webp")
        for shard in shards {
          let file = shard + "/" + path
          try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
          try Data(bytes).write(to: URL(fileURLWithPath: file))
        }
        variants.append(
          Thumbnail(
            name: name, path: path, width: width, height: width / 2, bytes: bytes.count, format: .webp,
            sha256: sha))
      }
      sets.append(
        ThumbnailSet(
          source: "https://cdn.example.com/og/\(index).jpg", width: 1200, height: 630,
          placeholder: "1QcSHQRnh493V4dIh4eXh1h4kJUI", color: "#4a6b8c", variants: variants))
    }
    guard let file = fopen(list, "w") else { throw BenchmarkFailure("Could not write \(list)") }
    defer { fclose(file) }
    let description = String(repeating: "A paragraph that a page would give as its description. ", count: 12)
    var counts = [Int](repeating: 0, count: shardCount)
    var index = 0
    while counts.min() ?? perShard < perShard {
      defer { index += 1 }
      let url = "https://www.site\(index % 20_011).com/articles/\(index)/a-long-slug-for-the-article"
      let shard = Shard.index(ofNormalizedURL: url, count: shardCount)
      guard counts[shard] < perShard else { continue }
      counts[shard] += 1
      fputs(url + "\n", file)
      var metadata = PageMetadata()
      metadata.title = "Article \(index): a title of a realistic length for a news page"
      metadata.description = description
      metadata.siteName = "Site \(index % 20_011)"
      metadata.lang = "en"
      metadata.image = ImageCandidate(
        url: "https://cdn.example.com/og/\(index % 32).jpg", width: 1200, height: 630)
      metadata.icon = IconCandidate(url: "https://www.site\(index % 20_011).com/favicon.ico")
      metadata.canonicalURL = url
      metadata.publishedTime = "2026-12-01T08:00:00Z"
      let record = CrawlRecord(
        originalURL: url, normalizedURL: url, outcome: .ok,
        fetch: FetchFacts(
          finalURL: url, status: 200, etag: "\"\(index)-5f3a\"",
          lastModified: "Tue, 01 Dec 2026 08:00:00 GMT",
          fetchedAt: "2026-12-04T01:00:00Z", duration: 0.042),
        metadata: metadata, image: sets[index % 32], icon: sets[(index + 7) % 32])
      let writer = writers[shard]
      try writer.manifest.append(record)
      try writer.state.savePage(
        url, record: record, run: 1, isGood: true, etag: record.fetch?.etag,
        lastModified: record.fetch?.lastModified, fetchedAt: 1_764_810_000)
      _ = try writer.cards.write(
        encoded: try CardWriter.encodedCard(for: record), key: CardKey(normalizedURL: url), isNew: true)
    }
    for writer in writers {
      try writer.manifest.commit()
      try writer.state.flush()
    }
    return shards
  }
}
