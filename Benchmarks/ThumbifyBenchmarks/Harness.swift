import Foundation

/// A named benchmark: `run` does one sample's work and returns how many items it processed.
struct Benchmark {
  var name: String
  /// Units for `items` in the report (`images`, `MB`, `requests`).
  var unit: String
  var run: () async throws -> Double
}

/// Keeps a value alive so the optimizer cannot delete the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// Runs benchmarks the way swift-collections-benchmark does: warm-up, then
/// repeated samples, reporting min and median throughput.
enum Harness {
  static func measure(_ benchmark: Benchmark, warmups: Int = 1, samples: Int = 5) async throws -> (
    min: Double, median: Double
  ) {
    for _ in 0..<warmups { _ = try await benchmark.run() }
    var rates: [Double] = []
    for _ in 0..<samples {
      let start = ContinuousClock.now
      let items = try await benchmark.run()
      let elapsed = start.duration(to: .now)
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
      rates.append(items / seconds)
    }
    rates.sort()
    return (rates.first ?? 0, rates[rates.count / 2])
  }

  static func warnIfDebug() {
    #if DEBUG
      FileHandle.standardError.write(
        Data(
          "WARNING: benchmarks built in debug mode; numbers are meaningless. Use `swift run -c release`.\n"
            .utf8))
    #endif
  }
}
