import Foundation
import Testing
import ThumbifyExtracting
import ThumbifyStore
import ThumbifySystem
import ThumbifyTestSupport

@testable import Thumbify

@Suite("Report page")
struct ReportWriterTests {
  /// The contents of every `<script …>` element of `page`, with its opening tag.
  func scripts(in page: String) -> [(tag: String, body: String)] {
    var found: [(String, String)] = []
    var rest = page[...]
    while let open = rest.range(of: "<script"), let tagEnd = rest[open.upperBound...].firstIndex(of: ">"),
      let close = rest[tagEnd...].range(of: "</script>")
    {
      found.append(
        (String(rest[open.lowerBound...tagEnd]), String(rest[rest.index(after: tagEnd)..<close.lowerBound])))
      rest = rest[close.upperBound...]
    }
    return found
  }

  func cards(_ count: Int) -> [Card] {
    (0..<count).map { index in
      let url = "https://example.com/\(index)"
      return Card(
        record: CrawlRecord(originalURL: url, normalizedURL: url, outcome: index % 7 == 0 ? .failed : .ok))
    }
  }

  @Test func cardsArePagedIntoJSONBlocksInOrder() throws {
    let (bytes, summary) = ReportWriter(outputDirectory: "/o", pageSize: 500).render(
      cards: cards(1201), title: "t")
    let blocks = scripts(in: String(decoding: bytes, as: UTF8.self)).filter { $0.tag.contains("chunk-") }
    #expect(blocks.map(\.tag) == (0..<3).map { #"<script type="application/json" id="chunk-\#($0)">"# })
    let decoded = try blocks.map {
      try JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [[String: Any]]
    }
    #expect(decoded.map { $0?.count } == [500, 500, 201])
    #expect(decoded[2]?.last?["url"] as? String == "https://example.com/1200")
    #expect(summary.total == 1201)
    #expect(summary.failed == 172)
  }

  /// Issue 35: an app shell's card carries `needsRendering` to the page, which badges it; a card with
  /// a video carries it (the play badge); other cards carry neither.
  @Test func appShellsAndVideosReachThePage() throws {
    var shell = CrawlRecord(
      originalURL: "https://a.example/", normalizedURL: "https://a.example/", outcome: .ok)
    shell.needsRendering = true
    var video = CrawlRecord(
      originalURL: "https://v.example/", normalizedURL: "https://v.example/", outcome: .ok)
    video.metadata = PageMetadata()
    video.metadata?.video = VideoCandidate(url: "https://v.example/a.mp4", type: "video/mp4", kind: .file)
    let plain = CrawlRecord(
      originalURL: "https://p.example/", normalizedURL: "https://p.example/", outcome: .ok)
    let (bytes, _) = ReportWriter(outputDirectory: "/o").render(
      cards: [shell, video, plain].map { Card(record: $0) }, title: "t")
    let page = String(decoding: bytes, as: UTF8.self)
    let block = try #require(scripts(in: page).first { $0.tag.contains("chunk-0") })
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(block.body.utf8)) as? [[String: Any]])
    #expect(entries.map { $0["needsRendering"] as? Bool } == [true, nil, nil])
    #expect(entries.map { ($0["video"] as? [String: Any])?["kind"] as? String } == [nil, "file", nil])
    #expect(page.contains("Needs JavaScript") && page.contains("\\u25B6 Video"))
  }

  @Test func theOnlyExecutableScriptIsTheOneTheCSPHashes() throws {
    let page = String(
      decoding: ReportWriter(outputDirectory: "/o").render(cards: cards(3), title: "t").page, as: UTF8.self)
    let executable = scripts(in: page).filter { !$0.tag.contains("application/json") }
    #expect(executable.count == 1)
    let hash = Data(SHA256Digest.bytes(of: Array(try #require(executable.first).body.utf8)))
      .base64EncodedString()
    let policy = page.replacingOccurrences(of: "&#39;", with: "'")  // as the attribute decodes
    #expect(policy.contains(#"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; "#))
    #expect(policy.contains("script-src 'sha256-\(hash)'"))
    #expect(!page.contains("unsafe-inline"))
    #expect(!page.contains("http://") && !page.contains("src=\"http"))
  }

  @Test func hostileMetadataNeverAppearsUnescaped() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    let records = try FrontendFixtures.hostileRecords(in: directory)
    let (bytes, _) = ReportWriter(outputDirectory: directory).render(
      cards: records.map(Card.init), title: "<script>alert(1)</script>")
    let page = String(decoding: bytes, as: UTF8.self)
    #expect(!page.contains("<script>alert(1)"))
    #expect(page.contains("thumbify report: &lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(!page.contains("\u{2028}") && !page.contains("\u{2029}"))
    for block in scripts(in: page) where block.tag.contains("application/json") {
      #expect(!block.body.contains("<") && !block.body.contains(">"))
    }
    // Each hostile string survives the round trip through the JSON block unchanged.
    let chunk = try #require(scripts(in: page).first { $0.tag.contains("chunk-0") })
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(chunk.body.utf8)) as? [[String: Any]])
    #expect(entries.compactMap { $0["title"] as? String } == FrontendFixtures.hostileStrings)
    #expect(entries.allSatisfy { ($0["url"] as? String).map(Card.isLinkable) ?? true })
  }

  @Test(arguments: [
    ("/data/out", "/data/out/index.html", ""),
    ("/data/out", "/data/out/reports/r.html", "../"),
    ("/data/out", "/srv/www/r.html", "../../data/out/"),
    ("/data/out/", "/data/./out/x/../index.html", ""),
  ])
  func blobPathsAreRelativeToThePage(directory: String, page: String, base: String) {
    #expect(ReportWriter(outputDirectory: directory, reportPath: page).relativeBase == base)
  }

  @Test func writesTheDefaultPageFromTheManifest() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    let records = try FrontendFixtures.records(in: directory, count: 5)
    try FrontendFixtures.writeManifest(records, in: directory)
    let summary = try ReportWriter(outputDirectory: directory).write()
    #expect(summary.total == 5)
    #expect(summary.stale == 1 && summary.failed == 1)
    let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/index.html")
    #expect(attributes[.size] as? Int == summary.bytes)
  }
}
