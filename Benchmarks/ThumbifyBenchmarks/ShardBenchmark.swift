import Foundation
import Thumbify

/// `shard`: what `--shard K/N` costs while a shard streams the whole list (issue 23). A generated list
/// (`--lines=10000000` by default; 100,000 registrable domains, `www.` and other subdomains, some
/// `co.uk`) is read three ways, interleaved, in lines/s:
///
/// - `lines`: `LineReader` alone, the floor of any reading;
/// - `unsharded`: `URLListReader` as an unsharded crawl reads it (every line normalized);
/// - `shard 1/4`: the same reader with `shard = 1/4`: every line normalized and hashed, three in four
///   skipped. Its ratio to `unsharded` is the price of skipping.
enum ShardBenchmark {
  static func run(_ arguments: [String]) async throws {
    let lines = arguments.first { $0.hasPrefix("--lines=") }.flatMap { Int($0.dropFirst(8)) } ?? 10_000_000
    let samples = arguments.first { $0.hasPrefix("--samples=") }.flatMap { Int($0.dropFirst(10)) } ?? 3
    let path = NSTemporaryDirectory() + "thumbify-shard-bench-\(getpid()).txt"
    defer { unlink(path) }
    try write(lines: lines, to: path)
    let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    print("list: \(lines) lines, \(size / 1_000_000) MB")
    let floor = Benchmark(name: "lines (LineReader)", unit: "lines") {
      let reader = try LineReader(path: path, maxLength: URLListReader.maxLineLength)
      var count = 0
      while let line = try reader.nextLine() { count += line.isEmpty ? 0 : 1 }
      return Double(count)
    }
    func reading(_ shard: Shard?) -> Benchmark {
      Benchmark(name: shard.map { "shard \($0)" } ?? "unsharded", unit: "lines") {
        let reader = try URLListReader(path: path)
        reader.shard = shard
        var kept = 0
        while let entry = try reader.next() { if case .url = entry { kept += 1 } }
        blackHole(kept)
        return Double(lines)
      }
    }
    let benchmarks = [floor, reading(nil), reading(Shard(index: 1, count: 4))]
    var medians = [Double](repeating: 0, count: benchmarks.count)
    var rates = [[Double]](repeating: [], count: benchmarks.count)
    // Interleaved one sample at a time, so that a change in the shared machine's load hits all three.
    for benchmark in benchmarks { _ = try await Harness.measure(benchmark, warmups: 0, samples: 1) }
    for _ in 0..<samples {
      for (index, benchmark) in benchmarks.enumerated() {
        rates[index].append(try await Harness.measure(benchmark, warmups: 0, samples: 1).median)
      }
    }
    for index in benchmarks.indices {
      medians[index] = rates[index].sorted()[rates[index].count / 2]
      let seconds = Double(lines) / medians[index]
      print(
        "\(benchmarks[index].name): \(Int(medians[index])) lines/s (median of \(samples)), "
          + String(format: "%.2f s per pass", seconds))
    }
    print(
      String(
        format: "shard 1/4 vs unsharded: %.2f× the time; %.0f ns per line skipped or kept on top of reading",
        medians[1] / medians[2], (1 / medians[2] - 1 / medians[1]) * 1e9))
  }

  /// The list: line `i` is a page of domain `i % 100,000`, on `www.` or another subdomain.
  static func write(lines: Int, to path: String) throws {
    guard let file = fopen(path, "w") else { throw CocoaError(.fileWriteUnknown) }
    defer { fclose(file) }
    for index in 0..<lines {
      let domain = index % 100_000
      let host =
        domain % 10 == 0
        ? "news.site\(domain).co.uk" : (index % 3 == 0 ? "blog.site\(domain).com" : "www.site\(domain).com")
      fputs("https://\(host)/articles/\(index)?ref=list\n", file)
    }
  }
}
