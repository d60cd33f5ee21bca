import Foundation

/// The crawl, end to end, against a generated local web served by nginx on loopback, next to the
/// Python peer (`Benchmarks/peers/crawl_peer.py`) in the same run.
///
///     swift build -c release --product thumbify
///     swift run -c release thumbify-benchmarks crawl [--urls 10000] [--scale 100000 ...] [--samples 3]
///         [--peer-samples 1] [--per-host 16] [--concurrency 64] [--peer-without-cards]
///         [--before <thumbify binary>]
///
/// `Benchmarks/make-web.py` writes the web (nine loopback hosts 127.0.0.2–10, real photos: most pages an
/// og:image of their own, a fifth a shared one per site; a slow, a failing and a redirecting site). The
/// pages' own images are files, one per page number of the longest list (~50 KB each: `--scale 100000`
/// writes ~5 GB once). Each sample is a cold crawl into a
/// fresh directory by the real `thumbify` binary (the release build next to this program) and by the
/// peer, each a child process whose wall time, CPU time (`wait4`) and peak RSS (GNU `time`, see
/// `ChildProcess`) are recorded; every crawl writes into a directory of its own, `sync`ed before it.
/// `--scale N` (repeatable: `--scale 100000 --scale 300000`) adds one crawl of N URLs by each tool per
/// scale: peak RSS must not grow with the list, and the fixed costs (the distinct photos, the slow
/// site's tail) weigh less than at 10,000 URLs.
///
/// The peer writes a card file per URL as thumbify does (`cards/<key>.json`, the same job);
/// `--peer-without-cards` adds, next to each of its crawls, one with `--no-cards` (manifest and blobs
/// only, as the peer did before 1 Dec 2026), so the cost of that part shows in the same run.
///
/// `--before <binary>` adds an earlier build of `thumbify` (e.g. from a `git worktree` of the commit
/// before a change), sampled alternately with this one as often: "no slowdown" is then a ratio from one
/// run, not two runs' absolute times on a shared machine.
///
/// `--render-auto` adds this build with `--render auto` (docs/rendering.md), sampled alternately as
/// often: on this web no page needs rendering, so it must cost nothing but the rule's check.
enum CrawlBenchmark {
  static func run(_ arguments: [String]) async throws {
    let urls = Int(ImagingBenchmark.option("--urls", in: arguments) ?? "") ?? 10_000
    let scales = values("--scale", in: arguments).compactMap { Int($0) }.filter { $0 > 0 }
    let samples = Int(ImagingBenchmark.option("--samples", in: arguments) ?? "") ?? 3
    let peerSamples = Int(ImagingBenchmark.option("--peer-samples", in: arguments) ?? "") ?? 1
    let perHost = ImagingBenchmark.option("--per-host", in: arguments) ?? "16"
    let concurrency = ImagingBenchmark.option("--concurrency", in: arguments) ?? "64"
    let withoutCards = arguments.contains("--peer-without-cards")
    let before = ImagingBenchmark.option("--before", in: arguments)
    let withRenderAuto = arguments.contains("--render-auto")
    let port = 18_080
    let web = NSTemporaryDirectory() + "thumbify-bench-web"
    let thumbify =
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/thumbify"
    guard FileManager.default.isExecutableFile(atPath: thumbify) else {
      print("Build the CLI first: swift build -c release --product thumbify (looked for \(thumbify))")
      return
    }
    if let before, !FileManager.default.isExecutableFile(atPath: before) {
      print("--before: no executable at \(before)")
      return
    }
    // A build from before issue 21 has no --state (its state is <out>/.thumbify, removed with the
    // outputs); its crawl usage says so.
    let beforeTakesState =
      before.map { before in
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: before)
        process.arguments = ["crawl", "--help"]
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return false }
        let help = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return help.contains("--state <dir>")
      } ?? true
    var sizes = [1_000, urls]
    sizes += scales
    _ = try ChildProcess.run(
      "/usr/bin/python3",
      ["Benchmarks/make-web.py", "--dir", web, "--port", "\(port)"] + sizes.flatMap { ["--urls", "\($0)"] })
    let nginx = try ChildProcess.start(
      "/usr/sbin/nginx", ["-e", web + "/error.log", "-p", web, "-c", web + "/nginx.conf"])
    defer { nginx.terminate() }
    try await ChildProcess.waitForPort(port, host: "127.0.0.2")

    // Every crawl writes into a directory of its own, and all are removed at the end: removing the last
    // sample's output before the next one made ext4 skip the ~10^5 inodes it had just freed for every
    // file the next crawl created (`recently_deleted` in `find_inode_bit`, quadratic), which slowed
    // thumbify's 100,000 card files (the manifest pass of a 100,000-URL crawl took 57 s instead of 7 s)
    // and not the peer, which writes one manifest.
    let outputs = web + "/outputs"
    try? FileManager.default.removeItem(atPath: outputs)
    try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: outputs) }
    var crawls = 0
    func crawl(_ count: Int, _ tool: String) throws -> ChildProcess.Outcome {
      crawls += 1
      // Kept outputs are written back to disk while the next crawl runs unless flushed first: the
      // peer's 10,000-URL samples after thumbify's (10,000 card files, a 40 MB state) took 19.5,
      // 23.7 and 26.6 s. Each sample starts with nothing dirty (what it leaves is flushed untimed).
      sync()
      let out = outputs + "/\(crawls)-\(tool)-\(count)"
      let list = web + "/urls-\(count).txt"
      if tool == "thumbify" || tool == "before" || tool == "auto" {
        return try ChildProcess.run(
          tool == "before" ? before ?? thumbify : thumbify,
          [
            // The state beside the output, in `outputs` (removed at the end; the default would
            // leave every sample's state in ~/.local/state), on the disk it was on before issue 21.
            "crawl", list, "--out", out, "--allow-private-network", "--ignore-robots", "--quiet",
            "--per-host", perHost, "--concurrency", concurrency, "--timeout", "30",
          ] + (tool != "before" || beforeTakesState ? ["--state", out + ".state"] : [])
            + (tool == "auto" ? ["--render", "auto"] : []),
          acceptedStatuses: [0, 1])
      }
      return try ChildProcess.run(
        "/usr/bin/python3",
        [
          "Benchmarks/peers/crawl_peer.py", list, "--out", out, "--per-host", perHost, "--concurrency",
          concurrency,
        ] + (tool == "peer-no-cards" ? ["--no-cards"] : []))
    }

    print("warm-up: 1,000 URLs with each tool")
    _ = try crawl(1_000, "thumbify")
    if before != nil { _ = try crawl(1_000, "before") }
    _ = try crawl(1_000, "peer")
    // Samples alternate between the tools so that load from other work on the machine hits both alike.
    var ours: [ChildProcess.Outcome] = []
    var theirs: [ChildProcess.Outcome] = []
    var theirsWithoutCards: [ChildProcess.Outcome] = []
    var earlier: [ChildProcess.Outcome] = []
    var renderAuto: [ChildProcess.Outcome] = []
    if withRenderAuto { _ = try crawl(1_000, "auto") }
    for index in 0..<max(samples, peerSamples) {
      if index < samples { ours.append(try crawl(urls, "thumbify")) }
      if index < samples && withRenderAuto { renderAuto.append(try crawl(urls, "auto")) }
      if index < samples && before != nil { earlier.append(try crawl(urls, "before")) }
      if index < peerSamples { theirs.append(try crawl(urls, "peer")) }
      if index < peerSamples && withoutCards { theirsWithoutCards.append(try crawl(urls, "peer-no-cards")) }
    }
    print(
      "samples (s): thumbify " + ours.map { String(format: "%.2f", $0.seconds) }.joined(separator: " ")
        + ", peer " + theirs.map { String(format: "%.2f", $0.seconds) }.joined(separator: " "))
    let oursMedian = median(ours.map(\.seconds))
    let theirsMedian = median(theirs.map(\.seconds))
    let oursRate = Double(urls) / oursMedian
    let theirsRate = Double(urls) / theirsMedian
    print(
      String(
        format: "thumbify crawl  %6d URLs: median %.2f s over %d samples = %.1f URLs/s, peak RSS %.1f MB",
        urls, oursMedian, samples, oursRate, Double(ours.map(\.peakRSSKiB).max() ?? 0) / 1024))
    print(
      String(
        format:
          "python peer     %6d URLs: median %.2f s over %d samples = %.1f URLs/s, peak RSS %.1f MB (main process)",
        urls, theirsMedian, peerSamples, theirsRate, Double(theirs.map(\.peakRSSKiB).max() ?? 0) / 1024))
    print(String(format: "ratio: thumbify is %.2fx the peer's URLs/s", oursRate / theirsRate))
    if !theirsWithoutCards.isEmpty {
      let seconds = median(theirsWithoutCards.map(\.seconds))
      print(
        String(
          format:
            "python peer without cards %6d URLs: median %.2f s (%@), CPU %.2f s; thumbify is %.2fx its URLs/s",
          urls, seconds, theirsWithoutCards.map { String(format: "%.2f", $0.seconds) }.joined(separator: " "),
          median(theirsWithoutCards.map(\.cpuSeconds)), seconds / oursMedian))
    }
    if !earlier.isEmpty {
      let seconds = median(earlier.map(\.seconds))
      let cpu = median(earlier.map(\.cpuSeconds))
      print(
        String(
          format:
            "before (%@) %6d URLs: median %.2f s (%@), CPU %.2f s, peak RSS %.1f MB; this build takes %.3fx its wall time, %.3fx its CPU",
          before ?? "", urls, seconds,
          earlier.map { String(format: "%.2f", $0.seconds) }.joined(separator: " "),
          cpu, Double(earlier.map(\.peakRSSKiB).max() ?? 0) / 1024, oursMedian / seconds,
          median(ours.map(\.cpuSeconds)) / cpu))
    }
    if !renderAuto.isEmpty {
      let seconds = median(renderAuto.map(\.seconds))
      let cpu = median(renderAuto.map(\.cpuSeconds))
      print(
        String(
          format:
            "--render auto %6d URLs: median %.2f s (%@), CPU %.2f s, peak RSS %.1f MB; %.3fx the wall time of the crawl without it, %.3fx its CPU",
          urls, seconds, renderAuto.map { String(format: "%.2f", $0.seconds) }.joined(separator: " "), cpu,
          Double(renderAuto.map(\.peakRSSKiB).max() ?? 0) / 1024, seconds / oursMedian,
          cpu / median(ours.map(\.cpuSeconds))))
    }
    // CPU time is far less sensitive than wall time to other work on the machine and to the slow
    // site's tail (both tools wait ~10 s for its largest photo at 32 KB/s whatever their speed).
    let oursCPU = median(ours.map(\.cpuSeconds))
    let theirsCPU = median(theirs.map(\.cpuSeconds))
    print(
      String(
        format: "CPU (user+sys, pool workers included): thumbify %.2f s, peer %.2f s = %.2fx less; load %@",
        oursCPU, theirsCPU, theirsCPU / oursCPU, loadAverage()))
    for scale in scales {
      let big = try crawl(scale, "thumbify")
      let peerBig = try crawl(scale, "peer")
      let peerWithoutCards = withoutCards ? [("peer, no cards ", try crawl(scale, "peer-no-cards"))] : []
      for (name, outcome) in [("thumbify crawl ", big), ("python peer    ", peerBig)] + peerWithoutCards {
        print(
          String(
            format: "%@ %6d URLs: %.2f s = %.1f URLs/s, peak RSS %.1f MB, CPU %.2f s", name, scale,
            outcome.seconds, Double(scale) / outcome.seconds, Double(outcome.peakRSSKiB) / 1024,
            outcome.cpuSeconds))
      }
      print(
        String(
          format: "ratio at %d URLs: thumbify is %.2fx the peer's URLs/s; load %@", scale,
          peerBig.seconds / big.seconds, loadAverage()))
      for (_, outcome) in peerWithoutCards {
        print(
          String(
            format: "ratio at %d URLs against the peer without cards: %.2fx", scale,
            outcome.seconds / big.seconds))
      }
    }
  }

  /// Every value of a repeatable option (`--scale 100000 --scale 300000`).
  static func values(_ name: String, in arguments: [String]) -> [String] {
    arguments.indices.dropLast().filter { arguments[$0] == name }.map { arguments[$0 + 1] }
  }

  /// `/proc/loadavg`'s first three fields (other work sharing the machine).
  static func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
    return text.split(separator: " ").prefix(3).joined(separator: " ")
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
  }
}
