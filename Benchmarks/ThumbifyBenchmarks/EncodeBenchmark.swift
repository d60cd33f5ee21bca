import Foundation
import Thumbify

/// `encode`: records/s and cards/s through the crawl's JSON encoding, next to Foundation's
/// `JSONEncoder` with the same output format (`[.sortedKeys, .withoutEscapingSlashes]`) in the same run.
///
/// The records are the first 2,000 of a crawl's manifest (`--manifest <dir>/manifest.jsonl`; a crawl
/// benchmark's output or `scripts/demo`'s), so they have the shape real records have.
enum EncodeBenchmark {
  static func run(_ arguments: [String]) async throws {
    guard let path = ImagingBenchmark.option("--manifest", in: arguments) else {
      print("encode: give --manifest <dir>/manifest.jsonl (a crawl's output)")
      return
    }
    let directory = (path as NSString).deletingLastPathComponent
    var records: [CrawlRecord] = []
    try ManifestReader(directory: directory).readRecords { record in
      if records.count < 2000 { records.append(record) }
    }
    guard !records.isEmpty else {
      print("encode: \(path) holds no records")
      return
    }
    let count = Double(records.count)
    let scratch = NSTemporaryDirectory() + "thumbify-encode-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }

    let manifest = Benchmark(name: "records (ManifestWriter)", unit: "records") {
      let writer = try ManifestWriter(path: scratch + "/manifest.jsonl")
      for record in records { try writer.append(record) }
      return count
    }
    let cards = Benchmark(name: "cards (CardWriter.encodedCard)", unit: "cards") {
      for record in records { blackHole(try CardWriter.encodedCard(for: record)) }
      return count
    }
    let foundation = JSONEncoder()
    foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let peer = Benchmark(name: "records (JSONEncoder)", unit: "records") {
      for record in records { blackHole(try foundation.encode(record)) }
      return count
    }
    let ours = try await Harness.measure(manifest, warmups: 1, samples: 7)
    let card = try await Harness.measure(cards, warmups: 1, samples: 7)
    let theirs = try await Harness.measure(peer, warmups: 1, samples: 5)
    print(
      String(
        format: "records, ManifestWriter: %9.0f records/s (%.1f µs each)", ours.median, 1e6 / ours.median))
    print(
      String(format: "cards, encodedCard:      %9.0f cards/s (%.1f µs each)", card.median, 1e6 / card.median))
    print(
      String(
        format: "records, JSONEncoder:    %9.0f records/s (%.1f µs each); ManifestWriter is %.2fx",
        theirs.median, 1e6 / theirs.median, ours.median / theirs.median))
  }
}
