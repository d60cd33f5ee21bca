import Dispatch
import Foundation
import Synchronization
import Thumbify

/// thumbify's thumbnailer against `vipsthumbnail` and Pillow, in the same run,
/// on a corpus of real photos: throughput (images/s, ratios), SSIM against a
/// double-precision Lanczos3 reference, and peak RSS.
///
/// `swift run -c release thumbify-benchmarks imaging [--samples N] [--corpus DIR] [--headroom X] [--jpeg-headroom X] [--box-headroom X] [--rgb-path]
/// [--quality-only] [--colour]`
///
/// `--colour` runs the colour-managed corpus instead (``ImagingColourBenchmark``); with it,
/// `--quality N` sets every tool's card quality and `--ssim-per-card FILE` writes thumbify's SSIM per
/// card (kind, stem, SSIM; tab-separated) for `Benchmarks/imaging/paired-ssim.py`.
///
/// `--headroom` is thumbify's shrink-on-load headroom (`DecodeOptions.shrinkHeadroom`):
/// 1 decodes at the smallest JPEG/WebP scale that covers the thumbnail; libvips
/// and Pillow leave a factor of 2.
enum ImagingBenchmark {
  /// `false` with `--rgb-path`: thumbify's Y′CbCr planar path off (`Thumbnailer.usesPlanarPath`).
  // Written once by run(_:) before any thumbnailing starts, read-only afterwards.
  nonisolated(unsafe) static var usesPlanarPath = true
  /// `--jpeg-headroom`: `DecodeOptions.jpegShrinkHeadroom` (same rule as `usesPlanarPath`).
  nonisolated(unsafe) static var jpegHeadroom = DecodeOptions().jpegShrinkHeadroom
  /// `--box-headroom`: `DecodeOptions.boxShrinkHeadroom` (PNG and GIF; same rule).
  nonisolated(unsafe) static var boxHeadroom = DecodeOptions().boxShrinkHeadroom

