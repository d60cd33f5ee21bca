import Foundation
import Testing
import ThumbifyFetching
import ThumbifyFetchingTestSupport
import ThumbifyRendering
import ThumbifySystemTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Pages that need JavaScript, rendered by real Chromium with every request fulfilled by a real
/// `CurlFetcher`, against nginx on loopback.
@Suite("Rendering pages in headless Chromium", .serialized)
struct ChromiumRendererTests {
  static let appShell = """
    <!doctype html><html><head><title>React App</title></head>
    <body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div>
    <script src="/app.js"></script></body></html>
    """
  static let appScript = """
    fetch('/page.json').then(r => r.json()).then(page => {
      document.title = page.title;
      for (const [property, content] of [['og:title', page.title], ['og:image', page.image]]) {
        const meta = document.createElement('meta');
        meta.setAttribute('property', property);
        meta.setAttribute('content', content);
        document.head.appendChild(meta);
      }
      document.getElementById('root').textContent = page.title;
    });
    """

  /// The budget of the tests that wait for a page's scripts: a 40 s deadline and a 2 s quiet period.
  /// The settle rule is measured in wall time (500 ms without a request); beside a compiling suite,
  /// with the load at 12 on two cores, the renderer process ran the app shell's `.then` after
  /// that, and the shell was read before its script filled it in. These tests check what is
  /// rendered, not how fast; the tests of deadlines set theirs.
  static var unhurriedBudget: RenderBudget {
    var budget = RenderBudget()
    budget.deadline = .seconds(40)
    budget.quietPeriod = .seconds(2)
    return budget
  }

  private func withRenderer<T>(
    allowsPrivateNetwork: Bool = true, budget: RenderBudget = Self.unhurriedBudget,
    _ body: (ChromiumRenderer, LoopbackNginx) async throws -> T
  ) async throws -> T {
    let nginx = try await LoopbackNginx()
    defer { nginx.stop() }
    let fetcher = try makeTestFetcher { $0.allowsPrivateNetwork = allowsPrivateNetwork }
    defer { fetcher.shutdown() }
    let renderer = ChromiumRenderer(
      executable: try ChromiumLauncher.executable(), fetcher: fetcher, budget: budget)
    defer { renderer.shutdown() }
    return try await body(renderer, nginx)
  }

  private func title(_ page: RenderedPage) -> String? {
    let html = String(decoding: page.html, as: UTF8.self)
    guard let start = html.range(of: "<title>"),
      let end = html.range(of: "</title>", range: start.upperBound..<html.endIndex)
    else { return nil }
    return String(html[start.upperBound..<end.lowerBound])
  }

  @Test func anAppShellIsFilledInByItsScriptAndItsJSON() async throws {
    try await withRenderer { renderer, nginx in
      try nginx.write("app.html", Self.appShell)
      try nginx.write("app.js", Self.appScript)
      try nginx.write("page.json", #"{"title": "Rendered title", "image": "/img/card.jpg"}"#)
      let page = try await renderer.render(nginx.url("/app.html"))
      #expect(title(page) == "Rendered title")
      let html = String(decoding: page.html, as: UTF8.self)
      #expect(html.contains(#"<meta property="og:title" content="Rendered title">"#))
      #expect(html.contains(#"<meta property="og:image" content="/img/card.jpg">"#))
      #expect(
        page.requests.filter { $0.refusal == nil }.map(\.url)
          == ["/app.html", "/app.js", "/page.json"].map(nginx.url))
      // Every request reached nginx through thumbify's fetcher (its User-Agent), none from Chromium.
      let log = nginx.accessLog()
      #expect(log.count == 3)
      #expect(log.allSatisfy { $0.contains("thumbify") && !$0.contains("Chrome") }, "\(log)")
    }
  }

  @Test func aScriptRedirectIsFollowed() async throws {
    try await withRenderer { renderer, nginx in
      try nginx.write("from.html", "<title>Moving</title><script>location.href = '/to.html'</script>")
      try nginx.write("to.html", "<title>Arrived</title>")
      let page = try await renderer.render(nginx.url("/from.html"))
      #expect(page.url == nginx.url("/to.html"))
      #expect(title(page) == "Arrived")
    }
  }

  @Test func aDialogIsDismissedAndTheScriptGoesOn() async throws {
    try await withRenderer { renderer, nginx in
      try nginx.write(
        "alert.html",
        "<title>Before</title><script>alert('hi'); confirm('sure?'); document.title = 'After'</script>")
      let page = try await renderer.render(nginx.url("/alert.html"))
      #expect(title(page) == "After")
    }
  }

  /// A script that never yields cannot be read: the render fails in its budget, and the next page
  /// renders as if nothing happened.
  @Test func aScriptThatLoopsForeverFailsInItsBudget() async throws {
    var budget = RenderBudget()
    budget.deadline = .seconds(3)
    try await withRenderer(budget: budget) { renderer, nginx in
      try nginx.write("loop.html", "<title>Loop</title><script>for (;;) {}</script>")
      try nginx.write("fine.html", "<title>Fine</title>")
      // (The browser is started first, so the bound below is the loop's alone: a start took over
      // 10 s on a loaded machine.)
      #expect(title(try await renderer.render(nginx.url("/fine.html"))) == "Fine")
      let start = ContinuousClock.now
      await #expect(throws: RenderError.self) { try await renderer.render(nginx.url("/loop.html")) }
      // 3 s of budget and 2 s to read the DOM; the rest is slack for a machine loaded enough to stall
      // a test for tens of seconds. A render that waited for the loop would never end.
      #expect(ContinuousClock.now - start < .seconds(120))
      #expect(title(try await renderer.render(nginx.url("/fine.html"))) == "Fine")
    }
  }

