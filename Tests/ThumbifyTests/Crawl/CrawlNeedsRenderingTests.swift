import Foundation
import Testing
import ThumbifyExtracting
import ThumbifyFetchingTestSupport
import ThumbifyRendering
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// Issue 35: a crawl without `--render` that meets an app shell recorded `ok` with no title and said
/// nothing; now the record and the card say `needsRendering`, and the summary counts them with the
/// hint that `--render auto` renders them. No browser is needed: nothing is rendered.
@Suite("App shells in crawls without --render", .timeLimit(.minutes(10)), .dedicatedExecutor)
struct CrawlNeedsRenderingTests {
  @Test func appShellsAreMarkedAndCounted() async throws {
    // Given two app shells, a server-rendered page with the same mount point, and a plain page
    // with neither title nor image that is no app
    let root = makeTemporaryDirectory("needs-rendering")
    defer { removeDirectory(root) }
    let www = root + "/www"
    try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
    let pages = [
      "shell.html":
        #"<!doctype html><html><head></head><body><div id="root"></div><script src="/a.js"></script></body></html>"#,
      "react.html":
        "<!doctype html><html><head><title>React App</title></head><body><noscript>You need to enable JavaScript to run this app.</noscript></body></html>",
      "served.html":
        #"<html><head><title>Served</title><meta name="description" content="Made on the server"></head><body><div id="root"></div></body></html>"#,
      "plain.html": "<html><body><p>Just text.</p></body></html>",
    ]
    for (name, html) in pages { try html.write(toFile: www + "/" + name, atomically: true, encoding: .utf8) }
    let nginx = try await LoopbackNginx(docroot: URL(fileURLWithPath: www))
    defer { nginx.stop() }
    let out = root + "/out"
    let list = root + "/urls.txt"
    let log = root + "/summary.txt"
    let names = ["shell.html", "react.html", "served.html", "plain.html"]
    try (names.map { nginx.url("/" + $0) }.joined(separator: "\n") + "\n").write(
      toFile: list, atomically: true, encoding: .utf8)
    _ = FileManager.default.createFile(atPath: log, contents: nil)

    // When they are crawled without --render
    let metrics = root + "/metrics.prom"
    let process = thumbifyProcess([
      "crawl", list, "--out", out, "--allow-private-network", "--ignore-robots", "--metrics", metrics,
    ])
    process.standardOutput = FileHandle(forWritingAtPath: log)  // the summary
    process.standardError = FileHandle.nullDevice
    #expect(try await ChildProcess.run(process) == 0)

    // Then the two shells are ok and marked, the others not; their cards say so too
    try expectValidOutput(out)
    let records = try readManifest(out)
    #expect(records.map(\.outcome) == [.ok, .ok, .ok, .ok])
    #expect(records.map { $0.needsRendering == true } == [true, true, false, false])
    #expect(records.map { Card(record: $0).needsRendering == true } == [true, true, false, false])
    let cardFile = out + "/cards/" + CardKey(normalizedURL: records[0].normalizedURL).hex + ".json"
    let card = try JSONDecoder().decode(Card.self, from: Data(contentsOf: URL(fileURLWithPath: cardFile)))
    #expect(card.needsRendering == true)
    // and the summary counts them with the hint.
    let text = try String(contentsOfFile: log, encoding: .utf8)
    #expect(text.contains("2 cards are empty because the page needs JavaScript"), "\(text)")
    #expect(text.contains("--render auto"), "\(text)")
    let prometheus = try String(contentsOfFile: metrics, encoding: .utf8)
    #expect(prometheus.contains("\nthumbify_crawl_cards_needing_rendering 2\n"), "\(prometheus)")
  }

  /// The rule itself: one detector (`RenderRule`) for `--render auto` and for the mark.
  @Test func theMarkIsTheRenderRulesAppShell() {
    func metadata(_ html: String) -> (PageMetadata, [UInt8]) {
      let bytes = Array(html.utf8)
      return (
        MetadataExtractor().extract(html: bytes, pageURL: "https://app.example/", contentType: nil), bytes
      )
    }
    let (shell, shellBytes) = metadata(#"<div id="app"></div>"#)
    #expect(RenderRule.needsRendering(shell, html: shellBytes))
    let (described, describedBytes) = metadata(
      #"<title>T</title><meta name=description content=D><div id="app"></div>"#)
    #expect(!RenderRule.needsRendering(described, html: describedBytes))
    let (empty, emptyBytes) = metadata("<p>nothing here</p>")
    #expect(RenderRule.reason(for: empty, html: emptyBytes) == "noTitleOrImage")
    #expect(!RenderRule.needsRendering(empty, html: emptyBytes))
  }
}
