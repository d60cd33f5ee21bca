import Foundation
import Testing
import ThumbifyFetchingTestSupport
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// The real `thumbify` binary crawling the sample site served by nginx on loopback.
@Suite("Crawl end to end against nginx", .serialized)
final class CrawlEndToEndTests {
  let nginx: LoopbackNginx
  let site: String
  let out: String
  let listPath: String

  init() async throws {
    site = makeTemporaryDirectory("site")
    out = makeTemporaryDirectory("out")
    try FileManager.default.copyItem(atPath: TestPaths.repository + "/samples/site", toPath: site + "/www")
    try FileManager.default.copyItem(
      atPath: TestPaths.repository + "/samples/photos", toPath: site + "/www/photos")
    nginx = try await LoopbackNginx(docroot: URL(fileURLWithPath: site + "/www"))
    // The sample list, moved to this server's port; the redirect needs the demo's nginx config.
    let list = try String(contentsOfFile: TestPaths.repository + "/samples/urls.txt", encoding: .utf8)
      .replacingOccurrences(of: "127.0.0.1:8765", with: "127.0.0.1:\(nginx.port)")
      .split(separator: "\n").filter { !$0.contains("/old/storms") }.joined(separator: "\n")
    listPath = site + "/urls.txt"
    try list.write(toFile: listPath, atomically: true, encoding: .utf8)
  }

  deinit {
    nginx.stop()
    removeDirectory(site)
    removeDirectory(out)
  }

  struct Run {
    var status: Int32
    var out: String
    var err: String
  }

