import Foundation
import Synchronization
import ThumbifyExtracting
import ThumbifyFetching
import ThumbifySystem

/// What one page may cost the renderer (docs/rendering.md, "Budget").
public struct RenderBudget: Sendable, Equatable {
  /// Navigation, scripts and the network settling, in all.
  public var deadline: Duration = .seconds(10)
  /// The network is settled once the load event fired and no request was open for this long.
  public var quietPeriod: Duration = .milliseconds(500)
  /// Requests the page may make (the document included); later ones fail.
  public var maximumRequests = 200
  /// Response bytes the page may receive in all; a response past it fails.
  public var maximumBytes = 8 << 20
  /// The resource types fetched: documents, scripts and what scripts ask for. Everything else —
  /// images, media, fonts, style sheets, the favicon, pings, manifests — fails unfetched:
  /// metadata needs none of it.
  public var fetchedTypes: Set<String> = ["Document", "Script", "XHR", "Fetch"]

  /// The default budget (`thumbify crawl --render`'s).
  public init() {}
}

/// A rendered page: its DOM serialized after scripts ran, and what its requests met.
package struct RenderedPage: Sendable {
  /// `document.documentElement.outerHTML`, as UTF-8.
  package var html: [UInt8]
  /// `document.URL` at the end (a script's `location.href = …` shows here).
  package var url: String
  /// Every request the page made, in order, with what became of it.
  package var requests: [Request]

  package struct Request: Sendable, Equatable {
    package var url: String
    package var resourceType: String
    /// `nil` when it was fulfilled; else why it failed (`refusedType`, `budget`, `method`, or the
    /// fetcher's `FetchError.code`).
    package var refusal: String?
  }
}

