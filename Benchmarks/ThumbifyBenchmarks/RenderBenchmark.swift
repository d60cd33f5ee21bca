import Foundation
import Thumbify
import ThumbifyRendering

/// `--render` (docs/rendering.md): how often the `auto` rule fires on the local test webs, and
/// rendered pages per second with the peak memory of the whole process tree (thumbify and every
/// Chromium process), next to the same pages crawled without rendering in the same run.
///
///     swift build -c release --product thumbify --product thumbify-benchmarks
///     .build/release/thumbify-benchmarks render [--pages 60] [--samples 3] [--bench-web <dir>]
///
/// The rendered web is `--pages` app shells served by nginx on loopback: a placeholder title, an
/// empty mount point, a script that fetches the page's JSON and writes its title and og:image, and a
/// real photo as that image (each page its own URL of it). Every sample is a cold `thumbify crawl
/// --render always` into a fresh directory. Memory is sampled every 20 ms over the crawl's process
/// tree from `/proc`: the sum of the processes' PSS (shared pages divided among the processes that
/// share them, so the sum is the tree's real footprint) and the sum of their RSS (which counts
/// Chromium's shared pages once per process, an upper bound).
enum RenderBenchmark {
  static func run(_ arguments: [String]) async throws {
    let pages = Int(ImagingBenchmark.option("--pages", in: arguments) ?? "") ?? 60
    let samples = Int(ImagingBenchmark.option("--samples", in: arguments) ?? "") ?? 3
    fireRates(benchWeb: ImagingBenchmark.option("--bench-web", in: arguments))
    let thumbify =
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/thumbify"
    guard FileManager.default.isExecutableFile(atPath: thumbify) else {
      print("Build the CLI first: swift build -c release --product thumbify (looked for \(thumbify))")
      return
    }
    let web = NSTemporaryDirectory() + "thumbify-bench-render"
    try? FileManager.default.removeItem(atPath: web)
    defer { try? FileManager.default.removeItem(atPath: web) }
    let port = 18_091
    try writeAppWeb(web, pages: pages, port: port)
    let nginx = try ChildProcess.start(
      "/usr/sbin/nginx", ["-e", web + "/error.log", "-p", web, "-c", web + "/nginx.conf"])
    defer { nginx.terminate() }
    try await ChildProcess.waitForPort(port, host: "127.0.0.1")

    var crawls = 0
    typealias Run = (seconds: Double, cpu: Double, tree: TreeMemory, rendered: Int)
    func crawl(render: String) throws -> Run {
      crawls += 1
      let out = web + "/out-\(crawls)"
      let monitor = TreeMonitor()
      let started = Date()
      let child = try ChildProcess.start(
        thumbify,
        [
          "crawl", web + "/urls.txt", "--out", out, "--state", out + ".state", "--allow-private-network",
          "--ignore-robots", "--quiet", "--render", render, "--variant", "card=600x315",
        ])
      let peak = monitor.watch(child.pid)
      var status: Int32 = 0
      var usage = rusage()
      // The crawl's CPU time includes Chromium's: thumbify reaps the browser, the browser its children.
      while wait4(child.pid, &status, 0, &usage) < 0 && errno == EINTR {}
      let seconds = Date().timeIntervalSince(started)
      let cpu =
        Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
      let manifest = (try? String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8)) ?? ""
      let rendered = manifest.split(separator: "\n").filter { $0.contains(#""render":{"#) }.count
      return (seconds, cpu, peak, rendered)
    }

    print("warm-up: one crawl of \(pages) app pages with --render always, one without")
    _ = try crawl(render: "always")
    _ = try crawl(render: "never")
    var renderedRuns: [Run] = []
    var staticRuns: [Run] = []
    for _ in 0..<samples {
      renderedRuns.append(try crawl(render: "always"))
      staticRuns.append(try crawl(render: "never"))
    }
    let renderedMedian = CrawlBenchmark.median(renderedRuns.map(\.seconds))
    let staticMedian = CrawlBenchmark.median(staticRuns.map(\.seconds))
    print(
      "samples (s): --render always "
        + renderedRuns.map { String(format: "%.2f", $0.seconds) }.joined(separator: " ") + ", never "
        + staticRuns.map { String(format: "%.2f", $0.seconds) }.joined(separator: " "))
    print(
      String(
        format:
          "--render always: %d pages in %.2f s (median of %d) = %.1f rendered pages/s; %d of %d pages rendered",
        pages, renderedMedian, samples, Double(pages) / renderedMedian, renderedRuns.last?.rendered ?? 0,
        pages))
    print(
      String(
        format: "--render never:  %d pages in %.2f s = %.1f pages/s; rendering costs %.1f× the static crawl",
        pages, staticMedian, Double(pages) / staticMedian, renderedMedian / staticMedian))
    print(
      String(
        format:
          "CPU (user+sys, Chromium's processes included): %.1f ms per rendered page, %.2f ms per static page",
        1000 * CrawlBenchmark.median(renderedRuns.map(\.cpu)) / Double(pages),
        1000 * CrawlBenchmark.median(staticRuns.map(\.cpu)) / Double(pages)))
    func megabytes(_ kib: Int) -> String { String(format: "%.0f MB", Double(kib) / 1024) }
    let renderedPeak = renderedRuns.map(\.tree).max { $0.pssKiB < $1.pssKiB } ?? TreeMemory()
    let staticPeak = staticRuns.map(\.tree).max { $0.pssKiB < $1.pssKiB } ?? TreeMemory()
    print(
      "peak memory of the process tree, --render always: PSS \(megabytes(renderedPeak.pssKiB)), "
        + "RSS summed \(megabytes(renderedPeak.rssKiB)) over up to \(renderedPeak.processes) processes")
    print(
      "peak memory of the process tree, --render never:  PSS \(megabytes(staticPeak.pssKiB)), "
        + "RSS summed \(megabytes(staticPeak.rssKiB)) (\(staticPeak.processes) process)")
    print("load average: \(CrawlBenchmark.loadAverage())")
  }

  /// How often `auto` would render, over every HTML file of the bundled sample site, the test
  /// fixtures and (when given) the crawl benchmark's generated web.
  static func fireRates(benchWeb: String?) {
    var directories = ["samples/site", "Tests/Fixtures"]
    if let benchWeb { directories.append(benchWeb) }
    let extractor = MetadataExtractor()
    for directory in directories {
      guard let walker = FileManager.default.enumerator(atPath: directory) else {
        print("render rule: no directory \(directory)")
        continue
      }
      var pages: [(bytes: [UInt8], metadata: PageMetadata)] = []
      var fired: [String: [String]] = [:]
      for case let path as String in walker where path.hasSuffix(".html") || path.hasSuffix(".htm") {
        guard let html = FileManager.default.contents(atPath: directory + "/" + path) else { continue }
        let bytes = [UInt8](html)
        let metadata = extractor.extract(
          html: bytes, pageURL: "https://example.com/" + path, contentType: nil)
        pages.append((bytes, metadata))
        if let reason = RenderRule.reason(for: metadata, html: bytes) {
          fired[reason, default: []].append(path)
        }
      }
      // What `auto` adds to a page that needs no rendering is the rule's check: its time beside the
      // extraction's, both over every page, repeated (medians of 5 rounds).
      func seconds(_ body: () -> Void) -> Double {
        var rounds: [Double] = []
        for _ in 0..<5 {
          let start = ContinuousClock.now
          body()
          let elapsed = start.duration(to: .now)
          rounds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        return CrawlBenchmark.median(rounds)
      }
      let repeats = max(1, 2_000 / max(pages.count, 1))
      let ruleSeconds = seconds {
        for _ in 0..<repeats {
          for page in pages { blackHole(RenderRule.reason(for: page.metadata, html: page.bytes)) }
        }
      }
      let extractSeconds = seconds {
        for _ in 0..<repeats {
          for page in pages {
            blackHole(extractor.extract(html: page.bytes, pageURL: "https://example.com/", contentType: nil))
          }
        }
      }
      let visits = Double(repeats * max(pages.count, 1))
      let count = fired.values.map(\.count).reduce(0, +)
      print(
        String(
          format:
            "render rule on %@: fires on %d of %d pages (%.1f %%); the check %.2f µs a page, %.3f %% of extracting it (%.1f µs)",
          directory, count, pages.count, pages.isEmpty ? 0 : 100 * Double(count) / Double(pages.count),
          1e6 * ruleSeconds / visits, 100 * ruleSeconds / extractSeconds, 1e6 * extractSeconds / visits))
      for (reason, paths) in fired.sorted(by: { $0.key < $1.key }) {
        print(
          "  \(reason): \(paths.sorted().prefix(12).joined(separator: ", "))\(paths.count > 12 ? ", …" : "")")
      }
    }
  }

  /// The app-shell web and its nginx configuration.
  static func writeAppWeb(_ web: String, pages: Int, port: Int) throws {
    try FileManager.default.createDirectory(atPath: web + "/www/app", withIntermediateDirectories: true)
    let photo = try FileManager.default.contentsOfDirectory(atPath: "samples/photos").sorted()
      .first { $0.hasSuffix(".jpg") }
    guard let photo else { throw BenchmarkFailure("no JPEG in samples/photos (run from the repository)") }
    try FileManager.default.copyItem(atPath: "samples/photos/" + photo, toPath: web + "/www/photo.jpg")
    var list = ""
    for index in 0..<pages {
      try """
      <!doctype html><html lang="en"><head><meta charset="utf-8"><title>React App</title>
      <link rel="icon" href="/favicon.ico"></head><body>
      <noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div>
      <script src="/app.js"></script></body></html>
      """.write(toFile: web + "/www/app/\(index).html", atomically: true, encoding: .utf8)
      try #"{"title": "App page \#(index)", "image": "/photo.jpg?page=\#(index)"}"#
        .write(toFile: web + "/www/app/\(index).json", atomically: true, encoding: .utf8)
      list += "http://127.0.0.1:\(port)/app/\(index).html\n"
    }
    try """
    fetch(location.pathname.replace('.html', '.json')).then(r => r.json()).then(page => {
      document.title = page.title;
      const meta = document.createElement('meta');
      meta.setAttribute('property', 'og:image');
      meta.setAttribute('content', page.image);
      document.head.appendChild(meta);
      document.getElementById('root').textContent = page.title;
    });
    """.write(toFile: web + "/www/app.js", atomically: true, encoding: .utf8)
    try list.write(toFile: web + "/urls.txt", atomically: true, encoding: .utf8)
    try """
    daemon off; pid \(web)/nginx.pid; error_log \(web)/error.log; worker_processes 1;
    events { worker_connections 512; }
    http { access_log off; server { listen 127.0.0.1:\(port); root \(web)/www; } }
    """.write(toFile: web + "/nginx.conf", atomically: true, encoding: .utf8)
  }
}

/// The memory of a process tree at one moment.
struct TreeMemory {
  var pssKiB = 0
  var rssKiB = 0
  var processes = 0
}

/// Samples the memory of a process and all its descendants from `/proc` until it exits.
struct TreeMonitor {
  /// Watches `root` on a thread of its own while it runs; returns the peak (by PSS) once it exited.
  func watch(_ root: pid_t) -> TreeMemory {
    let peak = PeakBox()
    let thread = Thread {
      while kill(root, 0) == 0 {
        let now = Self.measure(root)
        peak.update(now)
        if now.processes == 0 { break }
        usleep(20_000)
      }
      peak.done.signal()
    }
    thread.start()
    return peak.wait()
  }

  final class PeakBox: @unchecked Sendable {
    let lock = NSLock()
    let done = DispatchSemaphore(value: 0)
    var value = TreeMemory()
    func update(_ memory: TreeMemory) {
      lock.lock()
      defer { lock.unlock() }
      if memory.pssKiB > value.pssKiB { value.pssKiB = memory.pssKiB }
      if memory.rssKiB > value.rssKiB { value.rssKiB = memory.rssKiB }
      value.processes = max(value.processes, memory.processes)
    }
    func wait() -> TreeMemory {
      done.wait()
      lock.lock()
      defer { lock.unlock() }
      return value
    }
  }

  /// The tree's PSS and RSS now (a zombie root counts nothing).
  static func measure(_ root: pid_t) -> TreeMemory {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
      return TreeMemory()
    }
    var parents: [pid_t: pid_t] = [:]
    for entry in entries {
      guard let pid = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      if fields.count > 1, let parent = pid_t(fields[1]) { parents[pid] = parent }
    }
    var tree: Set<pid_t> = [root]
    var grew = true
    while grew {
      grew = false
      for (pid, parent) in parents where tree.contains(parent) && !tree.contains(pid) {
        tree.insert(pid)
        grew = true
      }
    }
    var memory = TreeMemory()
    for pid in tree {
      guard let rollup = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else {
        continue
      }
      memory.processes += 1
      for line in rollup.split(separator: "\n") {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count >= 2, let kib = Int(parts[1]) else { continue }
        if parts[0] == "Pss:" { memory.pssKiB += kib }
        if parts[0] == "Rss:" { memory.rssKiB += kib }
      }
    }
    return memory
  }
}
