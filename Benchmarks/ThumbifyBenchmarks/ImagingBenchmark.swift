import Dispatch
import Foundation
import Synchronization
import Thumbify

/// thumbify's thumbnailer against `vipsthumbnail` and Pillow, in the same run,
/// on a corpus of real photos: throughput (images/s, ratios), SSIM against a
/// double-precision Lanczos3 reference, and peak RSS.
///
/// `swift run -c release thumbify-benchmarks imaging [--samples N] [--corpus DIR]`
enum ImagingBenchmark {
  static func run(_ arguments: [String]) async throws {
    let samples = option("--samples", in: arguments).flatMap(Int.init) ?? 5
    let corpus = option("--corpus", in: arguments) ?? ".build/imaging-corpus"
    let files = try ImagingCorpus.files(in: corpus)
    let out = NSTemporaryDirectory() + "thumbify-imaging-bench-\(getpid())"
    print("corpus: \(files.count) images in \(corpus); \(samples) samples after 1 warm-up; median images/s")
    let rssAtStart = ImagingCorpus.peakRSSKiB()
    var rssAfterFirstPass = 0
    for configuration in ImagingCorpus.configurations {
      print("\n-- \(configuration.name)")
      for threads in [1, 2] {
        let thumbifyOut = try directory(out, "thumbify-\(threads)")
        let thumbify = try await Harness.measure(
          Benchmark(name: "thumbify", unit: "images") {
            try thumbnailAll(files, configuration, out: thumbifyOut, threads: threads)
          }, samples: samples)
        if rssAfterFirstPass == 0 { rssAfterFirstPass = ImagingCorpus.peakRSSKiB() }
        let vipsOut = try directory(out, "vips-\(threads)")
        let vips = try await Harness.measure(
          Benchmark(name: "vipsthumbnail", unit: "images") {
            try ImagingCorpus.vipsthumbnail(files, configuration, out: vipsOut, processes: threads)
            return Double(files.count)
          }, samples: samples)
        let pillowOut = try directory(out, "pillow-\(threads)")
        let pillow = try ImagingCorpus.pillow(
          files, configuration, out: pillowOut, threads: threads, samples: samples)
        let pillowRates = pillow.seconds.map { Double(files.count) / $0 }.sorted()
        let pillowMedian = pillowRates.isEmpty ? 0 : pillowRates[pillowRates.count / 2]
        let label = threads == 1 ? "1 thread " : "2 threads"
        print(
          "\(label)  thumbify \(format(thumbify.median)) img/s   vipsthumbnail \(format(vips.median)) img/s"
            + "   Pillow \(format(pillowMedian)) img/s   thumbify/vips \(format(thumbify.median / vips.median))x"
            + "   thumbify/Pillow \(format(thumbify.median / pillowMedian))x")
      }
      try quality(files, configuration, out: out)
    }
    let imagesProcessed = files.count * (samples + 1) * 2 * ImagingCorpus.configurations.count
    print(
      "\npeak RSS (VmHWM): thumbify process \(rssAtStart / 1024) MiB at start, "
        + "\(rssAfterFirstPass / 1024) MiB after the first \(files.count * (samples + 1)) images, "
        + "\(ImagingCorpus.peakRSSKiB() / 1024) MiB after \(imagesProcessed) "
        + "(before the SSIM reference step); largest peer child process \(ImagingCorpus.childrenPeakRSSKiB() / 1024) MiB"
    )
    try? FileManager.default.removeItem(atPath: out)
  }

  /// Thumbnails every file with `threads` workers; returns the image count.
  static func thumbnailAll(
    _ files: [String], _ configuration: ImagingCorpus.Configuration, out: String, threads: Int
  )
    throws -> Double
  {
    let thumbnailer = Thumbnailer(decoder: ImageDecoder(), store: BenchmarkStore(directory: out))
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
  static func quality(_ files: [String], _ configuration: ImagingCorpus.Configuration, out: String) throws {
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
      let thumbifyBytes = try thumbifyOutput(bytes, configuration)
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
  static func thumbifyOutput(_ bytes: [UInt8], _ configuration: ImagingCorpus.Configuration) throws -> [UInt8]
  {
    let decoded = try ImageDecoder().decode(
      bytes, options: DecodeOptions(target: configuration.box, fit: configuration.fit, maxBytes: 64 << 20))
    let geometry = ThumbnailGeometry(
      source: decoded.originalSize, box: configuration.box, fit: configuration.fit)
    let pixels = Resampler().resize(decoded, geometry: geometry)
    return try ImageEncoder().encode(pixels, options: configuration.variant.encoding)
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
