import Foundation
import Testing
import Thumbify
import ThumbifyFetchingTestSupport
import ThumbifySystemTestSupport

@Suite("Public API: LinkMetadataProvider", .timeLimit(.minutes(5)), .dedicatedExecutor)
struct PublicLinkMetadataProviderTests {
  @Test func aURLGivesItsMetadata() async throws {
    // Given a loopback article with a card image, an icon, a video and a date
    let site = try await ArticleSite()
    let provider = try loopbackProvider()

    // When its metadata is read
    let metadata = try await provider.metadata(for: site.articleURL)

    // Then the LPLinkMetadata fields are there, the pictures' URLs resolved against the page
    #expect(metadata.title == "Storm season")
    #expect(metadata.summary == "Dark clouds over the motorway.")
    #expect(metadata.siteName == "Weather notes")
    #expect(metadata.url == site.articleURL)
    #expect(metadata.originalURL == site.articleURL)
    #expect(metadata.canonicalURL == nil)
    #expect(metadata.image?.url == site.nginx.url("/img/card.jpg"))
    #expect(metadata.image?.alt == "Clouds")
    #expect(metadata.image?.variants == [])
    #expect(metadata.icon?.url == site.nginx.url("/img/icon.jpg"))
    #expect(metadata.video?.url == "https://video.example/storm.mp4")
    // A file (its extension says so): LPLinkMetadata's remoteVideoURL.
    #expect(metadata.remoteVideoURL == URL(string: "https://video.example/storm.mp4"))
    #expect(metadata.embed == nil && metadata.videoProvider == nil && !metadata.needsRendering)
    #expect(metadata.publishedDate == Date(timeIntervalSince1970: 1_793_604_600))
    #expect(metadata.card.state == .ok)
  }

  /// Issue 35: a page's oEmbed endpoint fills the metadata; its player is an embed, not a remote file.
  @Test func anOEmbedPlayerIsTheEmbedAndTheVideoProvider() async throws {
    let server = try await FaultServer()
    let provider = try loopbackProvider()
    let metadata = try await provider.metadata(for: URL(string: server.url("/oembed-page?format=json"))!)
    #expect(metadata.title == "A video page")
    #expect(metadata.embed?.iframeURL == "https://127.0.0.1/embed/42")
    #expect(metadata.videoProvider == "Loopback Video")
    #expect(metadata.video?.kind == .player)
    #expect(metadata.remoteVideoURL == nil)
    #expect(metadata.image?.url == server.url("/thumb.jpg"))
  }

  @Test func theTimeoutOfOneCallEndsItAsTimedOut() async throws {
    // Given a provider with a 300 s timeout (far from the call's, even on a loaded machine) and a
    // route that never answers
    let server = try await FaultServer()
    let provider = try loopbackProvider(timeout: .seconds(300))
    let clock = ContinuousClock()
    let start = clock.now

    // When one call gives itself one second
    let error = await previewError { () async throws(LinkPreviewError) in
      try await provider.metadata(for: URL(string: server.url("/tarpit"))!, timeout: .seconds(1))
    }

    // Then it times out after about that second, as LinkPresentation's timedOut
    #expect(error?.code == .metadataFetchTimedOut)
    #expect(error?.causeCode == "timedOut")
    let elapsed = clock.now - start
    #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(120), "not the provider's 300 s: \(elapsed)")
  }

  @Test func cancelFromAnotherTaskEndsTheCallsInFlightOnly() async throws {
    // Given two calls in flight on a route that never answers
    let server = try await FaultServer()
    let provider = try loopbackProvider(timeout: .seconds(300))
    let first = testTask {
      await previewError { () async throws(LinkPreviewError) in
        try await provider.metadata(for: URL(string: server.url("/tarpit?image=first"))!)
      }
    }
    let second = testTask {
      await previewError { () async throws(LinkPreviewError) in
        try await provider.metadata(for: URL(string: server.url("/tarpit?image=second"))!)
      }
    }
    // Both requests are at the server (not a sleep: a loaded machine may take seconds to send them)
    try await waitUntil { try server.stats(bucket: "tarpit:first").count == 1 }
    try await waitUntil { try server.stats(bucket: "tarpit:second").count == 1 }
    let clock = ContinuousClock()
    let start = clock.now

    // When another task cancels the provider
    await testTask { provider.cancel() }.value

    // Then both end at once as LinkPresentation's cancelled, and the provider still works
    #expect(await first.value?.code == .metadataFetchCancelled)
    #expect(await second.value?.code == .metadataFetchCancelled)
    #expect(clock.now - start < .seconds(60), "long before the 300 s timeout")
    let page = try await provider.metadata(for: URL(string: server.url("/ok"))!)
    #expect(page.title == "ok")
  }

  @Test func aCancelledTaskEndsItsCallAsCancelled() async throws {
    let server = try await FaultServer()
    let provider = try loopbackProvider(timeout: .seconds(300))
    let call = testTask {
      await previewError { () async throws(LinkPreviewError) in
        try await provider.metadata(for: URL(string: server.url("/tarpit?image=call"))!)
      }
    }
    try await waitUntil { try server.stats(bucket: "tarpit:call").count == 1 }
    call.cancel()
    #expect(await call.value?.code == .metadataFetchCancelled)
  }

