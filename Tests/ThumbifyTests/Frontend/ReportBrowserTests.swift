import Foundation
import Testing
import Thumbify
import ThumbifyStore
import ThumbifySystemTestSupport
import ThumbifyTestSupport

extension ChromiumTests {
  /// `thumbify report` pages opened in headless Chromium (Debian's `chromium`, driven over the
  /// DevTools protocol by Tests/Browser/check_report.py).
  @Suite("Report in Chromium", .timeLimit(.minutes(6)))
  struct ReportBrowserTests {
    /// Runs the driver and returns its exit status and JSON report.
    func check(_ arguments: [String]) async throws -> (status: Int32, result: [String: Any]) {
      let output = NSTemporaryDirectory() + "thumbify-driver-\(UUID().uuidString).json"
      #expect(FileManager.default.createFile(atPath: output, contents: nil))
      defer { try? FileManager.default.removeItem(atPath: output) }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["python3", FrontendFixtures.browserDriver] + arguments
      process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
      let status = try await ChildProcess.run(process)
      let data = try Data(contentsOf: URL(fileURLWithPath: output))
      let result = try #require(
        try JSONSerialization.jsonObject(with: data) as? [String: Any], "driver printed no JSON")
      return (status, result)
    }

    /// A crawl output directory (records, real WebP blobs, cards) and its report page.
    func crawlOutput(hostile: Bool = false, reportPath: String? = nil) throws -> (
      directory: String, page: String
    ) {
      let directory = try FrontendFixtures.temporaryDirectory()
      let records =
        hostile
        ? try FrontendFixtures.hostileRecords(in: directory)
        : try FrontendFixtures.records(in: directory, count: 10)
      try FrontendFixtures.writeManifest(records, in: directory)
      try CardWriter(outputDirectory: directory).writeFromManifest()
      let writer = ReportWriter(outputDirectory: directory, reportPath: reportPath)
      try writer.write()
      return (directory, writer.reportPath)
    }

    @Test func everyCardRendersWithLoadedImagesAndNoConsoleErrors() async throws {
      let (_, page) = try crawlOutput()
      let (status, result) = try await check(["render", page])
      #expect(status == 0, "\(result["failures"] ?? "")")
      #expect(result["cards"] as? Int == 10)
      #expect(result["stale"] as? Int == 2)
      #expect(result["failed"] as? Int == 2)
      #expect(result["staleWithError"] as? Int == 2)
      #expect(result["failedWithError"] as? Int == 2)
      #expect(result["videoBadges"] as? Int == 2)
      let images = try #require(result["images"] as? Int)
      #expect(images == 16)  // 8 card images + 8 icons
      #expect(result["imagesLoaded"] as? Int == images)
      #expect(result["imagesWithoutSize"] as? Int == 0)
      #expect(result["placeholders"] as? Int == 8)
      #expect(result["placeholdersDrawn"] as? Int == 8)
      #expect((result["problems"] as? [Any])?.isEmpty == true)
    }

    @Test func servedOverHTTPFromElsewhereAtTwiceTheDensityItPicksThe2xVariant() async throws {
      let root = try FrontendFixtures.temporaryDirectory()
      let (directory, page) = try crawlOutput(reportPath: root + "/site/report.html")
      // Serve a root above both the page and the output directory.
      let common = (root as NSString).deletingLastPathComponent
      #expect(directory.hasPrefix(common))
      let (status, result) = try await check(["render", page, "--serve", common, "--scale", "2"])
      #expect(status == 0, "\(result["failures"] ?? "")")
      let boxes = try #require(result["mediaBoxes"] as? [[String: Any]])
      #expect(boxes.count == 8)
      for box in boxes {
        // Blob names: `srcset` holds relative paths, `currentSrc` the resolved URL.
        let candidates = (box["srcset"] as? String ?? "").split(separator: ",").map {
          $0.split(separator: " ").first.map { ($0 as NSString).lastPathComponent } ?? ""
        }
        let current = ((box["currentSrc"] as? String ?? "") as NSString).lastPathComponent
        #expect(candidates.count == 2)
        #expect(current == candidates.last, "\(box)")
        #expect(box["loaded"] as? Bool == true)
        #expect((box["height"] as? Double ?? 0) > 100)  // space reserved from the image's size
      }
    }

    @Test func hostileMetadataRendersAsTextAndNoInjectedScriptRuns() async throws {
      let (_, page) = try crawlOutput(hostile: true)
      let (status, result) = try await check(["xss", page, "--marker", "THUMBIFY-XSS"])
      #expect(status == 0, "\(result["failures"] ?? "")")
      #expect(result["cards"] as? Int == FrontendFixtures.hostileStrings.count)
      #expect(result["pwned"] as? Bool == false)
      #expect(result["title"] as? String == result["heading"] as? String)
      let console = (result["console"] as? [String] ?? []) + (result["problems"] as? [String] ?? [])
      #expect(!console.contains { $0.contains("THUMBIFY-XSS") })
      // Every hostile string is on the page, literally, as a title.
      #expect(result["titles"] as? [String] == FrontendFixtures.hostileStrings)
      let links = result["links"] as? [String] ?? []
      #expect(!links.isEmpty)
      #expect(links.allSatisfy { $0.hasPrefix("https://") })
    }
  }
}
