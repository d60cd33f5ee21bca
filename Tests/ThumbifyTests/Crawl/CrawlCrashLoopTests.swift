import Foundation
import Testing
import ThumbifyFetchingTestSupport
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// Crash-loop protection with the real binary: a decoder that traps on one image (the test hook
/// `THUMBIFY_TEST_CRASH_ON_IMAGE`) kills the first run; the rerun, with the same decoder, completes and
/// gives that image `crashedDecoder`, and says so.
@Suite("A crawl does not die twice on one image", .serialized)
final class CrawlCrashLoopTests {
  let nginx: LoopbackNginx
  let root: String
  let listPath: String

  init() async throws {
    root = makeTemporaryDirectory("crash-loop")
    let www = root + "/www"
    try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
    let photos = TestPaths.repository + "/samples/photos/"
    // Three different sources: the doomed one's bytes are nobody else's.
    let images = [
      "doomed.jpg": "storm.jpg", "fine.jpg": "greenmeadow.jpg", "other.png": "freshflower-alpha.png",
    ]
    for (name, photo) in images {
      try FileManager.default.copyItem(atPath: photos + photo, toPath: www + "/" + name)
    }
    var list = ""
    nginx = try await LoopbackNginx(docroot: URL(fileURLWithPath: www))
    for (index, image) in ["fine.jpg", "doomed.jpg", "other.png"].enumerated() {
      let html = """
        <html><head><title>Page \(index)</title><meta property="og:image" content="/\(image)"></head></html>
        """
      try html.write(toFile: www + "/\(index).html", atomically: true, encoding: .utf8)
      list += nginx.url("/\(index).html") + "\n"
    }
    listPath = root + "/urls.txt"
    try list.write(toFile: listPath, atomically: true, encoding: .utf8)
  }

  deinit {
    nginx.stop()
    removeDirectory(root)
  }

  /// Runs the binary with the crash hook on `doomed`; returns its status and what it printed.
  func crawl(_ out: String, extra: [String] = []) async throws -> (status: Int32, output: String) {
    let process = thumbifyProcess(
      ["crawl", listPath, "--out", out, "--allow-private-network", "--ignore-robots"] + extra,
      environment: ["THUMBIFY_TEST_CRASH_ON_IMAGE": "doomed"])
    let log = out + ".log"
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    process.standardOutput = FileHandle(forWritingAtPath: log)
    process.standardError = FileHandle(forWritingAtPath: log)
    let status = try await ChildProcess.run(process)
    return (status, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
  }

  @Test func theRerunSkipsTheImageThatKilledTheFirstRun() async throws {
    let out = root + "/out"
    let first = try await crawl(out)
    #expect(first.status == SIGILL, "the hook's trap kills the run: \(first.output.suffix(500))")
    #expect(!FileManager.default.fileExists(atPath: out + "/manifest.jsonl"))
    let journal = try String(contentsOfFile: testLayout(out).decodeJournal, encoding: .utf8)
    #expect(journal.contains("crash "), "the fatal signal's handler left its line: \(journal)")

    let second = try await crawl(out)
    #expect(second.status == 0, "\(second.output.suffix(800))")
    #expect(second.output.contains("An earlier run died decoding an image"), "\(second.output)")
    #expect(second.output.contains(nginx.url("/doomed.jpg")))
    let records = try readManifest(out)
    #expect(records.count == 3)
    for record in records {
      #expect(record.outcome == .ok, "\(record.originalURL)")
      #expect(record.metadata?.title != nil, "the page's card is kept: \(record.originalURL)")
      if record.originalURL.hasSuffix("/1.html") {
        #expect(record.imageError?.code == "crashedDecoder")
        #expect(record.image == nil)
      } else {
        #expect(record.image != nil, "\(record.originalURL): \(String(describing: record.imageError))")
      }
    }
  }

  @Test func aSourceStaysSkippedUnderAnotherURLInALaterRun() async throws {
    let out = root + "/later"
    #expect(try await crawl(out).status == SIGILL)
    #expect(try await crawl(out).status == 0)
    // A later night meets the same bytes under another URL: skipped all the same (the death is the
    // source's, by content hash).
    try FileManager.default.copyItem(atPath: root + "/www/doomed.jpg", toPath: root + "/www/doomed-copy.jpg")
    try """
    <html><head><title>Copy</title><meta property="og:image" content="/doomed-copy.jpg"></head></html>
    """.write(toFile: root + "/www/3.html", atomically: true, encoding: .utf8)
    try (String(contentsOfFile: listPath, encoding: .utf8) + nginx.url("/3.html") + "\n").write(
      toFile: listPath, atomically: true, encoding: .utf8)
    let third = try await crawl(out, extra: ["--log-format", "json"])
    #expect(third.status == 0, "\(third.output.suffix(800))")
    let summary = third.output.split(separator: "\n").last { $0.contains("\"summary\"") }
    #expect(
      summary?.contains(#""crashedDecoder":["\#(nginx.url("/doomed-copy.jpg"))"]"#) == true, "\(third.output)"
    )
    let copy = try readManifest(out).first { $0.originalURL.hasSuffix("/3.html") }
    #expect(copy?.imageError?.code == "crashedDecoder")
  }
}