  @Test func cancellingOneCallersTaskEndsThatCallOnly() async throws {
    // Given two callers of one shared provider, each waiting on a tarpit (counted as it is reached)
    let server = try await FaultServer()
    let provider = try loopbackProvider(timeout: .seconds(300))
    let first = testTask {
      await previewError { () async throws(LinkPreviewError) in
        try await provider.metadata(for: URL(string: server.url("/tarpit?image=first"))!)
      }
    }
    let second = testTask {
      await previewError { () async throws(LinkPreviewError) in
        try await provider.metadata(
          for: URL(string: server.url("/tarpit?image=second"))!, timeout: .seconds(20))
      }
    }
    for _ in 0..<6_000 {
      if try server.stats(bucket: "tarpit:first").count == 1,
        try server.stats(bucket: "tarpit:second").count == 1
      {
        break
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(try server.stats(bucket: "tarpit:second").count == 1, "both calls are waiting on the tarpit")

    // When the first caller's task is cancelled
    first.cancel()

    // Then its call ends as cancelled, and the second call is not cancelled: it goes on to its own
    // timeout (with the provider's cancel() both would end as cancelled)
    let cancelled = await first.value
    #expect(cancelled?.code == .metadataFetchCancelled, "\(String(describing: cancelled))")
    let other = await second.value
    #expect(other?.code == .metadataFetchTimedOut, "\(String(describing: other))")
  }

  /// Issue 36: `LinkMetadata`'s JSON is the card JSON; a picture's size nothing has measured is absent
  /// (not 0), and its URL is a `URL` in the API.
  @Test func itsJSONIsACardWithUnknownSizesAbsent() async throws {
    // Given a page whose icon has no size hints
    let site = try await ArticleSite()
    let provider = try loopbackProvider()

    // When its metadata is read and encoded
    let metadata = try await provider.metadata(for: site.articleURL)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let json = try encoder.encode(metadata)

    // Then the pictures' URLs are URLs, the icon has no width or height, and the JSON is a valid card
    #expect(metadata.imageURL == URL(string: site.nginx.url("/img/card.jpg")))
    #expect(metadata.iconURL == URL(string: site.nginx.url("/img/icon.jpg")))
    #expect(metadata.icon?.width == nil && metadata.icon?.height == nil)
    let icon = (try JSONSerialization.jsonObject(with: json) as? [String: Any])?["icon"] as? [String: Any]
    #expect(icon?["url"] as? String == site.nginx.url("/img/icon.jpg"))
    #expect(icon?.keys.contains("width") == false && icon?.keys.contains("height") == false)
    let docs = try JSONSchemaValidator(directory: TestPaths.repository + "/docs")
    let errors = docs.errors(ofText: String(decoding: json, as: UTF8.self), against: "cards.schema.json")
    #expect(errors.isEmpty, "\(errors)")
    #expect(try JSONDecoder().decode(LinkMetadata.self, from: json).card == metadata.card)
  }

  @Test func aFailedFetchKeepsItsCause() async throws {
    let server = try await FaultServer()
    let provider = try loopbackProvider()
    let error = await previewError { () async throws(LinkPreviewError) in
      try await provider.metadata(for: URL(string: server.url("/status?code=404"))!)
    }
    #expect(error?.code == .metadataFetchFailed)
    #expect(error?.cause == .fetch(.httpStatus(404)))
    #expect(error?.causeCode == "httpStatus")
  }

  @Test func aURLThatIsNotHTTPFailsWithoutAFetch() async throws {
    let provider = try loopbackProvider()
    let error = await previewError { () async throws(LinkPreviewError) in
      try await provider.metadata(for: URL(string: "ftp://example.com/file")!)
    }
    #expect(error?.code == .metadataFetchFailed)
    #expect(error?.causeCode == "unsupportedScheme")
  }
}

/// Rendering through the provider, in a suite of its own for its longer time limit (the shortest
/// limit of a test's suites applies).
@Suite("Public API: LinkMetadataProvider renders", .timeLimit(.minutes(6)), .dedicatedExecutor)
struct PublicLinkMetadataProviderRenderTests {
  @Test func anAppShellIsRenderedWhenAsked() async throws {
    // Given an app shell whose script sets the title and the card image
    let nginx = try await LoopbackNginx()
    defer { nginx.stop() }
    try nginx.write(
      "app.html",
      """
      <!doctype html><html><head><title>React App</title></head><body><div id="root"></div>
      <script>document.title = 'Built by script';
      const meta = document.createElement('meta'); meta.setAttribute('property', 'og:image');
      meta.setAttribute('content', '/card.jpg'); document.head.appendChild(meta);</script></body></html>
      """)
    let url = try #require(URL(string: nginx.url("/app.html")))

    // When a provider that renders with `auto` and one that does not read it (a deadline for a
    // loaded machine: under the whole suite and three busy loops, 10 s once ended the page still
    // being parsed, which is `timedOut`, as it should be, but not what this test is about; 40 s did
    // at a load average of 14, a fresh-clone CI run beside five compiling engineers)
    var budget = RenderBudget()
    budget.deadline = .seconds(150)
    let rendered = try await loopbackProvider(timeout: .seconds(180), render: .auto, renderBudget: budget)
      .metadata(for: url)
    let served = try await loopbackProvider().metadata(for: url)

    // Then the rendering one has the script's card, the other the served placeholder
    #expect(rendered.renderError == nil)
    #expect(rendered.render?.reason == "noTitleOrImage" || rendered.render?.reason == "appShell")
    #expect(rendered.title == "Built by script", "\(String(describing: rendered.renderError))")
    #expect(rendered.image?.url == nginx.url("/card.jpg"))
    #expect(served.title == "React App")
    #expect(served.image == nil && served.render == nil && served.renderError == nil)
  }
}
