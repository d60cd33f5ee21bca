import Foundation
import Testing
import ThumbifyExtracting
import ThumbifyStore
import ThumbifyTestSupport

extension ChromiumTests {
  /// samples/frontend in headless Chromium: it must find cards under the same keys the crawl writes.
  @Suite("Frontend sample in Chromium", .timeLimit(.minutes(5)))
  struct FrontendSampleTests {
    static let sample = FrontendFixtures.samples + "/frontend"

    /// Spellings the crawl's normalization test covers; the page must normalize each the same way.
    static let spellings = [
      "HTTP://Example.COM", "http://example.com:80/a", "https://example.com:8443/",
      "http://example.com:0080/",
      "http://example.com/page#section", "http://example.com/?#frag", "  http://example.com/a  ",
      "http://example.com/a/./b/../c", "http://example.com/../../x", "http://example.com\\a\\b",
      "http://example.com/%7euser/%41", "http://example.com/a%2fb%2Fc", "http://example.com/a b",
      "http://example.com/caf\u{E9}", "http://example.com/caf%c3%a9", "http://example.com/100%",
      "http://example.com/s?q=a+b&x=%2f&y", "http://B\u{FC}cher.example/", "http://\u{4E2D}\u{6587}.com/",
      "http://[2001:DB8::1]/", "http://User:P%61ss@Example.com/", "http://127.1/", "http://x.example/a|b{c}",
    ]

    @Test func theSampleFindsACardByAnySpellingOfItsURLAndDrawsIt() async throws {
      let root = try FrontendFixtures.temporaryDirectory()
      let output = root + "/out"
      try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
      let records = try FrontendFixtures.records(in: output, count: 1)
      try CardWriter(outputDirectory: output).write(records: records)
      try FileManager.default.copyItem(atPath: Self.sample, toPath: root + "/frontend")
      let vectors = root + "/vectors.json"
      try JSONEncoder().encode(Self.spellings).write(to: URL(fileURLWithPath: vectors))
      let spelling =
        records[0].normalizedURL.replacingOccurrences(of: "https://", with: "HTTPS://") + "#fragment"

      let (status, result) = try await ReportBrowserTests().check([
        "frontend", root + "/frontend/index.html", "--serve", root, "--url", spelling, "--output", "../out/",
        "--vectors", vectors,
      ])

      #expect(status == 0, "\(result["failures"] ?? "")")
      let key = CardKey(normalizedURL: records[0].normalizedURL).hex
      #expect(result["keyLine"] as? String == "cards/\(key).json")
      #expect(result["title"] as? String == records[0].metadata?.title)
      #expect(result["imageLoaded"] as? Bool == true)
      let normalized = try #require(result["normalized"] as? [String])
      let keys = try #require(result["keys"] as? [String])
      for (index, spelling) in Self.spellings.enumerated() {
        let expected = try URLNormalization.normalize(spelling)
        #expect(normalized[index] == expected, "\(spelling)")
        #expect(keys[index] == CardKey(normalizedURL: expected).hex, "\(spelling)")
      }
    }

    /// Issue 35: a card with a video plays it on a click — the oEmbed iframe, sandboxed, else a
    /// `<video>` for a file — instead of following the link; the page's markup never is drawn.
    @Test(arguments: [true, false])
    func aPlayableCardShowsItsPlayerOnAClick(hasEmbed: Bool) async throws {
      let root = try FrontendFixtures.temporaryDirectory()
      let output = root + "/out"
      try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
      var records = try FrontendFixtures.records(in: output, count: 1)
      // Loopback addresses on a closed port: nothing leaves the machine, and the check removes the
      // player in the task that made it.
      records[0].metadata?.video = VideoCandidate(
        url: "http://127.0.0.1:9/v.mp4", type: "video/mp4", width: 640, height: 360, kind: .file)
      if hasEmbed {
        records[0].metadata?.embed = Embed(
          provider: "Loopback", type: "video", width: 640, height: 360,
          iframeURL: "https://127.0.0.1:9/embed/1")
      }
      try CardWriter(outputDirectory: output).write(records: records)
      try FileManager.default.copyItem(atPath: Self.sample, toPath: root + "/frontend")

      let (status, result) = try await ReportBrowserTests().check([
        "frontend", root + "/frontend/index.html", "--serve", root, "--url", records[0].normalizedURL,
        "--output",
        "../out/",
      ])

      #expect(status == 0, "\(result["failures"] ?? "")")
      let player = try #require(result["player"] as? [String: Any])
      if hasEmbed {
        #expect(player["tag"] as? String == "iframe")
        #expect(player["src"] as? String == "https://127.0.0.1:9/embed/1")
        #expect((player["sandbox"] as? String)?.contains("allow-scripts") == true)
      } else {
        #expect(player["tag"] as? String == "video")
        #expect(player["src"] as? String == "http://127.0.0.1:9/v.mp4")
      }
    }
  }
}
