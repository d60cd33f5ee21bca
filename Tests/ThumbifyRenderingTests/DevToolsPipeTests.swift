import Foundation
import Testing
import ThumbifyRendering
import ThumbifySystemTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The DevTools pipe against Debian's real Chromium (installed by scripts/install-deps).
@Suite("DevTools pipe to headless Chromium")
struct DevToolsPipeTests {
  /// A browser on a fresh profile directory, removed afterwards.
  @discardableResult
  private func withBrowser<T>(
    arguments: (String) -> [String] = ChromiumLauncher.arguments(profile:),
    _ body: (DevToolsPipe) async throws -> T
  ) async throws -> T {
    let profile = FileManager.default.temporaryDirectory.appendingPathComponent("thumbify-chromium-\(UUID())")
      .path
    defer { try? FileManager.default.removeItem(atPath: profile) }
    let browser = try DevToolsPipe(
      executable: try ChromiumLauncher.executable(), arguments: arguments(profile))
    defer { browser.terminate() }
    return try await body(browser)
  }

  /// A tab in a browser context of its own, attached with a flat session.
  private func openTab(_ browser: DevToolsPipe) async throws -> String {
    let context = try await browser.send("Target.createBrowserContext", ["disposeOnDetach": .bool(true)])
    let target = try await browser.send(
      "Target.createTarget",
      ["url": .string("about:blank"), "browserContextId": context["browserContextId"] ?? .null])
    let attached = try await browser.send(
      "Target.attachToTarget", ["targetId": target["targetId"] ?? .null, "flatten": .bool(true)])
    return try #require(attached["sessionId"]?.stringValue)
  }

  @Test func theBrowserAnswersOverThePipe() async throws {
    try await withBrowser { browser in
      let version = try await browser.send("Browser.getVersion")
      #expect(version["product"]?.stringValue?.contains("Chrome") == true)
      #expect(version["protocolVersion"]?.stringValue?.isEmpty == false)
      // A session's command: evaluate in a fresh tab.
      let session = try await openTab(browser)
      let value = try await browser.send(
        "Runtime.evaluate", ["expression": .string("6 * 7"), "returnByValue": .bool(true)], session: session)
      #expect(value["result"]?["value"] == .number(42))
    }
  }

  @Test func anUnknownMethodIsAProtocolError() async throws {
    try await withBrowser { browser in
      await #expect(throws: RenderError.self) { try await browser.send("No.suchMethod") }
    }
  }

  /// Chromium's own network use is nil: navigating to a loopback server, by address and by name,
  /// reaches nothing (the dead proxy, loopback included, and no name resolves). The same
  /// navigation in a browser started without those flags does reach the server, so the count
  /// is no test that cannot fail.
  @Test func chromiumReachesNoNetworkOfItsOwn() async throws {
    let server = try await FaultServer()
    defer { server.stop() }
    try await withBrowser { browser in
      let session = try await openTab(browser)
      for url in [
        server.url("/hold?ms=1&bucket=isolated"), server.url(host: "localhost", "/hold?ms=1&bucket=isolated"),
      ] {
        let navigation = try await browser.send("Page.navigate", ["url": .string(url)], session: session)
        #expect(navigation["errorText"]?.stringValue?.isEmpty == false, "\(url)")
      }
    }
    #expect(try server.stats(bucket: "isolated").count == 0)

    let unisolated: (String) -> [String] = { profile in
      ChromiumLauncher.arguments(profile: profile).filter {
        !$0.hasPrefix("--proxy-") && !$0.hasPrefix("--host-resolver-rules")
      }
    }
    try await withBrowser(arguments: unisolated) { browser in
      let session = try await openTab(browser)
      _ = try await browser.send(
        "Page.navigate", ["url": .string(server.url("/hold?ms=1&bucket=open"))], session: session)
    }
    #expect(try server.stats(bucket: "open").count == 1)
  }

  /// A browser killed under a waiting command fails it (and every later one) with `browserExited`.
  @Test func aKilledBrowserFailsItsCommands() async throws {
    try await withBrowser { browser in
      try await browser.send("Browser.getVersion")
      kill(browser.processID, SIGKILL)
      let deadline = ContinuousClock.now + .seconds(10)
      while !browser.hasExited, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(20))
      }
      #expect(browser.hasExited)
      await #expect(throws: RenderError.browserExited) { try await browser.send("Browser.getVersion") }
    }
  }

  /// `terminate()` kills the whole process group: no Chromium process of it is left.
  @Test func terminateLeavesNoProcess() async throws {
    let group = try await withBrowser { browser -> pid_t in
      try await browser.send("Browser.getVersion")
      #expect(kill(-browser.processID, 0) == 0)
      browser.terminate()
      return browser.processID
    }
    // The group's other members (zygote, renderers) are reaped by init once the leader is gone.
    let deadline = ContinuousClock.now + .seconds(10)
    while kill(-group, 0) == 0, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(kill(-group, 0) != 0)
  }

  @Test func aMissingExecutableSaysWhatToInstall() {
    #expect(throws: RenderError.self) { try ChromiumLauncher.executable(path: "/nonexistent") }
    #expect(throws: RenderError.self) { try ChromiumLauncher.executable(explicit: "/nonexistent/chromium") }
  }
}
