import Foundation
import Testing
import Thumbify
import ThumbifyExtracting
import ThumbifyFetchingTestSupport
import ThumbifyImaging
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifyTestSupport

extension ChromiumTests {
  /// Pages with hostile metadata, crawled by the real pipeline (CurlFetcher against nginx on
  /// loopback, the real extractor and imaging), then the report opened in Chromium: no injected
  /// script runs, and every hostile string is shown as text.
  @Suite("Report of a hostile crawl in Chromium", .timeLimit(.minutes(6)))
  struct HostileCrawlReportTests {
    static let marker = "THUMBIFY-XSS"

    /// Pages whose every field tries to become markup or script.
    static let pages = [
      "title.html": """
      <!doctype html><html lang="en"><head><meta charset="utf-8">
      <title>&lt;script&gt;document.title='PWNED';console.log('\(marker)')&lt;/script&gt;</title>
      <meta property="og:description" content="&quot;&gt;&lt;img src=x onerror=&quot;window.__thumbifyPwned=1;console.log('\(marker)')&quot;&gt;">
      <meta property="og:site_name" content="</script><script>console.log('\(marker)')</script>">
      <meta property="og:url" content="javascript:console.log('\(marker)')">
      <meta property="og:video" content="javascript:console.log('\(marker)')">
      <meta property="og:image" content="/photo.jpg">
      <meta property="og:image:alt" content="&quot; onload=&quot;console.log('\(marker)')">
      <link rel="icon" href="javascript:console.log('\(marker)')">
      </head><body></body></html>
      """,
      "bidi.html": """
      <!doctype html><html lang="en\\" onmouseover=\\"console.log('\(marker)')"><head><meta charset="utf-8">
      <meta property="og:title" content="\u{202E}lmth.exe\u{202C} reversed, line\u{2028}separator\u{2029}paragraph">
      <meta property="og:description" content="<!--<script>console.log('\(marker)')//-->{{constructor.constructor('console.log(1)')()}}">
      <link rel="canonical" href="data:text/html,<script>console.log('\(marker)')</script>">
      <meta property="og:image" content="javascript:console.log('\(marker)')">
      </head><body></body></html>
      """,
      "sneaky.html": """
      <!doctype html><html><head><meta charset="utf-8">
      <title>A</title>
      <meta property="og:title" content="</title><script>console.log('\(marker)')</script>">
      <meta name="description" content="<svg onload=console.log('\(marker)')>">
      <meta property="og:image" content="/photo.jpg?&quot;onerror=&quot;console.log('\(marker)')">
      </head><body></body></html>
      """,
    ]

    @Test func noInjectedScriptRunsAndEveryStringIsShownAsText() async throws {
      let nginx = try await LoopbackNginx()
      defer { nginx.stop() }
      for (name, html) in Self.pages { try nginx.write(name, html) }
      try FileManager.default.copyItem(
        atPath: FrontendFixtures.samples + "/photos/storm.jpg", toPath: nginx.docroot.path + "/photo.jpg")
      let list = Self.pages.keys.sorted().map { nginx.url("/" + $0) }.joined(separator: "\n")

      let directory = try FrontendFixtures.temporaryDirectory()
      let job = CrawlJob(
        layout: testLayout(directory), configuration: CrawlConfiguration(concurrency: 3),
        fetcher: try makeTestFetcher(), extractor: MetadataExtractor(),
        thumbnailer: Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: directory)))
      _ = try await job.run(openList: { URLListReader(bytes: Array(list.utf8)) })
      let records = try readManifest(directory)
      #expect(records.count == Self.pages.count)
      #expect(records.allSatisfy { $0.outcome == .ok })
      // The extractor decoded the references: the metadata really holds markup.
      let titles = records.compactMap { $0.metadata?.title }
      #expect(titles.contains { $0.contains("<script>") })
      #expect(records.contains { $0.image != nil })

      let writer = ReportWriter(outputDirectory: directory)
      try writer.write()
      let (status, result) = try await ReportBrowserTests().check([
        "xss", writer.reportPath, "--marker", Self.marker,
      ])

      #expect(status == 0, "\(result["failures"] ?? "")")
      #expect(result["cards"] as? Int == records.count)
      #expect(result["pwned"] as? Bool == false)
      #expect(result["title"] as? String == result["heading"] as? String)
      let console = (result["console"] as? [String] ?? []) + (result["problems"] as? [String] ?? [])
      #expect(!console.contains { $0.contains(Self.marker) })
      #expect((result["problems"] as? [String])?.isEmpty == true)
      // What the page shows is exactly what the pages said.
      let shown = Set(result["texts"] as? [String] ?? [])
      for card in records.map(Card.init) {
        for text in [card.title, card.description, card.siteName].compactMap({ $0 }) {
          #expect(shown.contains(text), "\(text.debugDescription) is not on the page as text")
        }
      }
      let links = result["links"] as? [String] ?? []
      #expect(links.count >= records.count)
      #expect(links.allSatisfy { $0.hasPrefix("http://127.0.0.1:\(nginx.port)/") })
    }
  }
}
