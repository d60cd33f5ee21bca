import Dispatch
import Foundation
import Synchronization
import Thumbify

/// thumbify's thumbnailer against `vipsthumbnail` and Pillow, in the same run,
/// on a corpus of real photos: throughput (images/s, ratios), SSIM against a
/// double-precision Lanczos3 reference, and peak RSS.
///
/// `swift run -c release thumbify-benchmarks imaging [--samples N] [--corpus DIR] [--headroom X]`
///
/// `--headroom` is thumbify's shrink-on-load headroom (`DecodeOptions.shrinkHeadroom`):
/// 1 decodes at the smallest JPEG/WebP scale that covers the thumbnail; libvips
/// and Pillow leave a factor of 2.
enum ImagingBenchmark {
  static func run(_ arguments: [String]) async throws {
    let samples = option("--samples", in: arguments).flatMap(Int.init) ?? 5
    let headroom = option("--headroom", in: arguments).flatMap(Double.init) ?? DecodeOptions().shrinkHeadroom
    let corpus = option("--corpus", in: arguments) ?? ".build/imaging-corpus"
    let files = try ImagingCorpus.files(in: corpus)
    let out = NSTemporaryDirectory() + "thumbify-imaging-bench-\(getpid())"
    print(
      "corpus: \(files.count) images in \(corpus); \(samples) interleaved rounds after 1 warm-up; medians; "
        + "thumbify shrink-on-load headroom \(headroom)")
    let rssAtStart = ImagingCorpus.peakRSSKiB()
    var rssAfterFirstPass = 0
    var pillowRSS = 0
    for configuration in ImagingCorpus.configurations {
      print("\n-- \(configuration.name)")
      for threads in [1, 2] {
        let thumbifyOut = try directory(out, "thumbify-\(threads)")
        let vipsOut = try directory(out, "vips-\(threads)")
        let pillow = try ImagingCorpus.PillowPeer(
          files, configuration, out: try directory(out, "pillow-\(threads)"), threads: threads)
        // Warm-up, then rounds that run each tool once, so load from other processes hits all alike.
        _ = try thumbnailAll(files, configuration, out: thumbifyOut, threads: threads, headroom: headroom)
        if rssAfterFirstPass == 0 { rssAfterFirstPass = ImagingCorpus.peakRSSKiB() }
        try ImagingCorpus.vipsthumbnail(files, configuration, out: vipsOut, processes: threads)
        var rates: (thumbify: [Double], vips: [Double], pillow: [Double]) = ([], [], [])
        var cpuRates: (thumbify: [Double], vips: [Double], pillow: [Double]) = ([], [], [])
        let count = Double(files.count)
        for _ in 0..<samples {
          var cpu = ImagingCorpus.cpuSeconds(children: false)
          rates.thumbify.append(
            try timed(files.count) {
              _ = try thumbnailAll(
                files, configuration, out: thumbifyOut, threads: threads, headroom: headroom)
            })
          cpuRates.thumbify.append(count / (ImagingCorpus.cpuSeconds(children: false) - cpu))
          cpu = ImagingCorpus.cpuSeconds(children: true)
          rates.vips.append(
            try timed(files.count) {
              try ImagingCorpus.vipsthumbnail(files, configuration, out: vipsOut, processes: threads)
            })
          cpuRates.vips.append(count / (ImagingCorpus.cpuSeconds(children: true) - cpu))
          let pillowSample = try pillow.sample()
          rates.pillow.append(count / pillowSample.wall)
          cpuRates.pillow.append(pillowSample.cpu > 0 ? count / pillowSample.cpu : 0)
        }
        pillowRSS = max(pillowRSS, try pillow.finish())
        let vipsRatios = zip(rates.thumbify, rates.vips).map { $0 / $1 }
        let pillowRatios = zip(rates.thumbify, rates.pillow).map { $0 / $1 }
        let label = threads == 1 ? "1 thread " : "2 threads"
        print(
          "\(label)  thumbify \(format(median(rates.thumbify))) img/s   vipsthumbnail \(format(median(rates.vips)))"
            + " img/s   Pillow \(format(median(rates.pillow))) img/s   thumbify/vips \(format(median(vipsRatios)))x"
            + " (min \(format(vipsRatios.min() ?? 0)), max \(format(vipsRatios.max() ?? 0)))"
            + "   thumbify/Pillow \(format(median(pillowRatios)))x")
        let cpuRatios = zip(cpuRates.thumbify, cpuRates.vips).map { $0 / $1 }
        let pillowCPU = threads == 1 ? "   Pillow \(format(median(cpuRates.pillow)))" : ""
        print(
          "           per CPU-second: thumbify \(format(median(cpuRates.thumbify)))   vipsthumbnail "
            + "\(format(median(cpuRates.vips)))\(pillowCPU)   thumbify/vips \(format(median(cpuRatios)))x"
            + " (min \(format(cpuRatios.min() ?? 0)), max \(format(cpuRatios.max() ?? 0)))")
      }
    }
    let imagesProcessed = files.count * (samples + 1) * 2 * ImagingCorpus.configurations.count
    print(
      "\npeak RSS (VmHWM) of the thumbify process: \(rssAtStart / 1024) MiB at start, "
        + "\(rssAfterFirstPass / 1024) MiB after its first \(files.count) images, "
        + "\(ImagingCorpus.peakRSSKiB() / 1024) MiB after all \(imagesProcessed); largest child process "
        + "(vipsthumbnail or Pillow) \(ImagingCorpus.childrenPeakRSSKiB() / 1024) MiB, Pillow (main process) \(pillowRSS / 1024) MiB"
    )
    for configuration in ImagingCorpus.configurations {
      print("\n-- \(configuration.name)")
      try quality(files, configuration, out: out, headroom: headroom)
    }
    try? FileManager.default.removeItem(atPath: out)
  }

