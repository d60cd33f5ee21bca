import Foundation
import Testing
import ThumbifyFetchingTestSupport
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// One host, 20 pages, no robots.txt and no favicon (issue 21): the pages went out in reverse list
/// order, and the favicon after all of them, so no page finished before the last one was fetched.
@Suite("One host's requests in list order", .serialized)
final class CrawlHostOrderTests {
  let nginx: LoopbackNginx
  let root: String
  let listPath: String
  static let pages = 20
  /// The first pages, served slowly (`limitRate`).
  static let throttled = 4

  init() async throws {
    root = makeTemporaryDirectory("order")
    let www = root + "/www"
    try FileManager.default.createDirectory(atPath: www + "/p", withIntermediateDirectories: true)
    // The first four pages are 30 KB at 20 KB/s (nginx sends 20 KB at once and the rest a second
    // later): the first page's favicon is queued while later pages still wait, as on the web (tiny
    // local pages can all be served before the first is parsed, which would make the test a race).
    let padding = String(repeating: "<p>filler text for a page of realistic size</p>\n", count: 640)
    for index in 1...Self.pages {
      try
        "<html><head><title>Page \(index)</title></head><body>\(index)\(index <= Self.throttled ? padding : "")</body></html>"
        .write(toFile: www + "/p/p\(index).html", atomically: true, encoding: .utf8)
    }
    var options = LoopbackNginx.Options()
    options.limitRate = "20k"
    nginx = try await LoopbackNginx(docroot: URL(fileURLWithPath: www), options: options)
    listPath = root + "/urls.txt"
    try (1...Self.pages).map { nginx.url("/p/p\($0).html") + "\n" }.joined().write(
      toFile: listPath, atomically: true, encoding: .utf8)
  }

  deinit {
    nginx.stop()
    removeDirectory(root)
  }

  /// The request URIs of the access log.
  func requests() -> [String] {
    nginx.accessLog().map { String($0.split(separator: " ")[2]) }
  }

  @Test(arguments: [1, 2])
  func pagesGoInListOrderAndRobotsAndFaviconOnce(perHost: Int) async throws {
    let out = root + "/out-\(perHost)"
    let before = requests().count
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TestPaths.binary)
    process.arguments = [
      "crawl", listPath, "--out", out, "--state", out + ".state", "--allow-private-network", "--quiet",
      "--concurrency", "64",
      "--per-host", "\(perHost)",
    ]
    #expect(try await ChildProcess.run(process) == 0)
    let log = Array(requests().dropFirst(before))
    // robots.txt first (every page waits for it), once; the missing favicon once for all 20 pages.
    #expect(log.first == "/robots.txt", "\(log)")
    #expect(log.filter { $0 == "/robots.txt" }.count == 1, "\(log)")
    #expect(log.filter { $0 == "/favicon.ico" }.count == 1, "\(log)")
    let pages = log.filter { $0.hasPrefix("/p/") }
    let listed = (1...Self.pages).map { "/p/p\($0).html" }
    if perHost == 1 {
      #expect(pages == listed)
    } else {
      // Two at a time: nginx logs each at its end, so neighbours may swap, no more. The throttled
      // first pages are left out: while one of them still transfers, the other connection may serve
      // several fast pages (on a loaded machine the two throttled ends can be a second apart).
      #expect(Set(pages) == Set(listed))
      let fast = Array(listed.dropFirst(Self.throttled))
      for (position, page) in pages.filter(fast.contains).enumerated() {
        let index = fast.firstIndex(of: page) ?? -10
        #expect(abs(index - position) <= 1, "\(pages)")
      }
    }
    // The favicon is fetched with the first page, ahead of the pages not started yet (it was last).
    let favicon = log.firstIndex(of: "/favicon.ico") ?? log.count
    #expect(favicon <= 2 + 2 * perHost, "\(log)")
  }
}