  /// Runs the binary to completion; its output goes through files, read once it exited.
  func thumbify(_ arguments: [String]) async throws -> Run {
    let process = thumbifyProcess(arguments)
    let stdout = site + "/stdout"
    let stderr = site + "/stderr"
    for path in [stdout, stderr] { #expect(FileManager.default.createFile(atPath: path, contents: nil)) }
    process.standardOutput = FileHandle(forWritingAtPath: stdout)
    process.standardError = FileHandle(forWritingAtPath: stderr)
    let status = try await ChildProcess.run(process)
    let text = { (path: String) in
      String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
    return Run(status: status, out: text(stdout), err: text(stderr))
  }

  func crawl(_ extra: [String] = ["--ignore-robots"]) async throws -> Run {
    try await thumbify(["crawl", listPath, "--out", out, "--allow-private-network"] + extra)
  }

  func record(_ records: [CrawlRecord], _ path: String) -> CrawlRecord? {
    records.first { $0.normalizedURL.hasSuffix(":\(nginx.port)\(path)") }
  }

  @Test func aFullRunWritesCardsThumbnailsAndTypedErrors() async throws {
    let run = try await crawl()
    #expect(run.status == 1, "some sample pages are broken on purpose: \(run.err)")
    #expect(
      run.err.contains("invalid this line is not a URL: The URL 'this line is not a URL' is not valid."))
    #expect(run.out.contains("Manifest: \(out)/manifest.jsonl"))
    let records = try readManifest(out)
    #expect(records.count == 16)
    let home = try #require(record(records, "/"))
    #expect(home.outcome == .ok)
    #expect(home.metadata?.title == "Thumbify Sample Site")
    let card = try #require(home.image?.variants.first { $0.name == "card" })
    #expect(card.width == 600)
    #expect(card.format == .webp)
    let bytes = try #require(FileManager.default.contents(atPath: out + "/" + card.path))
    #expect(bytes.starts(with: Array("RIFF".utf8)))
    #expect(bytes.count == card.bytes)
    #expect(home.icon?.variants.first?.width == 64)
    // Legacy charsets are decoded.
    #expect(record(records, "/ja/index.html")?.metadata?.title == "雨の日の写真")
    #expect(record(records, "/ru/koi8.html")?.metadata?.title == "Гроза над полем")
    #expect(record(records, "/zh/index.html")?.metadata?.title == "春天的花")
    // The site-wide default image is fetched once for the six pages sharing it.
    let shared = records.compactMap(\.image).filter { $0.source.hasSuffix("/photos/storm.jpg") }
    #expect(shared.count == 6)
    #expect(Set(shared.map { $0.variants.map(\.path) }).count == 1)
    #expect(nginx.accessLog().filter { $0.contains(" /photos/storm.jpg ") }.count == 1)
    // Broken on purpose.
    #expect(record(records, "/broken/no-such-page.html")?.error?.code == "httpStatus")
    #expect(record(records, "/broken/missing-image.html")?.imageError?.code == "httpStatus")
    #expect(record(records, "/broken/corrupt-image.html")?.imageError?.code == "undecodableImage")
    #expect(record(records, "/broken/corrupt-image.html")?.outcome == .ok)
  }

  @Test func aRerunWritesNoBlobsAndIsAnsweredWith304s() async throws {
    // robots.txt is honoured here: its cache entry, with validators, is kept for the next run.
    _ = try await crawl([])
    let blobs = blobFiles(out)
    let before = nginx.accessLog().count
    let run = try await crawl([])
    #expect(run.out.contains("Wrote 0 new blobs"))
    #expect(blobFiles(out) == blobs)
    let second = nginx.accessLog().dropFirst(before)
    let pages = second.filter { $0.contains(".html ") || $0.contains(" / ") }
    #expect(!pages.isEmpty)
    #expect(pages.allSatisfy { $0.hasPrefix("304 ") || $0.hasPrefix("404 ") })
    #expect(!second.contains { $0.contains("/photos/") })
    #expect(second.filter { $0.contains(" /robots.txt ") }.allSatisfy { $0.hasPrefix("304 ") })
    #expect(second.contains { $0.contains(" /robots.txt ") })
    let records = try readManifest(out)
    #expect(record(records, "/")?.outcome == .notModified)
    #expect(record(records, "/private/draft.html")?.error?.code == "blockedByRobots")
    #expect(!nginx.accessLog().contains { $0.contains("/private/") })
  }

  @Test func aChangedPageIsUpdatedAndAFailingPageKeepsItsStaleCard() async throws {
    _ = try await crawl()
    let first = try readManifest(out)
    let storms = site + "/www/en/storms.html"
    let html = try String(contentsOfFile: storms, encoding: .utf8)
      .replacingOccurrences(of: "Watching storms roll in", with: "Storm season is here")
    try html.write(toFile: storms, atomically: true, encoding: .utf8)
    try FileManager.default.removeItem(atPath: site + "/www/fr/orages.html")
    let run = try await crawl()
    #expect(run.status == 1)
    let records = try readManifest(out)
    #expect(record(records, "/en/storms.html")?.outcome == .ok)
    #expect(record(records, "/en/storms.html")?.metadata?.title == "Storm season is here")
    let stale = try #require(record(records, "/fr/orages.html"))
    #expect(stale.outcome == .stale)
    #expect(stale.error?.code == "httpStatus")
    #expect(stale.metadata == record(first, "/fr/orages.html")?.metadata)
    #expect(stale.image == record(first, "/fr/orages.html")?.image)
    for path in stale.blobPaths { #expect(FileManager.default.fileExists(atPath: out + "/" + path)) }
  }

  @Test func aSecondRunIsRefusedAndAStaleLockIsRecovered() async throws {
    let lock = try RunLock(testLayout(out))
    let refused = try await crawl()
    #expect(refused.status == 70)
    #expect(
      refused.err
        == "Error: Another thumbify run (pid \(getpid())) is using '\(out)'; wait for it to finish.\n")
    withExtendedLifetime(lock) {}
    _ = consume lock
    // A lock file left by a dead process does not block.
    try "999999\n".write(toFile: testLayout(out).lock, atomically: true, encoding: .utf8)
    let run = try await crawl()
    #expect(run.status == 1)
    #expect(try readManifest(out).count == 16)
  }

  @Test func gcDeletesOnlyUnreferencedBlobs() async throws {
    _ = try await crawl()
    let referenced = blobFiles(out)
    let orphan = try BlobStore(root: out).store(Array("no one refers to me".utf8), fileExtension: "webp")
    let old = Date().addingTimeInterval(-7_200)
    for path in referenced.union([orphan.path]) {
      try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: out + "/" + path)
    }
    let run = try await thumbify(["gc", out, "--grace", "1h"])
    #expect(run.status == 0)
    #expect(run.out.hasPrefix("Removed 1 unreferenced blob "))
    #expect(blobFiles(out) == referenced)
    for record in try readManifest(out) {
      for path in record.blobPaths { #expect(FileManager.default.fileExists(atPath: out + "/" + path)) }
    }
  }
}