/// Renders pages in one headless Chromium: each page in a fresh browser context (no cookies or
/// storage shared), every request it makes paused (`Fetch.enable`) and fulfilled by thumbify's
/// `Fetching` — with its SSRF guard, robots.txt, per-host queues, size caps and timeouts — or failed.
/// The browser itself can reach no network (`ChromiumLauncher`). It is restarted when it exits, and
/// after `pagesPerBrowser` pages.
package final class ChromiumRenderer: PageRendering {
  private let executable: String
  private let fetcher: any Fetching
  private let budget: RenderBudget
  private let pagesPerBrowser: Int
  /// At most this many pages rendered at once (tabs), the others waiting in order.
  private let tabs: AsyncSemaphore
  private let browser = Mutex<BrowserInstance?>(nil)

  /// One browser process, its profile directory, and where its sessions' events go.
  private final class BrowserInstance: Sendable {
    let pipe: DevToolsPipe
    let profile: String
    let routes: EventRoutes
    let pagesStarted = Atomic<Int>(0)
    /// Set once the browser answered its first command: until then a slow start (seconds on a
    /// loaded machine) is not yet a hang.
    let hasAnswered = Atomic<Bool>(false)

    init(executable: String) throws(RenderError) {
      profile =
        FilePath(NSTemporaryDirectory()).appending("thumbify-chromium-\(getpid())-\(UUID().uuidString)")
        .string
      let routes = EventRoutes()
      self.routes = routes
      pipe = try DevToolsPipe(executable: executable, arguments: ChromiumLauncher.arguments(profile: profile))
      {
        routes.deliver($0)
      }
    }

    func terminate() {
      pipe.terminate()
      try? FileManager.default.removeItem(atPath: profile)
      routes.finishAll()
    }
  }

  /// Each session's event stream, fed from the pipe's reader thread.
  private final class EventRoutes: Sendable {
    private let table = Mutex<[String: AsyncStream<DevToolsPipe.Event>.Continuation]>([:])

    func deliver(_ event: DevToolsPipe.Event) {
      guard let session = event.sessionID else { return }
      _ = table.withLock { $0[session] }?.yield(event)
    }

    func events(of session: String) -> AsyncStream<DevToolsPipe.Event> {
      let (stream, continuation) = AsyncStream<DevToolsPipe.Event>.makeStream()
      table.withLock { $0[session] = continuation }
      return stream
    }

    func close(_ session: String) {
      table.withLock { $0.removeValue(forKey: session) }?.finish()
    }

    func finishAll() {
      let all = table.withLock { table in
        defer { table.removeAll() }
        return Array(table.values)
      }
      for continuation in all { continuation.finish() }
    }
  }

  package init(
    executable: String, fetcher: any Fetching, budget: RenderBudget = RenderBudget(), tabs: Int = 2,
    pagesPerBrowser: Int = 200
  ) {
    self.executable = executable
    self.fetcher = fetcher
    self.budget = budget
    self.tabs = AsyncSemaphore(width: tabs)
    self.pagesPerBrowser = max(1, pagesPerBrowser)
  }

  deinit { shutdown() }

  /// How long a browser just started may take to answer its first command.
  static let startAllowance: Duration = .seconds(30)

  /// The running browser's process ID, if one runs (tests kill it).
  package var browserProcessID: pid_t? { browser.withLock { $0?.pipe.processID } }

  /// Kills the browser (and its process group) and removes its profile.
  package func shutdown() {
    browser.withLock { instance in
      defer { instance = nil }
      return instance
    }?.terminate()
  }

  /// The running browser, started (or restarted) when there is none, it exited, or it rendered its
  /// share of pages.
  private func runningBrowser() throws(RenderError) -> BrowserInstance {
    var retired: BrowserInstance?
    defer { retired?.terminate() }
    return try browser.withLock { (instance: inout BrowserInstance?) throws(RenderError) -> BrowserInstance in
      if let current = instance, !current.pipe.hasExited,
        current.pagesStarted.load(ordering: .relaxed) < pagesPerBrowser
      {
        current.pagesStarted.add(1, ordering: .relaxed)
        return current
      }
      retired = instance
      let fresh = try BrowserInstance(executable: executable)
      fresh.pagesStarted.add(1, ordering: .relaxed)
      instance = fresh
      return fresh
    }
  }

  /// Renders `url`. When the crawl already fetched the page, `document` is served for it instead
  /// of fetching it again.
  package func render(_ url: String, document: FetchResponse? = nil) async throws(RenderError) -> RenderedPage
  {
    guard await tabs.acquire() else { throw .cancelled }
    defer { tabs.release() }
    var isRetry = false
    while true {
      let instance = try runningBrowser()
      do {
        return try await render(url, document: document, in: instance)
      } catch {
        // A browser command (not a page's) that got no answer in the page's deadline: the browser
        // itself hangs, so the next page starts a new one instead of waiting on it too.
        if case .timedOut(let method) = error, method.hasPrefix("Target.") || method.hasPrefix("Browser.") {
          retire(instance)
        }
        // A browser that died before or during this page (killed, crashed by an earlier page) may
        // not have been noticed yet when the page took it (the pipe's reader sees the end a moment
        // later: seen on a loaded machine). The page is tried once more in a fresh browser; a page
        // that kills its browser costs two browsers, never more.
        if error == .browserExited, !isRetry {
          retire(instance)
          isRetry = true
          continue
        }
        throw error
      }
    }
  }

  /// Stops `instance` and, when it is still the running browser, forgets it.
  private func retire(_ instance: BrowserInstance) {
    browser.withLock { current in
      if current === instance { current = nil }
    }
    instance.terminate()
  }

  private func render(_ url: String, document: FetchResponse?, in instance: BrowserInstance)
    async throws(RenderError) -> RenderedPage
  {
    let pipe = instance.pipe
    if !instance.hasAnswered.load(ordering: .acquiring) {
      // A browser just started answers when it has started: up to `startAllowance`, not the page's
      // deadline (a 2 s deadline retired every fresh browser on a loaded machine).
      try await pipe.send("Browser.getVersion", timeout: max(budget.deadline, Self.startAllowance))
      instance.hasAnswered.store(true, ordering: .releasing)
    }
    // Setting a page up takes milliseconds; no answer within the page's whole deadline is a hang.
    let wait = budget.deadline
    let context = try await pipe.send(
      "Target.createBrowserContext", ["disposeOnDetach": .bool(true)], timeout: wait)
    guard let contextID = context["browserContextId"]?.stringValue else {
      throw .protocolError(method: "Target.createBrowserContext", message: "no browserContextId")
    }
    defer {
      Task { try? await pipe.send("Target.disposeBrowserContext", ["browserContextId": .string(contextID)]) }
    }
    try await pipe.send(
      "Browser.setDownloadBehavior", ["behavior": .string("deny"), "browserContextId": .string(contextID)],
      timeout: wait)
    let target = try await pipe.send(
      "Target.createTarget", ["url": .string("about:blank"), "browserContextId": .string(contextID)],
      timeout: wait)
    let attached = try await pipe.send(
      "Target.attachToTarget", ["targetId": target["targetId"] ?? .null, "flatten": .bool(true)],
      timeout: wait)
    guard let session = attached["sessionId"]?.stringValue else {
      throw .protocolError(method: "Target.attachToTarget", message: "no sessionId")
    }
    let events = instance.routes.events(of: session)
    defer { instance.routes.close(session) }
    let page = PageSession(
      pipe: pipe, session: session, fetcher: fetcher, budget: budget,
      fetched: document.map { Dictionary([(url, $0), ($0.finalURL, $0)]) { first, _ in first } } ?? [:])
    try await pipe.send(
      "Fetch.enable", ["patterns": .array([.object(["urlPattern": .string("*")])])], session: session)
    try await pipe.send("Page.enable", session: session)
    // The browser's own "networkIdle" (no request for 500 ms, by its clock): events reach us late on
    // a loaded machine, so our quiet period alone once read a page before its script's fetch().
    try await pipe.send("Page.setLifecycleEventsEnabled", ["enabled": .bool(true)], session: session)
    // No popups: `window.open` opens nothing (dialogs are dismissed as they open, below).
    try await pipe.send(
      "Page.addScriptToEvaluateOnNewDocument", ["source": .string("window.open = () => null;")],
      session: session)
    return try await page.run(url, events: events)
  }
}

