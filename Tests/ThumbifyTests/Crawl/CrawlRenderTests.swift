import Foundation
import Testing
import Thumbify
import ThumbifyFetchingTestSupport
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// `thumbify crawl --render` (issue 22) through the real binary, with Debian's Chromium and nginx on
/// loopback: app shells get the card their scripts build, server-rendered pages are not rendered,
/// a page whose script never yields keeps its static card with `renderFailed`, the browser killed
/// mid-crawl costs only the pages it was rendering, and a crawl killed with `kill -9` leaves no
/// browser behind.
@Suite("Crawls with --render", .serialized)
final class CrawlRenderTests {
  let nginx: LoopbackNginx
  let root: String
  static let staticPages = 4
  static let appPages = 6

  init() async throws {
    root = makeTemporaryDirectory("render")
    let www = root + "/www"
    for directory in ["static", "app"] {
      try FileManager.default.createDirectory(
        atPath: www + "/" + directory, withIntermediateDirectories: true)
    }
    try FileManager.default.copyItem(
      atPath: TestPaths.repository + "/samples/photos", toPath: www + "/photos")
    for index in 0..<Self.staticPages {
      try """
      <html><head><title>Static \(index)</title><meta name="description" content="Served \(index)">
      <meta property="og:image" content="/photos/storm.jpg"></head><body><div id="root"></div></body></html>
      """.write(toFile: www + "/static/\(index).html", atomically: true, encoding: .utf8)
    }
    // An app shell: a placeholder title, an empty mount point; its script works for 300 ms (so a
    // crawl has pages in the browser for a while), then fetches its card from a JSON endpoint.
    for index in 0..<Self.appPages {
      try """
      <!doctype html><html><head><title>React App</title></head><body>
      <noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div>
      <script src="/app.js"></script></body></html>
      """.write(toFile: www + "/app/\(index).html", atomically: true, encoding: .utf8)
      try #"{"title": "App \#(index)", "image": "/photos/greenmeadow.jpg"}"#
        .write(toFile: www + "/app/\(index).json", atomically: true, encoding: .utf8)
    }
    try """
    const started = Date.now();
    while (Date.now() - started < 300) {}
    fetch(location.pathname.replace('.html', '.json')).then(r => r.json()).then(page => {
      document.title = page.title;
      const meta = document.createElement('meta');
      meta.setAttribute('property', 'og:image');
      meta.setAttribute('content', page.image);
      document.head.appendChild(meta);
    });
    """.write(toFile: www + "/app.js", atomically: true, encoding: .utf8)
    try """
    <!doctype html><html><head><title>React App</title></head><body><div id="root"></div>
    <script>for (;;) {}</script></body></html>
    """.write(toFile: www + "/loop.html", atomically: true, encoding: .utf8)
    nginx = try await LoopbackNginx(docroot: URL(fileURLWithPath: www))
  }

  deinit {
    nginx.stop()
    removeDirectory(root)
  }

  /// Writes the list and starts the binary on it; its stderr goes to `<out>.log`.
  func start(_ out: String, paths: [String], _ extra: [String], environment: [String: String] = [:]) throws
    -> ChildProcess
  {
    let list = out + ".urls"
    try (paths.map(nginx.url).joined(separator: "\n") + "\n").write(
      toFile: list, atomically: true, encoding: .utf8)
    let process = thumbifyProcess(
      ["crawl", list, "--out", out, "--state", out + ".state", "--allow-private-network", "--quiet"] + extra,
      environment: environment)
    process.standardOutput = FileHandle.nullDevice
    _ = FileManager.default.createFile(atPath: out + ".log", contents: nil)
    process.standardError = FileHandle(forWritingAtPath: out + ".log")
    return try ChildProcess(process)
  }

  var staticPaths: [String] { (0..<Self.staticPages).map { "/static/\($0).html" } }
  var appPaths: [String] { (0..<Self.appPages).map { "/app/\($0).html" } }

