import Foundation
import Testing

@testable import Thumbify

/// The report of the sample crawl: `samples/urls.txt` crawled by the real pipeline (CrawlJob with
/// the real extractor, decoders, thumbnailer and blob store; pages read from `samples/` by
/// `SampleSiteFetcher` instead of nginx), then `thumbify report`, then Chromium.
@Suite("Report of the sample crawl in Chromium", .serialized, .timeLimit(.minutes(3)))
struct SampleCrawlReportTests {
  @Test func theSampleCrawlsReportRendersEveryCardWithItsImages() async throws {
    let directory = try FrontendFixtures.temporaryDirectory() + "/demo"
    let thumbnailer = Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: directory))
    let job = CrawlJob(
      outputDirectory: directory, configuration: CrawlConfiguration(concurrency: 4),
      fetcher: SampleSiteFetcher(), extractor: MetadataExtractor(), thumbnailer: thumbnailer)
    let urls = try [UInt8](Data(contentsOf: URL(fileURLWithPath: SampleSiteFetcher.samples + "/urls.txt")))
    let summary = try await job.run(openList: { URLListReader(bytes: urls) })
    let records = try readManifest(directory)
    #expect(summary.records == records.count)
    #expect(records.count >= 15)
    let withImages = records.filter { $0.image != nil }.count
    let failed = records.filter { $0.outcome == .failed }.count
    #expect(failed >= 1)  // a broken page on purpose
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/cards").count == records.count)

    let writer = ReportWriter(outputDirectory: directory)
    try writer.write()
    var arguments = ["render", writer.reportPath]
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
    // Pages whose image failed say why on their card.
    let imageFailures = records.compactMap { $0.image == nil && $0.outcome != .failed ? $0.imageError : nil }
    #expect(!imageFailures.isEmpty)
    #expect(result["notes"] as? [String] == imageFailures.map { "\($0.code) \($0.message)" })
  }
}