/// One page being rendered: the event loop that fulfils its requests and tells when it settled.
private final class PageSession: Sendable {
  let pipe: DevToolsPipe
  let session: String
  let fetcher: any Fetching
  let budget: RenderBudget
  let state: Mutex<State>

  struct State {
    var requests: [RenderedPage.Request] = []
    var bytes = 0
    var open = 0
    var loaded = false
    /// The frames whose document the browser last called network-idle (`Page.lifecycleEvent`).
    var idleFrames: Set<String> = []
    /// The navigated page's frame, from `Page.navigate`'s answer.
    var mainFrame: String?
    var lastActivity = ContinuousClock.now
    /// Bodies already fetched, by the URL asked for and the URL redirected to: the page the crawl
    /// handed over, and a redirect answered with its target's body next.
    var fetched: [String: FetchResponse]
  }

  init(
    pipe: DevToolsPipe, session: String, fetcher: any Fetching, budget: RenderBudget,
    fetched: [String: FetchResponse]
  ) {
    self.pipe = pipe
    self.session = session
    self.fetcher = fetcher
    self.budget = budget
    state = Mutex(State(fetched: fetched))
  }

  func run(_ url: String, events: AsyncStream<DevToolsPipe.Event>) async throws(RenderError) -> RenderedPage {
    let start = ContinuousClock.now
    let deadline = start + budget.deadline
    let loop = Task { await handle(events) }
    defer { loop.cancel() }
    let navigation = try await pipe.send(
      "Page.navigate", ["url": .string(url)], session: session, timeout: budget.deadline)
    if let error = navigation["errorText"]?.stringValue, !error.isEmpty {
      throw .protocolError(method: "Page.navigate", message: error)
    }
    let mainFrame = navigation["frameId"]?.stringValue
    state.withLock { $0.mainFrame = mainFrame }
    while true {
      // Settled: loaded, idle by the browser's clock, and no request open for the quiet period by
      // ours; or the deadline.
      while ContinuousClock.now < deadline {
        let settled = state.withLock { state in
          state.loaded && state.mainFrame.map(state.idleFrames.contains) == true && state.open == 0
            && ContinuousClock.now - state.lastActivity >= budget.quietPeriod
        }
        if settled { break }
        try? await Task.sleep(for: .milliseconds(50))
      }
      let (finalURL, readyState, html) = try await snapshot(deadline: deadline)
      // The events say "loaded" for about:blank too, when its load event comes late (seen on a
      // loaded machine: the DOM was read before the page's own document had arrived). Only the
      // navigated document, complete, is the rendered page; until the deadline, look again.
      if readyState == "complete" && finalURL != "about:blank" {
        return RenderedPage(html: Array(html.utf8), url: finalURL, requests: state.withLock { $0.requests })
      }
      if ContinuousClock.now >= deadline {
        // Past the deadline the DOM is taken as it is once parsed ("interactive": its scripts ran,
        // a subresource is late), unless the page's document never came, or is still being parsed:
        // then the scripts after the parser's position have not run, and the DOM is the served
        // HTML cut short (seen on a loaded machine: an app shell's inline script had not run).
        guard finalURL != "about:blank" else { throw .timedOut(method: "Page.navigate") }
        guard readyState != "loading" else { throw .timedOut(method: "Page.loadEventFired") }
        return RenderedPage(html: Array(html.utf8), url: finalURL, requests: state.withLock { $0.requests })
      }
      try? await Task.sleep(for: .milliseconds(100))
    }
  }

  /// The document as it is now: its URL, its `readyState`, and its markup.
  private func snapshot(deadline: ContinuousClock.Instant) async throws(RenderError) -> (
    String, String, String
  ) {
    // A page whose script never yields cannot be read: its evaluation times out. It gets what is
    // left of the deadline, but at least 2 s: on a loaded machine a settled page's renderer can
    // take over a second to answer.
    let wait = max(.seconds(2), deadline - ContinuousClock.now)
    let snapshot = try await pipe.send(
      "Runtime.evaluate",
      [
        "expression": .string(
          "[document.URL, document.readyState, document.documentElement ? document.documentElement.outerHTML : '']"
        ),
        "returnByValue": .bool(true),
      ], session: session, timeout: wait)
    guard case .array(let parts) = snapshot["result"]?["value"], parts.count == 3,
      let finalURL = parts[0].stringValue, let readyState = parts[1].stringValue,
      let html = parts[2].stringValue
    else { throw .protocolError(method: "Runtime.evaluate", message: "no document") }
    return (finalURL, readyState, html)
  }