  /// Thumbnails every file with `threads` workers; returns the image count.
  static func thumbnailAll(
    _ files: [String], _ configuration: ImagingCorpus.Configuration, out: String, threads: Int,
    headroom: Double
  ) throws -> Double {
    let thumbnailer = Thumbnailer(
      decoder: ImageDecoder(), store: BenchmarkStore(directory: out),
      limits: DecodeOptions(maxBytes: 64 << 20, shrinkHeadroom: headroom))
    let next = Atomic<Int>(0)
    let failures = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        if index >= files.count { return }
        do {
          let bytes = try FileSystem.readFile(files[index], limit: 64 << 20)
          _ = try thumbnailer.thumbnails(of: bytes, source: files[index], variants: [configuration.variant])
        } catch {
          failures.add(1, ordering: .relaxed)
        }
      }
    }
    let failed = failures.load(ordering: .relaxed)
    if failed > 0 { throw BenchmarkFailure("thumbify failed on \(failed) images") }
    return Double(files.count)
  }

  /// Mean SSIM of each tool's output against the double-precision reference.
  static func quality(
    _ files: [String], _ configuration: ImagingCorpus.Configuration, out: String, headroom: Double
  )
    throws
  {
    let decoder = ImageDecoder()
    let full = DecodeOptions(maxBytes: 64 << 20)
    var totals: [String: (sum: Double, count: Int, mismatched: Int)] = [:]
    for file in files {
      let bytes = try FileSystem.readFile(file, limit: 64 << 20)
      let source = try decoder.decode(bytes, options: full)
      let geometry = ThumbnailGeometry(
        source: source.originalSize, box: configuration.box, fit: configuration.fit)
      let reference = ReferenceResampler().resize(source.buffer, geometry: geometry)
      let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
      let thumbifyBytes = try thumbifyOutput(bytes, configuration, headroom: headroom)
      let outputs: [(String, [UInt8]?)] = [
        ("thumbify", thumbifyBytes),
        (
          "vipsthumbnail",
          try? FileSystem.readFile("\(out)/vips-1/\(stem).\(configuration.format.rawValue)", limit: 1 << 24)
        ),
        (
          "Pillow",
          try? FileSystem.readFile("\(out)/pillow-1/\(stem).\(configuration.format.rawValue)", limit: 1 << 24)
        ),
      ]
      for (tool, data) in outputs {
        guard let data, let decoded = try? decoder.decode(data, options: full),
          let ssim = StructuralSimilarity.ssim(decoded.buffer, reference)
        else {
          totals[tool, default: (0, 0, 0)].mismatched += 1
          continue
        }
        totals[tool, default: (0, 0, 0)].sum += ssim
        totals[tool, default: (0, 0, 0)].count += 1
      }
    }
    let line = ["thumbify", "vipsthumbnail", "Pillow"].map { tool in
      let total = totals[tool] ?? (0, 0, 0)
      let mean = total.count > 0 ? total.sum / Double(total.count) : 0
      let skipped = total.mismatched > 0 ? " (\(total.mismatched) skipped: size differs/undecodable)" : ""
      return "\(tool) \(String(format: "%.4f", mean))\(skipped)"
    }
    print("SSIM vs double-precision Lanczos3 (mean over \(files.count)): " + line.joined(separator: "   "))
  }

  /// thumbify's encoded thumbnail of `bytes`, exactly as the timed runs make it.
  static func thumbifyOutput(_ bytes: [UInt8], _ configuration: ImagingCorpus.Configuration, headroom: Double)
    throws -> [UInt8]
  {
    let options = DecodeOptions(
      target: configuration.box, fit: configuration.fit, maxBytes: 64 << 20, shrinkHeadroom: headroom)
    let decoded = try ImageDecoder().decode(bytes, options: options)
    let geometry = ThumbnailGeometry(
      source: decoded.originalSize, box: configuration.box, fit: configuration.fit)
    let pixels = Resampler().resize(decoded, geometry: geometry)
    return try ImageEncoder().encode(pixels, options: configuration.variant.encoding)
  }

  /// Items per second of one run of `body`.
  static func timed(_ items: Int, _ body: () throws -> Void) throws -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = start.duration(to: .now)
    return Double(items)
      / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
  }

  static func directory(_ root: String, _ name: String) throws -> String {
    let path = root + "/" + name
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
  }

  static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
