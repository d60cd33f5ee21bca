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
  /// The report of the sample crawl: `samples/urls.txt` crawled by the real pipeline (CrawlJob with
  /// CurlFetcher against nginx on loopback serving `samples/`, the real extractor, decoders,
  /// thumbnailer and blob store), written by `ReportWriter` and opened in Chromium.
  ///
  /// `THUMBIFY_REPORT_SCREENSHOT=<file.png>` also saves a screenshot (docs/report.png is one).
  @Suite("Report of the sample crawl in Chromium", .timeLimit(.minutes(6)))
  struct SampleCrawlReportTests {
    @Test func theSampleCrawlsReportRendersEveryCardWithItsImages() async throws {
      // nginx serves samples/site with samples/photos under /photos/, as scripts/demo's does.
      let samples = FrontendFixtures.samples
      let docroot = try FrontendFixtures.temporaryDirectory() + "/www"
      try FileManager.default.createDirectory(atPath: docroot, withIntermediateDirectories: true)
      for name in try FileManager.default.contentsOfDirectory(atPath: samples + "/site") {
        try FileManager.default.createSymbolicLink(
          atPath: docroot + "/" + name, withDestinationPath: samples + "/site/" + name)
      }
      try FileManager.default.createSymbolicLink(
        atPath: docroot + "/photos", withDestinationPath: samples + "/photos")
      let nginx = try await LoopbackNginx(docroot: URL(fileURLWithPath: docroot))
      defer { nginx.stop() }
      // The test server has no rewrite rules, so the list's one redirect (/old/storms) is left out.
      let list = try String(contentsOfFile: samples + "/urls.txt", encoding: .utf8)
        .split(separator: "\n").filter { !$0.contains("/old/storms") }.joined(separator: "\n")
        .replacingOccurrences(of: "127.0.0.1:8765", with: "127.0.0.1:\(nginx.port)")

      let directory = try FrontendFixtures.temporaryDirectory() + "/demo"
      let thumbnailer = Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: directory))
      let job = CrawlJob(
        layout: testLayout(directory), configuration: CrawlConfiguration(concurrency: 4),
        fetcher: try makeTestFetcher(), extractor: MetadataExtractor(), thumbnailer: thumbnailer)
      let summary = try await job.run(openList: { URLListReader(bytes: Array(list.utf8)) })
      let records = try readManifest(directory)
      #expect(summary.records == records.count)
      #expect(records.count >= 15)
      let withImages = records.filter { $0.image != nil }.count
      let failed = records.filter { $0.outcome == .failed }.count
      #expect(failed >= 1)  // a broken page on purpose
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: directory + "/cards").count == records.count)

      // A second night over unchanged pages (conditional requests answered 304) touches no card file.
      let inodes = try cardInodes(directory)
      _ = try await job.run(openList: { URLListReader(bytes: Array(list.utf8)) })
      #expect(try cardInodes(directory) == inodes)

      let writer = ReportWriter(outputDirectory: directory)
      try writer.write()
      // Served over loopback HTTP so the test may read the images' pixels (file:// taints canvases).
      var arguments = ["render", writer.reportPath, "--serve", directory]
      if let screenshot = ProcessInfo.processInfo.environment["THUMBIFY_REPORT_SCREENSHOT"] {
        arguments += ["--screenshot", screenshot, "--window", "1280x1400"]
      }
      let (status, result) = try await ReportBrowserTests().check(arguments)

      #expect(status == 0, "\(result["failures"] ?? "")")
      #expect(result["cards"] as? Int == records.count)
      #expect(result["failed"] as? Int == failed)
      #expect(result["placeholdersDrawn"] as? Int == withImages)
      let images = try #require(result["images"] as? Int)
      #expect(images >= withImages)
      #expect(result["imagesLoaded"] as? Int == images)
      #expect((result["problems"] as? [Any])?.isEmpty == true)
      // Each ThumbHash, decoded by the page, looks like its image: closer to it than a flat fill with
      // the image's mean colour (a decoder that got the AC terms wrong would not be).
      let boxes = try #require(result["mediaBoxes"] as? [[String: Any]])
      #expect(boxes.count == withImages)
      var ratios: [Double] = []
      for box in boxes {
        let placeholderError = try #require(box["placeholderError"] as? Double, "\(box)")
        let flatError = try #require(box["flatError"] as? Double)
        #expect(placeholderError < flatError, "\(box)")
        ratios.append(placeholderError / flatError)
      }
      // Fine textures (grass) gain little over a flat fill; most photos gain a lot.
      #expect(ratios.sorted()[ratios.count / 2] < 0.6, "\(ratios)")
      // Pages whose image failed say why on their card.
      let imageFailures = records.compactMap {
        $0.image == nil && $0.outcome != .failed ? $0.imageError : nil
      }
      #expect(!imageFailures.isEmpty)
      #expect(result["notes"] as? [String] == imageFailures.map { "\($0.code) \($0.message)" })
    }

    /// Each card file's inode: a rewrite (temporary file renamed into place) changes it.
    func cardInodes(_ directory: String) throws -> [String: Int] {
      var inodes: [String: Int] = [:]
      for name in try FileManager.default.contentsOfDirectory(atPath: directory + "/cards") {
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/cards/" + name)
        inodes[name] = attributes[.systemFileNumber] as? Int
      }
      return inodes
    }
  }
}
