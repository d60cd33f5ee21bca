import Foundation
import Testing
import ThumbifyFetchingTestSupport
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// `kill -9` at random points of a real `thumbify crawl`, then a rerun: the result must equal an
/// uninterrupted run's, and the manifest on disk must always be absent or complete.
@Suite("Crawl survives kill -9", .serialized)
final class CrawlKillTests {
  let nginx: LoopbackNginx
  let root: String
  let listPath: String
  static let pages = 40

  init() async throws {
    root = makeTemporaryDirectory("kill")
    let www = root + "/www"
    try FileManager.default.createDirectory(atPath: www + "/p", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: TestPaths.repository + "/samples/photos", toPath: www + "/photos")
    let photos = ["storm.jpg", "greenmeadow.jpg", "raindrops-progressive.jpg", "freshflower-alpha.png"]
    var list = ""
    for index in 0..<Self.pages {
      // Distinct image URLs (one fetch each), shared bytes (one thumbnail set per photo).
      let image = "/photos/\(photos[index % photos.count])?v=\(index)"
      let html = """
        <html><head><title>Page \(index)</title><meta property="og:image" content="\(image)">
        <link rel="icon" href="/photos/freshflower-alpha.png"></head><body>\(index)</body></html>
        """
      try html.write(toFile: www + "/p/\(index).html", atomically: true, encoding: .utf8)
    }
    nginx = try await LoopbackNginx(docroot: URL(fileURLWithPath: www))
    for index in 0..<Self.pages { list += nginx.url("/p/\(index).html") + "\n" }
    listPath = root + "/urls.txt"
    try list.write(toFile: listPath, atomically: true, encoding: .utf8)
  }

  deinit {
    nginx.stop()
    removeDirectory(root)
  }

  func arguments(_ out: String) -> [String] {
    [
      "crawl", listPath, "--out", out, "--allow-private-network", "--ignore-robots", "--quiet",
      "--concurrency", "2",
      "--per-host", "1",
    ]
  }

  /// Starts the binary; its stderr goes to `<out>.log`.
  func start(_ out: String) throws -> ChildProcess {
    let process = thumbifyProcess(arguments(out))
    process.standardOutput = FileHandle.nullDevice
    _ = FileManager.default.createFile(atPath: out + ".log", contents: nil)
    process.standardError = FileHandle(forWritingAtPath: out + ".log")
    return try ChildProcess(process)
  }

  /// The manifest without what legitimately differs between runs (times, 200 vs 304).
  func comparable(_ out: String) throws -> [CrawlRecord] {
    try readManifest(out).map { record in
      var record = record
      record.fetch = nil
      if record.outcome == .notModified { record.outcome = .ok }
      return record
    }
  }

  @Test(arguments: [1, 2, 3, 4])
  func aRerunAfterKillNineGivesTheUninterruptedManifest(seed: UInt64) async throws {
    let baseline = root + "/baseline-\(seed)"
    let started = Date()
    #expect(try await start(baseline).exitStatus() == 0)
    let duration = Date().timeIntervalSince(started)
    let expected = try comparable(baseline)
    #expect(expected.count == Self.pages)

    // A deterministic random point in the run, per seed (splitmix64).
    var state = seed &* 0x9E37_79B9_7F4A_7C15
    state = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
    state = (state ^ (state >> 27)) &* 0x94D0_49BB_1331_11EB
    let fraction = Double((state ^ (state >> 31)) % 1000) / 1000
    let out = root + "/killed-\(seed)"
    let victim = try start(out)
    try await Task.sleep(for: .seconds(duration * fraction))
    kill(victim.processIdentifier, SIGKILL)
    _ = await victim.exitStatus()
    #expect(LoopbackNginx.canConnect(port: nginx.port), "nginx died with the killed crawl")
    // The manifest is either absent or complete, never torn.
    if FileManager.default.fileExists(atPath: out + "/manifest.jsonl") {
      #expect(try readManifest(out).count == Self.pages)
    }
    let rerunStatus = try await start(out).exitStatus()
    let problems = try readManifest(out).compactMap { record in
      record.error.map { "\(record.originalURL): \($0.message)" }
    }
    #expect(rerunStatus == 0, "\(problems)")
    #expect(try comparable(out) == expected, "killed after \(Int(fraction * 100)) % of \(duration) s")
    // Every record's card holds that record's card (written by the workers of the killed run, or
    // again by the rerun), and no temporary file is left.
    let records = try readManifest(out)
    for record in records {
      let path = out + "/cards/" + CardKey(normalizedURL: record.normalizedURL).fileName
      #expect(
        FileSystem.fileHolds(try CardWriter.encodedCard(for: record), at: path),
        "the card of \(record.originalURL) after a kill at \(Int(fraction * 100)) %")
    }
    let cardFiles = try FileManager.default.contentsOfDirectory(atPath: out + "/cards")
    #expect(cardFiles.count == records.count, "\(cardFiles.filter { !$0.hasSuffix(".json") })")
  }
}
