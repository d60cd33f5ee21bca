import Foundation

/// Every benchmark suite; each file in this folder contributes one entry.
/// Usage: `swift run -c release thumbify-benchmarks [<name-filter>] [options]`.
let suites: [(name: String, run: ([String]) async throws -> Void)] = [
  (name: "imaging", run: ImagingBenchmark.run),
  (name: "extract", run: ExtractBenchmark.run),
  (name: "fetch", run: FetchBenchmark.run),
  (name: "crawl", run: CrawlBenchmark.run),
  (name: "encode", run: EncodeBenchmark.run),
  (name: "colour", run: ColourBenchmark.run),
  (name: "shard", run: ShardBenchmark.run),
  (name: "merge", run: MergeBenchmark.run),
  (name: "render", run: RenderBenchmark.run),
]

Harness.warnIfDebug()
let arguments = Array(CommandLine.arguments.dropFirst())
let filter = arguments.first { !$0.hasPrefix("-") }
let selected = suites.filter { filter == nil || $0.name.contains(filter!) }
if selected.isEmpty {
  print("No benchmark matches. Available: \(suites.map(\.name).joined(separator: ", "))")
  exit(64)
}
for suite in selected {
  print("== \(suite.name)")
  try await suite.run(arguments)
}
