import Foundation
import FoundationXML
import Thumbify

/// `extract`: MB/s of HTML and pages/s through `MetadataExtractor` on generated pages shaped
/// like real ones (a big head of metas, links, inline scripts, styles and JSON-LD; a long body
/// of nested markup), from 8 KB to 2 MB. Each size twice: with a structured publication date
/// (JSON-LD `datePublished`), and `dated in text`, without one, its date only in a byline, so
/// the whole-page date search (a second pass, `DateSearch`) reads the page (`--dates=structured`
/// or `--dates=text` runs one kind). Peers in the same run, reported as ratios: Foundation's
/// `XMLDocument` with `.documentTidyHTML` (libxml2's HTML parser building a tree) plus one XPath
/// query for the metas — what a Swift program on Linux would reach for — and a bare `memchr` pass
/// that only finds every `<`, the floor any tokenizer pays. libxml2 reports every HTML error on
/// standard error, which is sent to /dev/null while the peer runs.
enum ExtractBenchmark {
  static func run(_ arguments: [String]) async throws {
    let extractor = MetadataExtractor()
    // `--kb=8,64` limits the page sizes (for profiling one size under callgrind).
    let sizes =
      arguments.first { $0.hasPrefix("--kb=") }.map {
        $0.dropFirst(5).split(separator: ",").compactMap { Int($0) }
      }
      ?? [8, 64, 512, 2048]
    let volume = arguments.first { $0.hasPrefix("--mb=") }.flatMap { Int($0.dropFirst(5)) } ?? 32
    let kinds = [true, false].filter { structured in
      switch arguments.first(where: { $0.hasPrefix("--dates=") }) {
      case "--dates=structured": structured
      case "--dates=text": !structured
      default: true
      }
    }
    for isStructured in kinds {
      print(
        isStructured ? "pages with a structured date:" : "pages dated in text only (the date search runs):")
      try await run(sizes: sizes, volume: volume, isStructured: isStructured, arguments, extractor)
    }
  }

  private static func run(
    sizes: [Int], volume: Int, isStructured: Bool, _ arguments: [String], _ extractor: MetadataExtractor
  ) async throws {
    for target in sizes.map({ $0 * 1024 }) {
      let page = RealisticPage.make(bytes: target, hasStructuredDate: isStructured)
      let repeats = max(1, (volume * 1024 * 1024) / page.count)
      let megabytes = Double(page.count * repeats) / 1_000_000
      let extract = Benchmark(name: "extract \(page.count / 1024) KB", unit: "MB") {
        for _ in 0..<repeats {
          blackHole(
            extractor.extract(html: opaque(page), pageURL: "https://news.example.com/a/b", contentType: nil))
        }
        return megabytes
      }
      var mutablePage = page
      let scan = Benchmark(name: "memchr '<' \(page.count / 1024) KB", unit: "MB") {
        var count = 0
        for index in 0..<repeats {
          // A changing last byte keeps the optimizer from reusing the previous pass's result.
          mutablePage[mutablePage.count - 1] = index & 1 == 0 ? UInt8(ascii: "<") : UInt8(ascii: "\n")
          count += mutablePage.withUnsafeBufferPointer(RealisticPage.countOpenings)
        }
        blackHole(count)
        return megabytes
      }
      let peerRepeats = max(1, repeats / 8)
      let peerMegabytes = Double(page.count * peerRepeats) / 1_000_000
      let pageData = Data(page)
      let libxml2 = Benchmark(name: "XMLDocument \(page.count / 1024) KB", unit: "MB") {
        for _ in 0..<peerRepeats {
          let document = try XMLDocument(data: pageData, options: [.documentTidyHTML])
          blackHole(try document.nodes(forXPath: "//meta").count)
        }
        return peerMegabytes
      }
      let ours = try await Harness.measure(extract, warmups: 1, samples: 7)
      // `--ours` leaves the peers out: a profile or a CPU-time count (`perf stat`) of our work only.
      if arguments.contains("--ours") {
        print(
          String(
            format: "%-14@ %7.1f MB/s (min %6.1f)", "\(page.count / 1024) KB page" as NSString, ours.median,
            ours.min))
        continue
      }
      let floor = try await Harness.measure(scan, warmups: 1, samples: 7)
      let peer = try await withStandardErrorSilencedAsync {
        try await Harness.measure(libxml2, warmups: 1, samples: 5)
      }
      let pagesPerSecond = ours.median * 1_000_000 / Double(page.count)
      // libxml2 gives up part-way through big pages of HTML5 markup; say so next to its number.
      let parsed = try withStandardErrorSilenced {
        try XMLDocument(data: pageData, options: [.documentTidyHTML]).nodes(forXPath: "//p").count
      }
      let written = String(decoding: page, as: UTF8.self).components(separatedBy: "<p ").count - 1
      let completeness = parsed >= written ? "" : " (libxml2 read only \(parsed) of \(written) <p>)"
      print(
        String(
          format:
            "%-14@ %7.1f MB/s (min %6.1f) %8.0f pages/s | XMLDocument %6.1f MB/s: %5.1fx | memchr %7.1f MB/s: %.2fx",
          "\(page.count / 1024) KB page" as NSString, ours.median, ours.min, pagesPerSecond, peer.median,
          ours.median / peer.median, floor.median, ours.median / floor.median) + completeness)
    }
  }
}