  private func handle(_ events: AsyncStream<DevToolsPipe.Event>) async {
    await withTaskGroup(of: Void.self) { group in
      for await event in events {
        switch event.method {
        case "Fetch.requestPaused":
          state.withLock { state in
            state.open += 1
            state.lastActivity = .now
          }
          group.addTask { await self.answer(event.params) }
        case "Page.loadEventFired":
          state.withLock { state in
            state.loaded = true
            state.lastActivity = .now
          }
        case "Page.frameStartedLoading":
          state.withLock { state in
            state.loaded = false
            if let frame = event.params["frameId"]?.stringValue { state.idleFrames.remove(frame) }
          }
        case "Page.lifecycleEvent":
          guard let frame = event.params["frameId"]?.stringValue, let name = event.params["name"]?.stringValue
          else { break }
          state.withLock { state in
            // "init" starts a new document in the frame: its idleness is to be seen again.
            if name == "networkIdle" {
              state.idleFrames.insert(frame)
            } else if name == "init" {
              state.idleFrames.remove(frame)
            }
          }
        case "Page.javascriptDialogOpening":
          group.addTask {
            _ = try? await self.pipe.send(
              "Page.handleJavaScriptDialog", ["accept": .bool(false)], session: self.session)
          }
        default:
          break
        }
      }
    }
  }

  /// Fulfils or fails one paused request.
  private func answer(_ params: JSONValue) async {
    defer {
      state.withLock { state in
        state.open -= 1
        state.lastActivity = .now
      }
    }
    guard let requestID = params["requestId"]?.stringValue, let url = params["request"]?["url"]?.stringValue
    else {
      return
    }
    let type = params["resourceType"]?.stringValue ?? "Other"
    let method = params["request"]?["method"]?.stringValue ?? "GET"
    let refusal: String? = state.withLock { state in
      let refusal: String?
      if !budget.fetchedTypes.contains(type) {
        refusal = "refusedType"
      } else if method != "GET" {
        refusal = "method"
      } else if state.requests.count >= budget.maximumRequests || state.bytes >= budget.maximumBytes {
        refusal = "budget"
      } else {
        refusal = nil
      }
      state.requests.append(RenderedPage.Request(url: url, resourceType: type, refusal: refusal))
      return refusal
    }
    if refusal != nil { return await fail(requestID, "BlockedByClient") }
    let response: FetchResponse
    if let known = state.withLock({ $0.fetched[url] }) {
      response = known
    } else {
      do {
        response = try await fetcher.fetch(
          FetchRequest(url: url, kind: type == "Document" ? .page : .subresource, timeout: budget.deadline))
      } catch {
        state.withLock { state in
          if let index = state.requests.lastIndex(where: { $0.url == url && $0.refusal == nil }) {
            state.requests[index].refusal = error.code
          }
        }
        return await fail(requestID, error.family == .timedOut ? "TimedOut" : "Failed")
      }
    }
    let overBudget = state.withLock { state -> Bool in
      state.bytes += response.body.count
      state.fetched[response.finalURL] = response
      return state.bytes > budget.maximumBytes
    }
    if overBudget { return await fail(requestID, "BlockedByClient") }
    if response.finalURL != url {
      // The fetcher followed redirects: the browser is sent there too, so that the document's URL
      // (and every relative URL in it) is the final one; the body is served from `fetched`.
      return await fulfil(requestID, status: 302, headers: [("Location", response.finalURL)], body: [])
    }
    var headers: [(String, String)] = []
    if let type = response.contentType { headers.append(("Content-Type", type)) }
    await fulfil(requestID, status: response.status, headers: headers, body: response.body)
  }

  private func fulfil(_ requestID: String, status: Int, headers: [(String, String)], body: [UInt8]) async {
    let headerValues = headers.map { JSONValue.object(["name": .string($0.0), "value": .string($0.1)]) }
    _ = try? await pipe.send(
      "Fetch.fulfillRequest",
      [
        "requestId": .string(requestID), "responseCode": .number(Double(status)),
        "responseHeaders": .array(headerValues), "body": .string(Data(body).base64EncodedString()),
      ], session: session)
  }

  private func fail(_ requestID: String, _ reason: String) async {
    _ = try? await pipe.send(
      "Fetch.failRequest", ["requestId": .string(requestID), "errorReason": .string(reason)], session: session
    )
  }
}
