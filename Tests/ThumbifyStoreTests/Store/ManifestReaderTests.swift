import Foundation
import Testing
import ThumbifyImagingTestSupport
import ThumbifyStore
import ThumbifySystemTestSupport

@Suite("Manifest reader", .offThePool)
struct ManifestReaderTests {
  func manifest(_ lines: [String]) throws -> String {
    let directory = try Fixtures.temporaryDirectory()
    try lines.joined(separator: "\n").write(
      toFile: directory + "/manifest.jsonl", atomically: true, encoding: .utf8)
    return directory
  }

  func line(_ index: Int) throws -> String {
    let url = "https://example.com/\(index)"
    let record = CrawlRecord(originalURL: url, normalizedURL: url, outcome: .ok)
    return String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
  }

  @Test(arguments: [1, 7, 1000, 5000])
  func batchesKeepFileOrderAndSkipBlankLines(batchSize: Int) throws {
    let lines = try (0..<2500).map { $0 % 100 == 99 ? "  " : try line($0) }
    let reader = try ManifestReader(directory: try manifest(lines))
    var urls: [String] = []
    var largest = 0
    try reader.readRecords(inBatchesOf: batchSize) { records in
      largest = max(largest, records.count)
      urls += records.map(\.originalURL)
    }
    #expect(urls == (0..<2500).filter { $0 % 100 != 99 }.map { "https://example.com/\($0)" })
    #expect(largest <= batchSize)
  }

  @Test func theFirstMalformedLineInFileOrderIsReported() throws {
    var lines = try (0..<3000).map(line)
    lines[2100] = "{\"schema\":1"
    lines[2900] = "not json"
    let reader = try ManifestReader(directory: try manifest(lines))
    do {
      try reader.readRecords(inBatchesOf: 1000) { _ in }
      Issue.record("a malformed manifest was read")
    } catch let error as StoreError {
      guard case .malformedLine(_, let number, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(number == 2101)
    }
  }
}
