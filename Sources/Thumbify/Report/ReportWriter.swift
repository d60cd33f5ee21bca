import Foundation

/// Writes `thumbify report`'s page: one self-contained HTML file drawing every card of a manifest.
///
/// The page loads nothing from elsewhere: its style and script are inline and allowed by a
/// Content-Security-Policy through their SHA-256 hashes, cards are JSON in
/// `<script type="application/json">` blocks of `pageSize` cards (escaped by
/// `HTMLEscaping.scriptJSON`), and images are the output directory's blobs, by relative path.
/// The first page is drawn as soon as its block is parsed, so a 100,000-card page opens quickly.
package struct ReportWriter: Sendable {
  /// The directory holding `manifest.jsonl` and `blobs/`.
  package var outputDirectory: String
  /// Where the page is written; blob paths are made relative to its directory.
  package var reportPath: String
  /// Cards per page (and per JSON block).
  package var pageSize: Int

  /// - Parameters:
  ///   - outputDirectory: the crawl's output directory.
  ///   - reportPath: the page's path; `<outputDirectory>/index.html` when `nil`.
  ///   - pageSize: cards per page (and per JSON block), at least 1.
  package init(outputDirectory: String, reportPath: String? = nil, pageSize: Int = 500) {
    self.outputDirectory = outputDirectory
    self.reportPath = reportPath ?? OutputLayout.report(in: outputDirectory)
    self.pageSize = max(1, pageSize)
  }

  /// How many cards the page holds, by state.
  package struct Summary: Sendable, Equatable {
    package var ok = 0
    package var stale = 0
    package var failed = 0
    /// The page's size in bytes.
    package var bytes = 0
    package var total: Int { ok + stale + failed }

    package init() {}

    mutating func count(_ state: Card.State) {
      switch state {
      case .ok: ok += 1
      case .stale: stale += 1
      case .failed: failed += 1
      }
    }
  }

  /// Reads the manifest and writes the page atomically.
  ///
  /// - Throws: `StoreError` when the manifest cannot be read or the page cannot be written.
  @discardableResult
  package func write() throws(StoreError) -> Summary {
    let reader = try ManifestReader(directory: outputDirectory)
    var summary = Summary()
    var pages: [[UInt8]] = []
    var pending: [Card] = []
    do {
      // Decode a few pages' worth of lines at a time on every core, encode the full pages on every
      // core; only the page being built and one batch are in memory.
      try reader.readRecords(inBatchesOf: pageSize * 8) { records in
        for record in records {
          let card = Card(record: record)
          summary.count(card.state)
          pending.append(card)
        }
        let full = pending.count / pageSize * pageSize
        pages += encode(pending[..<full])
        pending.removeFirst(full)
      }
    } catch let error as StoreError {
      throw error
    } catch {
      throw .io(path: reader.path, operation: "read the manifest", message: String(describing: error))
    }
    pages += encode(pending[...])
    let page = assemble(
      pages: consume pages, summary: summary,
      title: FilePath(Self.absolute(outputDirectory)).lastComponent ?? "/")
    let directory = FilePath(reportPath).removingLastComponent().string
    if !directory.isEmpty { try FileSystem.makeDirectories(directory) }
    try FileSystem.writeAtomically(page, to: reportPath)
    summary.bytes = page.count
    return summary
  }

  /// The page's bytes for `cards`, and what it holds.
  ///
  /// - Parameters:
  ///   - cards: the cards to draw, in order.
  ///   - title: shown in the page's `<title>` and heading (escaped).
  package func render(cards: [Card], title: String) -> (page: [UInt8], summary: Summary) {
    var summary = Summary()
    for card in cards { summary.count(card.state) }
    return (assemble(pages: encode(cards[...]), summary: summary, title: title), summary)
  }

  /// Each run of `pageSize` cards as an escaped JSON array, encoded on every core.
  private func encode(_ cards: ArraySlice<Card>) -> [[UInt8]] {
    let slices = stride(from: cards.startIndex, to: cards.endIndex, by: pageSize).map {
      Array(cards[$0..<min(cards.endIndex, $0 + pageSize)])
    }
    return ParallelMap.map(slices) { HTMLEscaping.scriptJSON(Self.json($0.map(ReportEntry.init))) }
  }

  /// The whole page: head, configuration, the JSON blocks, and the script right after the first.
  ///
  /// Each block is released once copied, so the page and its blocks are not both in memory whole.
  private func assemble(pages: consuming [[UInt8]], summary: Summary, title: String) -> [UInt8] {
    var blocks = pages.isEmpty ? [Array("[]".utf8)] : pages
    let config = Config(base: relativeBase, total: summary.total, pageSize: pageSize, chunks: blocks.count)
    var page = [UInt8]()
    page.reserveCapacity(blocks.reduce(64 << 10) { $0 + $1.count + 64 })
    page += Array(head(title: title, summary: summary).utf8)
    page += Array(#"<script type="application/json" id="report-config">"#.utf8)
    page += HTMLEscaping.scriptJSON(Self.json(config))
    page += Array("</script>\n".utf8)
    for index in blocks.indices {
      page += Array(#"<script type="application/json" id="chunk-\#(index)">"#.utf8)
      page += blocks[index]
      blocks[index] = []
      page += Array("</script>\n".utf8)
      if index == 0 { page += Array("<script>\(ReportScript.source)</script>\n".utf8) }
    }
    page += Array("</body>\n</html>\n".utf8)
    return page
  }

  /// The Content-Security-Policy: nothing but this page's own style and script, and images
  /// from the page's origin (the blobs) or `data:`.
  static var contentSecurityPolicy: String {
    let script = Data(SHA256Digest.bytes(of: Array(ReportScript.source.utf8))).base64EncodedString()
    let style = Data(SHA256Digest.bytes(of: Array(ReportStyle.source.utf8))).base64EncodedString()
    return
      "default-src 'none'; img-src 'self' data:; style-src 'sha256-\(style)'; script-src 'sha256-\(script)'; "
      + "base-uri 'none'; form-action 'none'"
  }

  private func head(title: String, summary: Summary) -> String {
    let heading = HTMLEscaping.text("thumbify report: \(title)")
    return """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="\(HTMLEscaping.attribute(Self.contentSecurityPolicy))">
      <meta name="referrer" content="no-referrer">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <link rel="icon" href="data:,">
      <title>\(heading)</title>
      <style>\(ReportStyle.source)</style>
      </head>
      <body>
      <header>
      <h1>\(heading)</h1>
      <span class="counts">\(summary.total) cards: \(summary.ok) ok, \(summary.stale) stale, \(summary.failed) failed</span>
      <span class="controls">
      <label>Show <select id="show"><option value="all">all</option><option value="ok">ok</option>\
      <option value="stale">stale</option><option value="failed">failed</option></select></label>
      <button id="prev" type="button">Previous</button>
      <span id="page-status"></span>
      <button id="next" type="button">Next</button>
      </span>
      </header>
      <noscript><p>This report draws its cards with JavaScript.</p></noscript>
      <main id="cards"></main>
      <div id="more"></div>

      """
  }

  /// The path from the report's directory to the output directory, ending in `/` (or empty).
  var relativeBase: String {
    let from = Self.components(of: FilePath(Self.absolute(reportPath)).removingLastComponent().string)
    let to = Self.components(of: Self.absolute(outputDirectory))
    var common = 0
    while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
    let path = Array(repeating: "..", count: from.count - common) + to[common...]
    return path.isEmpty ? "" : path.joined(separator: "/") + "/"
  }

  private static func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }

  private static func components(of path: String) -> [String] {
    path.split(separator: "/").map(String.init)
  }

  /// The page's `#report-config` block: what the script needs to find and page the cards.
  struct Config: Encodable {
    /// Prepended to blob paths: the output directory relative to the page (`""` or `../out/`).
    var base: String
    var total: Int
    var pageSize: Int
    var chunks: Int
  }

  private static func json(_ value: some Encodable) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    // Cards and the configuration hold only strings and integers: encoding them cannot fail.
    return (try? [UInt8](encoder.encode(value))) ?? Array("null".utf8)
  }
}
