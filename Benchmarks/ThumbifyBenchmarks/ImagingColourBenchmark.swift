import Foundation
import Thumbify

/// `imaging --colour`: the colour-managed corpus (`make-corpus.py --colour`) against `vipsthumbnail`
/// and Pillow, both converting embedded profiles to sRGB, in the same run, per kind of source.
///
/// Each kind (untagged sRGB, Adobe RGB, ProPhoto and CMYK JPEGs, untagged AVIF; twelve photos each)
/// is a group of 600×315 WebP cards on one thread; every round runs every kind with every tool, so
/// the machine's load hits all alike; medians. `vipsthumbnail` runs twice, with
/// ``ImagingCorpus/vipsColourFlags`` and without (what `--export-profile` costs it). Pillow has no
/// AVIF decoder (9.4): n/a. Then SSIM and PSNR per kind against the double-precision reference made
/// from thumbify's own colour-managed full decode.
enum ImagingColourBenchmark {
  /// One tool's wall and CPU rates over the rounds.
  private struct Rates {
    var wall: [Double] = []
    var cpu: [Double] = []
  }

  static func run(_ arguments: [String], samples: Int, headroom: Double) throws {
    let corpus = ImagingBenchmark.option("--corpus", in: arguments) ?? ".build/imaging-corpus-colour"
    let files = try ImagingCorpus.files(in: corpus, colour: true)
    let kinds = Dictionary(grouping: files, by: ImagingBenchmark.kind(of:)).sorted { $0.key < $1.key }
    var configuration = ImagingCorpus.configurations[0]
    // Every tool's card quality, for comparing builds at qualities other than the card's (docs/imaging.md).
    if let quality = ImagingBenchmark.option("--quality", in: arguments).flatMap(Int.init) {
      configuration.quality = quality
      configuration.name = "card 600x315 contain webp q\(quality)"
    }
    let out = NSTemporaryDirectory() + "thumbify-imaging-colour-bench-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: out) }
    let thumbifyOut = try ImagingBenchmark.directory(out, "thumbify-1")
    let vipsOut = try ImagingBenchmark.directory(out, "vips-1")
    let plainOut = try ImagingBenchmark.directory(out, "vips-plain")
    let pillowOut = try ImagingBenchmark.directory(out, "pillow-1")
    print(
      "colour corpus: \(files.count) images in \(corpus), \(kinds.count) kinds; \(configuration.name), 1 thread; "
        + "\(samples) interleaved rounds after 1 warm-up; medians; vipsthumbnail "
        + ImagingCorpus.vipsColourFlags.joined(separator: " ") + ", Pillow --srgb")
    let pillows = try kinds.map { kind in
      kind.key.hasSuffix(".avif")
        ? nil
        : try ImagingCorpus.PillowPeer(
          kind.value, configuration, out: pillowOut, threads: 1, managesColour: true)
    }
    var thumbify = [Rates](repeating: Rates(), count: kinds.count)
    var vips = thumbify
    var plain = thumbify
    var pillow = thumbify
    for round in 0...samples {  // round 0 warms up every tool (and builds thumbify's cached transforms)
      for (index, kind) in kinds.enumerated() {
        let count = Double(kind.value.count)
        var cpu = ImagingCorpus.cpuSeconds(children: false)
        let thumbifyRate = try ImagingBenchmark.timed(kind.value.count) {
          _ = try ImagingBenchmark.thumbnailAll(
            kind.value, configuration, out: thumbifyOut, threads: 1, headroom: headroom)
        }
        let thumbifyCPU = count / (ImagingCorpus.cpuSeconds(children: false) - cpu)
        cpu = ImagingCorpus.cpuSeconds(children: true)
        let vipsRate = try ImagingBenchmark.timed(kind.value.count) {
          try ImagingCorpus.vipsthumbnail(
            kind.value, configuration, out: vipsOut, processes: 1, colourFlags: ImagingCorpus.vipsColourFlags)
        }
        let vipsCPU = count / (ImagingCorpus.cpuSeconds(children: true) - cpu)
        cpu = ImagingCorpus.cpuSeconds(children: true)
        let plainRate = try ImagingBenchmark.timed(kind.value.count) {
          try ImagingCorpus.vipsthumbnail(kind.value, configuration, out: plainOut, processes: 1)
        }
        let plainCPU = count / (ImagingCorpus.cpuSeconds(children: true) - cpu)
        let pillowSample = try pillows[index]?.sample()
        guard round > 0 else { continue }
        thumbify[index].wall.append(thumbifyRate)
        thumbify[index].cpu.append(thumbifyCPU)
        vips[index].wall.append(vipsRate)
        vips[index].cpu.append(vipsCPU)
        plain[index].wall.append(plainRate)
        plain[index].cpu.append(plainCPU)
        if let pillowSample {
          pillow[index].wall.append(count / pillowSample.wall)
          pillow[index].cpu.append(count / pillowSample.cpu)
        }
      }
    }
    for pillow in pillows { _ = try pillow?.finish() }
    let untagged = kinds.firstIndex { $0.key.hasSuffix("-srgb.jpg") }
    print("\nper CPU-second: images/s of each tool; ratios are the medians of the per-round ratios")
    print(
      "  kind                    thumbify  vs untagged   vips -e  vips plain    Pillow   thumbify/vips -e"
        + "  thumbify/vips plain  thumbify/Pillow")
    for (index, kind) in kinds.enumerated() {
      let rate = ImagingBenchmark.median(thumbify[index].cpu)
      let versusUntagged = untagged.map {
        String(format: "%.3fx", rate / ImagingBenchmark.median(thumbify[$0].cpu))
      }
      let columns = [
        String(format: "%.2f", rate), versusUntagged ?? "-",
        String(format: "%.2f", ImagingBenchmark.median(vips[index].cpu)),
        String(format: "%.2f", ImagingBenchmark.median(plain[index].cpu)),
        pillow[index].cpu.isEmpty
          ? "n/a" : String(format: "%.2f", ImagingBenchmark.median(pillow[index].cpu)),
        String(format: "%.2fx", ratio(thumbify[index].cpu, vips[index].cpu)),
        String(format: "%.2fx", ratio(thumbify[index].cpu, plain[index].cpu)),
        pillow[index].cpu.isEmpty
          ? "n/a" : String(format: "%.2fx", ratio(thumbify[index].cpu, pillow[index].cpu)),
      ]
      let widths = [8, 13, 10, 12, 10, 19, 21, 17]
      print("  " + padded(kind.key, 22) + zip(columns, widths).map { leftPadded($0, $1) }.joined())
    }
    print("wall clock: images/s")
    for (index, kind) in kinds.enumerated() {
      let pillowWall =
        pillow[index].wall.isEmpty
        ? "n/a" : String(format: "%.2f", ImagingBenchmark.median(pillow[index].wall))
      print(
        "  " + padded(kind.key, 22)
          + String(
            format: "  thumbify %.2f   vips -e %.2f   vips plain %.2f   ",
            ImagingBenchmark.median(thumbify[index].wall),
            ImagingBenchmark.median(vips[index].wall), ImagingBenchmark.median(plain[index].wall))
          + "Pillow \(pillowWall)   thumbify/vips -e "
          + String(format: "%.2fx", ratio(thumbify[index].wall, vips[index].wall)))
    }
    // The quality pass reads the single-thread outputs from `vips-1` and `pillow-1` (the colour-managed runs).
    var perCard: [(file: String, ssim: Double)] = []
    for kind in kinds {
      print("\n-- \(kind.key)")
      perCard += try ImagingBenchmark.quality(kind.value, configuration, out: out, headroom: headroom)
    }
    // One line per card, for `Benchmarks/imaging/paired-ssim.py` (two builds card by card).
    if let path = ImagingBenchmark.option("--ssim-per-card", in: arguments) {
      let lines = perCard.map { card in
        let stem = ((card.file as NSString).lastPathComponent as NSString).deletingPathExtension
        return "\(ImagingBenchmark.kind(of: card.file))\t\(stem)\t\(String(format: "%.6f", card.ssim))\n"
      }
      try lines.joined().write(toFile: path, atomically: true, encoding: .utf8)
      print("\nthumbify's SSIM per card: \(path)")
    }
  }

  private static func padded(_ text: String, _ width: Int) -> String {
    text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
  }

  private static func leftPadded(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  /// The median of the per-round ratios `a[i] / b[i]`.
  private static func ratio(_ a: [Double], _ b: [Double]) -> Double {
    ImagingBenchmark.median(zip(a, b).map { $0 / $1 })
  }
}