  static func run(_ arguments: [String]) async throws {
    let samples = option("--samples", in: arguments).flatMap(Int.init) ?? 5
    let headroom = option("--headroom", in: arguments).flatMap(Double.init) ?? DecodeOptions().shrinkHeadroom
    let corpus = option("--corpus", in: arguments) ?? ".build/imaging-corpus"
    usesPlanarPath = !arguments.contains("--rgb-path")
    if let value = option("--jpeg-headroom", in: arguments) { jpegHeadroom = Double(value) }
    if let value = option("--box-headroom", in: arguments).flatMap(Double.init) { boxHeadroom = value }
    if arguments.contains("--colour") {
      return try ImagingColourBenchmark.run(arguments, samples: samples, headroom: headroom)
    }
    let files = try ImagingCorpus.files(in: corpus)
    let out = NSTemporaryDirectory() + "thumbify-imaging-bench-\(getpid())"
    print(
      "corpus: \(files.count) images in \(corpus); \(samples) interleaved rounds after 1 warm-up; medians; "
        + "thumbify shrink-on-load headroom \(headroom) (JPEG \(jpegHeadroom ?? headroom), PNG/GIF box \(boxHeadroom)), \(usesPlanarPath ? "planar" : "RGB") path"
    )
    let rssAtStart = ImagingCorpus.peakRSSKiB()
    var rssAfterFirstPass = 0
    var pillowRSS = 0
    var vipsRSS = 0
    let isTimed = !arguments.contains("--quality-only")
    for configuration in ImagingCorpus.configurations where isTimed {
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
        if threads == 1 {
          vipsRSS = max(vipsRSS, try ImagingCorpus.vipsPeakRSSKiB(files, configuration, out: vipsOut))
        }
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
        if threads == 1 {
          let (split, kinds) = try ImagingPhases.measure(
            files, configuration, out: thumbifyOut, passes: samples,
            limits: limits(headroom: headroom),
            usesPlanarPath: usesPlanarPath)
          let vipsSeconds = 1 / median(cpuRates.vips)
          print(
            "           thumbify's CPU per image: decoder calls \(milliseconds(split.decode)) + encoder calls "
              + "\(milliseconds(split.encode)) + the rest \(milliseconds(split.total - split.floor)) = "
              + "\(milliseconds(split.total)); vipsthumbnail \(milliseconds(vipsSeconds))")
          print(
            "           ceiling with the rest free: vipsthumbnail / (decoder + encoder calls) = "
              + "\(format(vipsSeconds / split.floor))x per CPU-second")
          for (kind, split) in kinds {
            print(
              "             \(kind.padding(toLength: 21, withPad: " ", startingAt: 0)) decoder "
                + "\(milliseconds(split.decode))   encoder \(milliseconds(split.encode))   rest "
                + "\(milliseconds(split.total - split.floor))")
          }
        }
      }
    }
    if !isTimed {
      // The quality pass reads vipsthumbnail's and Pillow's single-thread outputs.
      for configuration in ImagingCorpus.configurations {
        try ImagingCorpus.vipsthumbnail(files, configuration, out: try directory(out, "vips-1"), processes: 1)
        let pillow = try ImagingCorpus.PillowPeer(
          files, configuration, out: try directory(out, "pillow-1"), threads: 1)
        _ = try pillow.sample()
        _ = try pillow.finish()
      }
    }
    let imagesProcessed = files.count * (samples + 1) * 2 * ImagingCorpus.configurations.count
    if isTimed {
      print(
        "\npeak RSS (VmHWM) of the thumbify process: \(rssAtStart / 1024) MiB at start, "
          + "\(rssAfterFirstPass / 1024) MiB after its first \(files.count) images, "
          + "\(ImagingCorpus.peakRSSKiB() / 1024) MiB after all \(imagesProcessed); one vipsthumbnail process over "
          + "the corpus \(vipsRSS / 1024) MiB (GNU time), Pillow (main process) \(pillowRSS / 1024) MiB"
      )
    }
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
      limits: limits(headroom: headroom),
      usesPlanarPath: usesPlanarPath)
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

  /// Mean SSIM of each tool's output against the double-precision reference; returns thumbify's SSIM
  /// per file (the colour benchmark's `--ssim-per-card`).
  @discardableResult
  static func quality(
    _ files: [String], _ configuration: ImagingCorpus.Configuration, out: String, headroom: Double
  )
    throws -> [(file: String, ssim: Double)]
  {
    var thumbifyPerFile: [(file: String, ssim: Double)] = []
    let decoder = ImageDecoder()
    let full = DecodeOptions(maxBytes: 64 << 20)
    var totals: [String: (sum: Double, count: Int, mismatched: Int)] = [:]
    var perKind: [String: [String: (sum: Double, count: Int)]] = [:]
    var psnr: [String: [Double]] = [:]
    var exactTotals: [String: (sum: Double, count: Int)] = [:]
    for file in files {
      let bytes = try FileSystem.readFile(file, limit: 64 << 20)
      let source = try decoder.decode(bytes, options: full)
      let geometry = ThumbnailGeometry(
        source: source.originalSize, box: configuration.box, fit: configuration.fit)
      let reference = ReferenceResampler().resize(source.buffer, geometry: geometry)
      // A tagged RGB JPEG's second reference, converted in double precision (ExactColourReference).
      let exactReference = try ExactColourReference.split(bytes).flatMap { split in
        ExactColourReference.convert(
          try decoder.decode(split.jpeg, options: full).buffer, from: split.profile)
      }.map { ReferenceResampler().resize($0, geometry: geometry) }
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
        let channels = channelPSNR(decoded.buffer, reference)
        psnr[tool, default: [0, 0, 0]] = zip(psnr[tool, default: [0, 0, 0]], channels).map {
          $0 + $1 / Double(files.count)
        }
        if let exactReference, let exact = StructuralSimilarity.ssim(decoded.buffer, exactReference) {
          exactTotals[tool, default: (0, 0)].sum += exact
          exactTotals[tool, default: (0, 0)].count += 1
        }
        if tool == "thumbify" { thumbifyPerFile.append((file, ssim)) }
        totals[tool, default: (0, 0, 0)].sum += ssim
        totals[tool, default: (0, 0, 0)].count += 1
        perKind[kind(of: file), default: [:]][tool, default: (0, 0)].sum += ssim
        perKind[kind(of: file), default: [:]][tool, default: (0, 0)].count += 1
      }
    }
    let line = ["thumbify", "vipsthumbnail", "Pillow"].map { tool in
      let total = totals[tool] ?? (0, 0, 0)
      let mean = total.count > 0 ? total.sum / Double(total.count) : 0
      let skipped = total.mismatched > 0 ? " (\(total.mismatched) skipped: size differs/undecodable)" : ""
      return "\(tool) \(String(format: "%.5f", mean))\(skipped)"
    }
    print("SSIM vs double-precision Lanczos3 (mean over \(files.count)): " + line.joined(separator: "   "))
    if !exactTotals.isEmpty {
      let sameReference = means(totals.mapValues { ($0.sum, $0.count) }, digits: 5)
      print(
        "SSIM vs the reference converted in double precision (ExactColourReference; the same reference "
          + "above: \(sameReference)): " + means(exactTotals, digits: 5))
    }
    print(
      "per-channel PSNR (dB, R/G/B, mean): "
        + ["thumbify", "vipsthumbnail", "Pillow"].map { tool in
          "\(tool) " + (psnr[tool] ?? []).map { String(format: "%.2f", $0) }.joined(separator: "/")
        }.joined(separator: "   "))
    for kind in perKind.keys.sorted() {
      print("  \(kind): " + means(perKind[kind] ?? [:], digits: 4))
    }
    return thumbifyPerFile
  }

  /// Each tool's mean (`sum / count`, 0 without a value) with `digits` decimals: "thumbify 0.9793   …".
  private static func means(_ sums: [String: (sum: Double, count: Int)], digits: Int) -> String {
    ["thumbify", "vipsthumbnail", "Pillow"].map { tool in
      let total = sums[tool] ?? (0, 0)
      return "\(tool) "
        + String(format: "%.\(digits)f", total.count > 0 ? total.sum / Double(total.count) : 0)
    }.joined(separator: "   ")
  }

  /// Per-channel PSNR (dB) of `image` against `reference` (RGB or RGBA, same size; alpha ignored).
  static func channelPSNR(_ image: PixelBuffer, _ reference: PixelBuffer) -> [Double] {
    (0..<3).map { channel in
      var squared = 0.0
      var count = 0
      for pixel in 0..<(image.width * image.height) {
        let difference =
          Double(image.pixels[pixel * image.channels + channel])
          - Double(reference.pixels[pixel * reference.channels + channel])
        squared += difference * difference
        count += 1
      }
      return 10 * log10(255 * 255 / max(squared / Double(max(1, count)), 1e-9))
    }
  }

  /// A corpus file's kind: its name after the photo's stem (`1200x630.jpg`, `1600x900.webp`, …).
  static func kind(of file: String) -> String {
    let name = (file as NSString).lastPathComponent
    guard let dash = name.firstIndex(of: "-") else { return name }
    return String(name[name.index(after: dash)...])
  }

  /// thumbify's encoded thumbnail of `bytes`, exactly as the timed runs make it (`Thumbnailer`).
  static func thumbifyOutput(_ bytes: [UInt8], _ configuration: ImagingCorpus.Configuration, headroom: Double)
    throws -> [UInt8]
  {
    let store = CapturingStore()
    let thumbnailer = Thumbnailer(
      decoder: ImageDecoder(), store: store,
      limits: limits(headroom: headroom),
      usesPlanarPath: usesPlanarPath)
    _ = try thumbnailer.thumbnails(of: bytes, source: "", variants: [configuration.variant])
    return store.bytes.withLock { $0 }
  }

  /// The decode limits and shrink-on-load headrooms of every thumbify pass.
  static func limits(headroom: Double) -> DecodeOptions {
    DecodeOptions(
      maxBytes: 64 << 20, shrinkHeadroom: headroom, jpegShrinkHeadroom: jpegHeadroom,
      boxShrinkHeadroom: boxHeadroom)
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

  static func milliseconds(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }
}