  /// The Chromium processes `pid` started (the browser; its own children are in its process group).
  static func browsers(of pid: Int32) -> [Int32] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
    process.arguments = ["-P", "\(pid)"]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return [] }
    process.waitUntilExit()
    return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .split(separator: "\n").compactMap { Int32($0) }
  }

  /// Whether any process still runs with the profile directory of a browser `pid` started.
  static func browserProcessesLeft(of pid: Int32) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
    process.arguments = ["-f", "thumbify-chromium-\(pid)-"]
    process.standardOutput = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  @Test func autoRendersTheAppShellsOnlyAndEveryRequestIsThumbifys() async throws {
    let out = root + "/auto"
    let crawl = try start(
      out, paths: staticPaths + appPaths + ["/loop.html"], ["--render", "auto", "--render-timeout", "8s"])
    let status = await crawl.exitStatus()
    let log = (try? String(contentsOfFile: out + ".log", encoding: .utf8)) ?? ""
    #expect(status == 0, "\(log)")
    let records = try readManifest(out)
    #expect(records.count == Self.staticPages + Self.appPages + 1)
    for record in records where record.originalURL.contains("/static/") {
      #expect(record.render == nil && record.renderError == nil, "\(record.originalURL) was rendered")
      #expect(record.metadata?.title?.hasPrefix("Static") == true)
    }
    for (index, path) in appPaths.enumerated() {
      let record = try #require(records.first { $0.originalURL == nginx.url(path) })
      #expect(record.metadata?.title == "App \(index)")
      #expect(record.metadata?.image?.url == nginx.url("/photos/greenmeadow.jpg"))
      #expect(record.render == RenderFacts(reason: "appShell", fields: ["title", "image"]))
      // The rendered og:image was thumbnailed like any card image.
      #expect(record.image?.variants.isEmpty == false, "\(record.imageError?.message ?? "")")
    }
    let loop = try #require(records.first { $0.originalURL.hasSuffix("/loop.html") })
    #expect(loop.outcome == .ok)
    #expect(loop.metadata?.title == "React App", "the served page's card is kept")
    #expect(loop.renderError?.code == "renderFailed")
    #expect(loop.renderError?.stage == "render")
    // Chromium's own network use is nil: every request nginx saw came from thumbify's fetcher.
    let access = nginx.accessLog()
    #expect(access.contains { $0.contains("/app.js") })
    #expect(access.allSatisfy { $0.contains("thumbify") && !$0.contains("Chrome") }, "\(access)")
    // Images, fonts and the rest are not fetched for rendering; the photos are the crawl's own.
    #expect(Self.browserProcessesLeft(of: crawl.processIdentifier) == false)
  }

  @Test func withoutRenderNothingIsRendered() async throws {
    let out = root + "/never"
    #expect(try await start(out, paths: appPaths, []).exitStatus() == 0)
    for record in try readManifest(out) {
      #expect(record.render == nil && record.renderError == nil)
      #expect(record.metadata?.title == "React App")
    }
    #expect(!nginx.accessLog().contains { $0.contains("/app.js") })
  }

  @Test func alwaysRendersServerRenderedPagesToo() async throws {
    let out = root + "/always"
    #expect(try await start(out, paths: staticPaths, ["--render", "always"]).exitStatus() == 0)
    for record in try readManifest(out) {
      #expect(record.render == RenderFacts(reason: "always", fields: []), "\(record.originalURL)")
    }
  }

  @Test func aBrowserKilledMidCrawlCostsOnlyThePagesItWasRendering() async throws {
    let out = root + "/killed-browser"
    // The app pages twice over (distinct URLs): a dozen pages at 300 ms and more each, two at once.
    let paths = appPaths + appPaths.map { $0 + "?again" } + staticPaths
    let crawl = try start(out, paths: paths, ["--render", "auto", "--concurrency", "4"])
    var browser: Int32?
    for _ in 0..<200 where browser == nil {
      try await Task.sleep(for: .milliseconds(50))
      browser = Self.browsers(of: crawl.processIdentifier).first
    }
    let victim = try #require(browser, "no browser started")
    try await Task.sleep(for: .milliseconds(900))
    kill(victim, SIGKILL)
    let status = await crawl.exitStatus()
    #expect(status == 0, "\((try? String(contentsOfFile: out + ".log", encoding: .utf8)) ?? "")")
    let records = try readManifest(out)
    #expect(records.count == paths.count)
    let failed = records.filter { $0.renderError != nil }
    // At most the two tabs the browser had open; every other app page rendered in its successor.
    #expect(failed.count <= 2, "\(failed.map { "\($0.originalURL): \($0.renderError!.message)" })")
    #expect(failed.allSatisfy { $0.metadata?.title == "React App" && $0.outcome == .ok })
    let rendered = records.filter { $0.render != nil }
    #expect(rendered.count == paths.count - Self.staticPages - failed.count)
    #expect(rendered.allSatisfy { $0.metadata?.title?.hasPrefix("App ") == true })
    #expect(records.filter { $0.originalURL.contains("/static/") }.allSatisfy { $0.render == nil })
    #expect(Self.browserProcessesLeft(of: crawl.processIdentifier) == false)
  }

  @Test func aCrawlKilledWithSIGKILLLeavesNoBrowserBehind() async throws {
    let out = root + "/killed-crawl"
    let crawl = try start(out, paths: appPaths, ["--render", "always"])
    var browser: Int32?
    for _ in 0..<200 where browser == nil {
      try await Task.sleep(for: .milliseconds(50))
      browser = Self.browsers(of: crawl.processIdentifier).first
    }
    #expect(browser != nil, "no browser started")
    kill(crawl.processIdentifier, SIGKILL)
    _ = await crawl.exitStatus()
    // The kernel closes the command pipe; Chromium exits when it closes.
    var left = true
    for _ in 0..<100 where left {
      try await Task.sleep(for: .milliseconds(100))
      left = Self.browserProcessesLeft(of: crawl.processIdentifier)
    }
    #expect(!left, "Chromium outlived the killed crawl by 10 s")
  }

  /// `thumbify extract <url> --render auto`: the same step as the crawl's, in the printed preview.
  @Test func extractRendersAnAppShell() async throws {
    let process = thumbifyProcess([
      "extract", nginx.url("/app/1.html"), "--render", "auto", "--allow-private-network", "--compact",
    ])
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let child = try ChildProcess(process)
    let data = try await offThePool { output.fileHandleForReading.readDataToEndOfFile() }
    #expect(await child.exitStatus() == 0)
    let preview = try JSONDecoder().decode(LinkMetadataProvider.Preview.self, from: data)
    #expect(preview.metadata.title == "App 1")
    #expect(preview.render == RenderFacts(reason: "appShell", fields: ["title", "image"]))
    #expect(Self.browserProcessesLeft(of: child.processIdentifier) == false)
  }

  @Test func renderWithoutChromiumIsAClearFatalError() async throws {
    let out = root + "/no-browser"
    let crawl = try start(
      out, paths: appPaths, ["--render", "auto"],
      environment: ["THUMBIFY_CHROMIUM": root + "/no-such-chromium"])
    #expect(await crawl.exitStatus() == 70)
    let log = try String(contentsOfFile: out + ".log", encoding: .utf8)
    #expect(
      log.contains("Chromium is not installed: \(root)/no-such-chromium is not an executable file."), "\(log)"
    )
    #expect(log.contains("apt-get install chromium"), "\(log)")
    #expect(!FileManager.default.fileExists(atPath: out + "/manifest.jsonl"))
    #expect(nginx.accessLog().isEmpty, "nothing is fetched before the error")
  }
}
