import Dispatch
import Foundation
import Synchronization
import Testing
import Thumbify
import ThumbifyFetchingTestSupport
import ThumbifySystemTestSupport

@Suite("Public API: LinkMetadata's thumbnails", .timeLimit(.minutes(5)), .dedicatedExecutor)
struct PublicLinkMetadataThumbnailTests {
  @Test func theAccessorsFetchDecodeAndResize() async throws {
    // Given the metadata of a page with an 800×400 image and a 96×96 icon
    let site = try await ArticleSite()
    let provider = try loopbackProvider()
    let metadata = try await provider.metadata(for: site.articleURL)

    // When its thumbnails are asked for
    let image = try await metadata.imageThumbnails([.card, .card2x])
    let icon = try await metadata.iconThumbnail()

    // Then each variant is encoded at its size, with the source's size, placeholder and colour
    #expect(image.source == site.nginx.url("/img/card.jpg"))
    #expect(image.width == 800 && image.height == 400)
    #expect(image.variants.map(\.name) == ["card", "card2x"])
    // `card` is 600 wide: the 2:1 image becomes 600×300; `card2x` never upscales past 800×400.
    #expect(image.variants.map(\.width) == [600, 800])
    #expect(image.variants.map(\.height) == [300, 400])
    // The source is a JPEG: `card2x` keeps it JPEG (keep-jpeg), `card` is WebP.
    #expect(image.variants.map(\.format) == [.webp, .jpeg])
    #expect(Array(image.variants[0].bytes.prefix(4)) == Array("RIFF".utf8))
    #expect(Array(image.variants[1].bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
    #expect(!image.placeholder.isEmpty)
    #expect(image.color.hasPrefix("#") && image.color.count == 7)
    #expect(icon.name == "icon" && icon.width == 64 && icon.height == 64 && icon.format == .webp)
    #expect(Array(icon.bytes.prefix(4)) == Array("RIFF".utf8))
  }

  @Test func metadataWithoutAnImageSaysSo() async throws {
    let server = try await FaultServer()
    let provider = try loopbackProvider()
    let metadata = try await provider.metadata(for: URL(string: server.url("/ok"))!)
    let error = await previewError { () async throws(LinkPreviewError) in try await metadata.imageThumbnails()
    }
    #expect(error?.cause == .noImage)
  }

  @Test func aDecodedCardNeedsAProviderForItsPixels() async throws {
    let site = try await ArticleSite()
    let provider = try loopbackProvider()
    let fetched = try await provider.metadata(for: site.articleURL)
    let archived = try JSONDecoder().decode(LinkMetadata.self, from: JSONEncoder().encode(fetched))
    let error = await previewError { () async throws(LinkPreviewError) in try await archived.imageThumbnails()
    }
    #expect(error?.cause == .noImage)
    let thumbnails = try await provider.attached(archived).imageThumbnails([.card])
    #expect(thumbnails.variants.first?.width == 600)
  }

  /// A server's request handlers run on the cooperative pool: the thumbnail accessors must not need
  /// a thread of it. Every cooperative thread is blocked here until the thumbnails have come.
  ///
  /// In a child process (an exit test): blocking the pool of the test process itself stalled every
  /// other test running beside it for as long as this one took (a loaded CI machine: 100 s), and
  /// their deadlines measured the stall.
  @Test func theThumbnailsComeWhileEveryCooperativeThreadIsBlocked() async {
    await #expect(processExitsWith: .success) {
      do {
        // On an executor of its own, as the suite's tests: the body blocks the pool it would run on.
        try await withTaskExecutorPreference(SerialQueueExecutor(label: "thumbify.test.exit")) {
          try await PublicLinkMetadataThumbnailTests.thumbnailsWithThePoolBlocked()
        }
      } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(EXIT_FAILURE)
      }
    }
  }

  /// The exit test's body: throws unless the thumbnails came before the watchdog let the pool go.
  static func thumbnailsWithThePoolBlocked() async throws {
    // Given a page's metadata, read before the pool is blocked
    let site = try await ArticleSite()
    let provider = try loopbackProvider(cpuPool: CPUPool(width: 2))
    let metadata = try await provider.metadata(for: site.articleURL)

    // And every thread of the cooperative pool blocked on a semaphore
    let blockers = CooperativePoolBlockers()
    defer { blockers.release() }
    try await blockers.saturate()

    // When the thumbnails are made (on the exit test's own executor)
    let image = try await metadata.imageThumbnails([.card])
    let icon = try await metadata.iconThumbnail()

    // Then they came before the watchdog let the pool go (code that needs a cooperative thread
    // would have waited for it)
    guard image.variants.first?.width == 600, icon.width == 64 else {
      throw ServerError("wrong thumbnails: \(image.variants.map(\.width)), icon \(icon.width)")
    }
    guard !blockers.wasReleasedByWatchdog else {
      throw ServerError("the thumbnails needed a cooperative thread: they came only after the watchdog")
    }
  }
}

/// Tasks that block the cooperative pool's threads until `release()`.
final class CooperativePoolBlockers: Sendable {
  private let gate = DispatchSemaphore(value: 0)
  private let started = Atomic<Int>(0)
  private let spawned = Atomic<Int>(0)
  private let watchdogFired = Atomic<Bool>(false)

  /// Starts blocking tasks until one does not start within a second: every thread is then blocked.
  ///
  /// A watchdog releases them after 30 s, so that code which does need the pool fails the test
  /// (`wasReleasedByWatchdog`) instead of hanging it: with the pool blocked, not even the test's
  /// time limit can fire. (Whether a blocker is still waiting says nothing on a loaded machine: one
  /// that took longer than the second to start may start later.)
  func saturate() async throws {
    DispatchQueue.global().asyncAfter(deadline: .now() + 30) { [self] in
      watchdogFired.store(true, ordering: .releasing)
      release()
    }
    for _ in 0..<64 {
      let before = started.load(ordering: .acquiring)
      spawned.add(1, ordering: .relaxed)
      Task.detached { [self] in
        started.add(1, ordering: .releasing)
        gate.wait()
      }
      // Waited for off the pool (the pool may already be full).
      let isRunning = try await offThePool { [self] in
        let deadline = Date().addingTimeInterval(1)
        while Date() < deadline {
          if started.load(ordering: .acquiring) > before { return true }
          usleep(1_000)
        }
        return false
      }
      if !isRunning { return }
    }
    throw ServerError("64 blocking tasks all started: the cooperative pool was never full")
  }

  /// Whether the watchdog, not the test, let the blocked threads go.
  var wasReleasedByWatchdog: Bool { watchdogFired.load(ordering: .acquiring) }

  func release() {
    for _ in 0..<spawned.load(ordering: .acquiring) { gate.signal() }
  }
}