/// Points file descriptor 2 at /dev/null (libxml2 prints every HTML error) and returns
/// what puts it back.
private func silenceStandardError() -> () -> Void {
  let saved = dup(STDERR_FILENO)
  let null = open("/dev/null", O_WRONLY)
  if null >= 0 { dup2(null, STDERR_FILENO) }
  return {
    if saved >= 0 { dup2(saved, STDERR_FILENO) }
    if null >= 0 { close(null) }
    if saved >= 0 { close(saved) }
  }
}

/// Runs `body` with standard error silenced.
func withStandardErrorSilenced<T>(_ body: () throws -> T) rethrows -> T {
  let restore = silenceStandardError()
  defer { restore() }
  return try body()
}

/// The async form of `withStandardErrorSilenced(_:)`.
func withStandardErrorSilencedAsync<T>(_ body: () async throws -> T) async rethrows -> T {
  let restore = silenceStandardError()
  defer { restore() }
  return try await body()
}

/// Hides a value from the optimizer so repeated pure work is not folded into one call.
@inline(never)
func opaque<T>(_ value: T) -> T { value }

/// Generates pages shaped like real news/product pages.
enum RealisticPage {
  /// A page of about `target` bytes; without `hasStructuredDate` its JSON-LD states no date and
  /// a byline after the title does (`Published May 1, 2024`), as on most pages dated only in text.
  static func make(bytes target: Int, hasStructuredDate: Bool = true) -> [UInt8] {
    var head = """
      <!DOCTYPE html><html lang="en" class="no-js"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Markets rally as central bank signals pause &mdash; Example News</title>
      <link rel="canonical" href="https://news.example.com/business/2024/markets-rally">

      """
    for index in 0..<40 {
      head += "<meta name=\"custom-\(index)\" content=\"value \(index) with some &amp; text\">\n"
    }
    head += """
      <meta property="og:title" content="Markets rally as central bank signals pause">
      <meta property="og:description" content="Stocks rose sharply on Wednesday after the central bank&#39;s chair said rates would stay on hold.">
      <meta property="og:image" content="https://img.example.com/2024/markets.jpg?w=1200&amp;h=630">
      <meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">
      <meta property="og:site_name" content="Example News"><meta property="og:type" content="article">
      <meta name="twitter:card" content="summary_large_image"><meta name="theme-color" content="#ffffff">
      <link rel="icon" href="/favicon-32.png" sizes="32x32"><link rel="apple-touch-icon" href="/apple-touch-icon.png">
      <link rel="preload" href="/fonts/a.woff2" as="font" crossorigin><link rel="stylesheet" href="/css/site.css">
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Markets rally",\(hasStructuredDate ? #""datePublished":"2024-05-01T10:00:00Z","# : "")"author":[{"@type":"Person","name":"A. Writer"}],"publisher":{"@type":"Organization","name":"Example News","logo":{"@type":"ImageObject","url":"https://news.example.com/logo.png"}}}</script>
      <style>:root{--a:#000}body{font:16px/1.5 Georgia,serif}.nav>li{display:inline-block}a[href^="http"]{color:#06c}</style>

      """
    let script =
      "<script>(function(w,d){var q=w.q||[];for(var i=0;i<q.length;i++){if(q[i]&&q[i].a>0){d.title+=\"<b>\"}}"
      + "w.dataLayer=w.dataLayer||[];w.dataLayer.push({event:'page',section:\"business\"});})(window,document);</script>\n"
    for _ in 0..<max(1, target / 40_000) { head += script }
    head += "</head><body class=\"article\"><header><nav><ul class=\"nav\">"
    for index in 0..<20 {
      head += "<li><a href=\"/section/\(index)\" data-track=\"nav-\(index)\">Section \(index)</a></li>"
    }
    head += "</ul></nav></header><main><article>\n"
    if !hasStructuredDate {
      head += "<h1>Markets rally as central bank signals pause</h1>\n"
      head += "<p class=\"byline\">By A. Writer &middot; Published May 1, 2024, 10:00 a.m.</p>\n"
    }
    var page = Array(head.utf8)
    let paragraph = Array(
      """
      <div class="para-wrap"><p class="body-text" data-component="text-block">Investors piled into technology shares \
      after the announcement, with the index closing up 2.3% &mdash; its best day since March. <a href="/topics/markets" \
      class="link inline">Markets</a> analysts said the move was &ldquo;widely expected&rdquo; but welcome.</p>
      <figure><img src="https://img.example.com/2024/chart.png?w=640" alt="A chart" width="640" height="360" loading="lazy">\
      <figcaption>Photograph: Example Agency</figcaption></figure></div>

      """.utf8)
    let tail = Array(
      "</article></main><footer><p>&copy; 2024 Example News</p></footer><script src=\"/js/app.js\" defer></script></body></html>\n"
        .utf8)
    while page.count + paragraph.count + tail.count < target { page += paragraph }
    return page + tail
  }

  static func countOpenings(_ buffer: UnsafeBufferPointer<UInt8>) -> Int {
    guard var pointer = buffer.baseAddress else { return 0 }
    let end = pointer + buffer.count
    var count = 0
    while pointer < end, let found = memchr(pointer, Int32(UInt8(ascii: "<")), end - pointer) {
      count += 1
      pointer = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) + 1
    }
    return count
  }
}
