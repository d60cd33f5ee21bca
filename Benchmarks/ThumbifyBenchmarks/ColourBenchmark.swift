import Foundation
import Thumbify

/// `colour`: what colour management costs per 600×315 WebP card, through the `Thumbnailer`.
///
/// The repository's JPEG photos (`samples/photos`) are thumbnailed as they are (no profile), tagged
/// with an sRGB profile (a digest and a cache lookup: the planar path stays open) and tagged with a
/// wide-gamut profile (the RGB path plus a Little CMS conversion at the decode's size), in interleaved
/// rounds; medians and ratios to the untagged run. The profiles are `icc-profiles-free`'s
/// (`--srgb <icc>`, `--wide <icc>`). No peer runs here: the imaging suite compares with vipsthumbnail
/// and Pillow.
enum ColourBenchmark {
  static func run(_ arguments: [String]) async throws {
    let icc = "/usr/share/color/icc/"
    let sRGBPath = ImagingBenchmark.option("--srgb", in: arguments) ?? icc + "sRGB.icc"
    let widePath = ImagingBenchmark.option("--wide", in: arguments) ?? icc + "compatibleWithAdobeRGB1998.icc"
    let samples = Int(ImagingBenchmark.option("--samples", in: arguments) ?? "") ?? 9
    guard let sRGB = FileManager.default.contents(atPath: sRGBPath),
      let wide = FileManager.default.contents(atPath: widePath)
    else {
      print(
        "colour: needs \(sRGBPath) and \(widePath) (scripts/install-deps bench installs icc-profiles-free)")
      return
    }
    let photos = "samples/photos"
    let jpegs = try FileManager.default.contentsOfDirectory(atPath: photos).filter { $0.hasSuffix(".jpg") }
      .sorted()
      .compactMap { FileManager.default.contents(atPath: photos + "/" + $0).map { [UInt8]($0) } }
    let kinds: [(name: String, files: [[UInt8]])] = [
      ("no profile", jpegs),
      ("sRGB profile", jpegs.map { tagged($0, [UInt8](sRGB)) }),
      ("wide-gamut profile", jpegs.map { tagged($0, [UInt8](wide)) }),
    ]
    let scratch = NSTemporaryDirectory() + "thumbify-colour-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let thumbnailer = Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: scratch))
    // The 600×315 WebP q80 card this suite has always measured (not `.card`, whose encoding changed).
    let card = ThumbnailVariant(name: "card", box: Size(width: 600, height: 315))
    var rates = [[Double]](repeating: [], count: kinds.count)
    for round in 0...samples {  // round 0 warms up (and builds the cached transforms)
      for (index, kind) in kinds.enumerated() {
        let start = ContinuousClock.now
        for _ in 0..<10 {
          for file in kind.files {
            blackHole(try thumbnailer.thumbnails(of: file, source: "bench", variants: [card]))
          }
        }
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        if round > 0 { rates[index].append(Double(kind.files.count * 10) / seconds) }
      }
    }
    let medians = rates.map { $0.sorted()[$0.count / 2] }
    print(
      "colour: \(jpegs.count) JPEGs × 10 per round, \(samples) interleaved rounds after 1 warm-up; medians")
    for (index, kind) in kinds.enumerated() {
      print(
        String(
          format: "  %-20@ %7.1f cards/s  %.3fx the untagged rate", kind.name as NSString, medians[index],
          medians[index] / medians[0]))
    }
  }

  /// `jpeg` with `profile` in one APP2 `ICC_PROFILE` segment after SOI (profiles under 64 KB).
  static func tagged(_ jpeg: [UInt8], _ profile: [UInt8]) -> [UInt8] {
    let payload = Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
    let length = payload.count + 2
    return Array(jpeg[0..<2]) + [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
      + Array(jpeg[2...])
  }
}
