import Foundation
import Thumbify

/// `fetch`: requests/s of `CurlFetcher` against nginx on loopback next to the curl CLI
/// (`curl --parallel --parallel-max <n>`) on the same URLs in the same run, preceded by the
/// load check (every fd, thread and the RSS of this process before and after).
///
/// Run it with `scripts/bench-fetch`, which starts a throwaway nginx and passes
/// `--base-url`; options: `--requests=N` (10000), `--parallel=N` (256), `--samples=N` (5).
enum FetchBenchmark {
  static func run(_ arguments: [String]) async throws {
    func option(_ name: String) -> String? {
      arguments.first { $0.hasPrefix("--\(name)=") }.map { String($0.dropFirst(name.count + 3)) }
    }
    guard let base = option("base-url") else {
      print("fetch: needs --base-url=<nginx docroot URL>; run scripts/bench-fetch, which starts nginx.")
      return
    }
    let count = option("requests").flatMap { Int($0) } ?? 10_000
    let parallel = option("parallel").flatMap { Int($0) } ?? 256
    let samples = option("samples").flatMap { Int($0) } ?? 5
    let urls = (0..<count).map { "\(base)p\($0 % 1000).html" }
    var configuration = FetcherConfiguration()
    configuration.allowsPrivateNetwork = true
    configuration.ignoresRobots = true
    configuration.maxConcurrentTransfers = parallel
    configuration.maxTransfersPerHost = parallel

    try await loadCheck(urls: urls, configuration: configuration)

    let fetcher = try CurlFetcher(configuration: configuration)
    let ours = Benchmark(name: "thumbify", unit: "requests") {
      let failures = await fetchAll(fetcher, urls, window: parallel * 2)
      guard failures == 0 else { throw BenchmarkFailure("\(failures) thumbify requests failed") }
      return Double(urls.count)
    }
    let configFile = FileManager.default.temporaryDirectory.appendingPathComponent(
      "thumbify-curl-\(getpid()).conf")
    try urls.map { "url = \"\($0)\"\noutput = \"/dev/null\"\n" }.joined()
      .write(to: configFile, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: configFile) }
    let curlArguments = [
      "--parallel", "--parallel-max", String(parallel), "--silent", "--no-progress-meter", "--fail", "-K",
      configFile.path,
    ]
    let peer = Benchmark(name: "curl", unit: "requests") {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
      process.arguments = curlArguments
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else {
        throw BenchmarkFailure("curl exited \(process.terminationStatus)")
      }
      return Double(urls.count)
    }
    let oursRate = try await Harness.measure(ours, warmups: 1, samples: samples)
    let peerRate = try await Harness.measure(peer, warmups: 1, samples: samples)
    print(String(format: "thumbify  %8.0f requests/s median (min %8.0f)", oursRate.median, oursRate.min))
    print(String(format: "curl CLI  %8.0f requests/s median (min %8.0f)", peerRate.median, peerRate.min))
    print(
      String(
        format: "ratio thumbify/curl %.2f  (%d requests, %d in flight; curl %@)",
        oursRate.median / peerRate.median,
        count, parallel, curlArguments.dropLast(2).joined(separator: " ")))
  }

  /// Two passes over `urls`; prints failures, fds, threads and RSS around them.
  static func loadCheck(urls: [String], configuration: FetcherConfiguration) async throws {
    // Warm-up with a fetcher of its own: libcurl, OpenSSL and the concurrency pool open
    // their process-wide files and threads once; the check counts what stays after that.
    var warmUp: CurlFetcher? = try CurlFetcher(configuration: configuration)
    if let warmUp {
      _ = await fetchAll(warmUp, Array(urls.prefix(1000)), window: configuration.maxConcurrentTransfers)
    }
    warmUp = nil
    let before = ProcessSnapshot()
    var fetcher: CurlFetcher? = try CurlFetcher(configuration: configuration)
    var failures = 0
    var rss: [Int] = []
    for _ in 0..<3 {
      if let fetcher {
        failures += await fetchAll(fetcher, urls, window: configuration.maxConcurrentTransfers * 2)
      }
      rss.append(ProcessSnapshot().residentKB)
    }
    fetcher = nil
    let after = ProcessSnapshot()
    print(
      "load check: \(urls.count * 3) requests, \(configuration.maxConcurrentTransfers) in flight, \(failures) failures;"
        + " fds \(before.fileDescriptors) -> \(after.fileDescriptors); threads \(before.threads) -> \(after.threads);"
        + " RSS after each pass of \(urls.count): \(rss.map { "\($0 / 1024) MB" }.joined(separator: ", "))")
    fflush(nil)  // the report must be out before a failure ends the program
    if failures > 0 || after.fileDescriptors > before.fileDescriptors || after.threads > before.threads {
      throw BenchmarkFailure("the load check failed")
    }
  }

  /// Fetches every URL with `window` fetches outstanding; returns how many failed.
  static func fetchAll(_ fetcher: CurlFetcher, _ urls: [String], window: Int) async -> Int {
    await withTaskGroup(of: Int.self) { group in
      var next = 0
      var failures = 0
      func add() {
        let url = urls[next]
        next += 1
        group.addTask {
          do {
            return try await fetcher.fetch(FetchRequest(url: url, kind: .page)).status == 200 ? 0 : 1
          } catch {
            return 1
          }
        }
      }
      while next < min(window, urls.count) { add() }
      while let failed = await group.next() {
        failures += failed
        if next < urls.count { add() }
      }
      return failures
    }
  }
}

/// Counts of this process's resources from `/proc/self`.
struct ProcessSnapshot {
  var fileDescriptors: Int
  var threads: Int
  var residentKB: Int

  init() {
    let fileManager = FileManager.default
    fileDescriptors = ((try? fileManager.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 1) - 1
    threads = (try? fileManager.contentsOfDirectory(atPath: "/proc/self/task"))?.count ?? 0
    let status = FileHandle(forReadingAtPath: "/proc/self/status")?.readDataToEndOfFile() ?? Data()
    let line = String(decoding: status, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
    residentKB = line.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
  }
}
