import Foundation
import Testing
import Thumbify
import ThumbifyExtracting
import ThumbifyImagingTestSupport
import ThumbifyStore

/// Output directories with manifests, blobs and hostile metadata, for the frontend tests.
package enum FrontendFixtures {
  /// Strings a hostile page could put in its metadata; none may run or become markup.
  package static let hostileStrings = [
    "<script>document.title='PWNED';console.log('THUMBIFY-XSS')</script>",
    "\"><img src=x onerror=\"window.__thumbifyPwned=1;console.log('THUMBIFY-XSS')\">",
    "</script><script>console.log('THUMBIFY-XSS')</script>",
    "<!--<script>console.log('THUMBIFY-XSS')//",
    "line\u{2028}separator\u{2029}paragraph 'THUMBIFY' </title>",
    "\u{202E}gnp.exe\u{202C} RTL override and \u{05E9}\u{05DC}\u{05D5}\u{05DD} Hebrew",
    "{{constructor.constructor('console.log(\"THUMBIFY-XSS\")')()}} & &amp; &lt;",
  ]

  /// A fresh temporary directory.
  package static func temporaryDirectory(_ name: String = #function) throws -> String {
    let path = NSTemporaryDirectory() + "thumbify-frontend-\(name.filter(\.isLetter))-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Real thumbnails of a generated image, stored in `directory`'s blob store.
  package static func thumbnails(
    in directory: String, width: Int, height: Int, hue: Int, variants: [ThumbnailVariant]
  )
    throws -> ThumbnailSet
  {
    let thumbnailer = Thumbnailer(decoder: GradientDecoder(), store: BlobStore(root: directory))
    return try thumbnailer.thumbnails(
      of: Array("\(width)x\(height):\(hue)".utf8), source: "https://img.example/\(hue).jpg",
      variants: variants)
  }

  /// A crawl's worth of records covering every card state, with blobs in `directory`.
  package static func records(in directory: String, count: Int = 9) throws -> [CrawlRecord] {
    let icon = try thumbnails(in: directory, width: 64, height: 64, hue: 200, variants: [.icon])
    var records: [CrawlRecord] = []
    for index in 0..<count {
      let url = "https://site\(index % 3).example/page/\(index)"
      let outcome: CrawlRecord.Outcome = [.ok, .ok, .notModified, .stale, .failed][index % 5]
      var metadata = PageMetadata()
      metadata.title = "Page \(index): a card title"
      metadata.description =
        "Description of page \(index), long enough to wrap onto a second line in the card."
      metadata.siteName = "Site \(index % 3)"
      metadata.canonicalURL = url
      metadata.lang = "en"
      if index % 4 == 1 { metadata.video = VideoCandidate(url: "https://video.example/\(index).mp4") }
      let image = try thumbnails(
        in: directory, width: 720 - index * 8, height: 400, hue: index * 29, variants: [.card, .card2x])
      let error =
        outcome == .stale || outcome == .failed
        ? RecordError(code: "httpStatus", message: "The server answered HTTP 503.", stage: "fetch") : nil
      records.append(
        CrawlRecord(
          originalURL: url, normalizedURL: url, outcome: outcome,
          fetch: FetchFacts(finalURL: url, status: 200, fetchedAt: "2026-11-29T00:00:00Z"),
          metadata: outcome == .failed ? nil : metadata, image: outcome == .failed ? nil : image,
          icon: outcome == .failed ? nil : icon, error: error))
    }
    return records
  }

  /// Records whose every text field, URL and error is hostile.
  package static func hostileRecords(in directory: String) throws -> [CrawlRecord] {
    let image = try thumbnails(in: directory, width: 700, height: 360, hue: 90, variants: [.card, .card2x])
    return hostileStrings.enumerated().map { index, text in
      var metadata = PageMetadata()
      metadata.title = text
      metadata.description = text
      metadata.siteName = text
      metadata.lang = "en\" onmouseover=\"console.log('THUMBIFY-XSS')"
      metadata.canonicalURL =
        index % 2 == 0 ? "javascript:console.log('THUMBIFY-XSS')" : "https://evil.example/\(index)?q=\(text)"
      metadata.video = VideoCandidate(url: "javascript:console.log('THUMBIFY-XSS')")
      metadata.image = ImageCandidate(url: "https://evil.example/i.jpg", alt: text)
      let url = "https://evil.example/\(index)"
      return CrawlRecord(
        originalURL: url, normalizedURL: url, outcome: index % 3 == 2 ? .stale : .ok, metadata: metadata,
        image: image,
        error: index % 3 == 2 ? RecordError(code: "x<script>", message: text, stage: "fetch") : nil)
    }
  }

  /// Writes `records` as `<directory>/manifest.jsonl`.
  package static func writeManifest(_ records: [CrawlRecord], in directory: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var text = Data()
    for record in records {
      text.append(try encoder.encode(record))
      text.append(0x0A)
    }
    try text.write(to: URL(fileURLWithPath: directory + "/manifest.jsonl"))
  }

  /// The repository's `samples` directory.
  package static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("samples").path

  /// The script that drives Chromium, and whether the machine can run it.
  package static var browserDriver: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Browser/check_report.py").path
  }
}