  /// A page still being parsed at the deadline (a script in its way never arrived) fails as timed
  /// out: its DOM is the served HTML cut short, without what the scripts after it would have done.
  @Test func aPageStillParsingAtTheDeadlineFailsInsteadOfGivingItsDOMCutShort() async throws {
    var budget = RenderBudget()
    budget.deadline = .seconds(3)
    let server = try await FaultServer()
    try await withRenderer(budget: budget) { renderer, nginx in
      // The tarpit's request starts 1.5 s in, after the first script, so it is still open at the
      // deadline (a request's own timeout is the page's deadline, counted from its start).
      try nginx.write(
        "blocked.html",
        """
        <title>Cut short</title><script src="\(server.url("/hold?ms=1500"))"></script>
        <script src="\(server.url("/tarpit"))"></script><script>document.title = 'Ran'</script>
        """)
      await #expect(throws: RenderError.timedOut(method: "Page.loadEventFired")) {
        try await renderer.render(nginx.url("/blocked.html"))
      }
    }
  }

  /// A page that opens 1,000 requests gets the budget's 200; the rest fail without reaching nginx.
  @Test func aThousandRequestsMeetTheRequestCap() async throws {
    var budget = RenderBudget()
    budget.maximumRequests = 50
    try await withRenderer(budget: budget) { renderer, nginx in
      try nginx.write("x.json", "{}")
      try nginx.write(
        "many.html",
        "<title>Many</title><script>for (let i = 0; i < 1000; i++) fetch('/x.json?' + i).catch(() => {})</script>"
      )
      let page = try await renderer.render(nginx.url("/many.html"))
      #expect(page.requests.filter { $0.refusal == nil }.count == 50)
      #expect(page.requests.filter { $0.refusal == "budget" }.count >= 900)
      #expect(nginx.accessLog().count == 50)
    }
  }

  /// With the SSRF guard on, a script's request to a private address is refused by the fetcher and
  /// never reaches the server (the page itself is handed over as already fetched).
  @Test func aRequestToADeniedAddressIsRefusedByTheGuard() async throws {
    try await withRenderer(allowsPrivateNetwork: false) { renderer, nginx in
      try nginx.write("secret.json", #"{"secret": true}"#)
      let url = "https://public.example/denied.html"
      let document = FetchResponse(
        requestedURL: url, finalURL: url, status: 200, contentType: "text/html",
        body: Array(
          "<title>Denied</title><script>fetch('\(nginx.url("/secret.json"))').catch(() => document.title = 'Refused')</script>"
            .utf8))
      let page = try await renderer.render(url, document: document)
      #expect(title(page) == "Refused")
      let secret = page.requests.first { $0.url == nginx.url("/secret.json") }
      #expect(secret?.refusal == "blockedPrivateAddress", "\(page.requests)")
      #expect(nginx.accessLog().isEmpty)
    }
  }

  @Test func imagesMediaStyleSheetsAndTheFaviconAreNotFetched() async throws {
    try await withRenderer { renderer, nginx in
      try nginx.write(
        "pic.html",
        "<title>Pic</title><link rel=stylesheet href=/s.css><img src=/a.png><video src=/v.mp4></video>")
      let page = try await renderer.render(nginx.url("/pic.html"))
      #expect(page.requests.filter { $0.refusal == "refusedType" }.map(\.url).contains(nginx.url("/a.png")))
      #expect(nginx.accessLog().count == 1, "\(page.requests) \(nginx.accessLog())")
    }
  }

  /// A browser killed between pages is started again for the next one.
  @Test func aCrashedBrowserIsRestarted() async throws {
    try await withRenderer { renderer, nginx in
      try nginx.write("one.html", "<title>One</title>")
      try nginx.write("two.html", "<title>Two</title>")
      #expect(title(try await renderer.render(nginx.url("/one.html"))) == "One")
      let first = try #require(renderer.browserProcessID)
      kill(first, SIGKILL)
      try await Task.sleep(for: .milliseconds(300))
      #expect(title(try await renderer.render(nginx.url("/two.html"))) == "Two")
      #expect(renderer.browserProcessID != first)
    }
  }

  /// A browser that stops answering (here: stopped with SIGSTOP) fails the page within its deadline
  /// and is replaced for the next page, not waited on by every page after it.
  @Test func aHungBrowserIsReplaced() async throws {
    var budget = RenderBudget()
    budget.deadline = .seconds(2)
    try await withRenderer(budget: budget) { renderer, nginx in
      try nginx.write("one.html", "<title>One</title>")
      try nginx.write("two.html", "<title>Two</title>")
      #expect(title(try await renderer.render(nginx.url("/one.html"))) == "One")
      let hung = try #require(renderer.browserProcessID)
      kill(hung, SIGSTOP)
      defer { kill(hung, SIGKILL) }
      let started = ContinuousClock.now
      await #expect(throws: RenderError.timedOut(method: "Target.createBrowserContext")) {
        try await renderer.render(nginx.url("/two.html"))
      }
      // The 2 s deadline; the rest is slack for a loaded machine (a browser waited on never answers).
      #expect(started.duration(to: .now) < .seconds(120), "not waited on until the test's limit")
      #expect(title(try await renderer.render(nginx.url("/two.html"))) == "Two")
      #expect(renderer.browserProcessID != hung)
    }
  }
}
