import Foundation
import Synchronization
import Thumbify

/// Where thumbify's single-thread time per image goes: the decoder's and the
/// encoder's calls (libjpeg-turbo, libpng, libwebp behind thumbify's thin
/// wrappers) against everything else (resize, placeholder, SHA-256, store).
///
/// The decoder and encoder calls are the floor: both tools must make them at
/// these settings (the same output format, quality and WebP method, decoded at
/// the scale that gives equal SSIM), so `vipsthumbnail`'s CPU time per image
/// divided by that floor is the most thumbify could reach with its own code
/// costing nothing.
enum ImagingPhases {
  struct Split {
    var decode: Double
    var encode: Double
    var total: Double
    var floor: Double { decode + encode }
  }

  /// The split per image, in CPU seconds, over `passes` single-thread passes: for every file the
  /// pass with its median total (so a file's three figures come from one pass), averaged over the
  /// corpus and over each file kind (`ImagingBenchmark.kind(of:)`).
  static func measure(
    _ files: [String], _ configuration: ImagingCorpus.Configuration, out: String, passes: Int,
    limits: DecodeOptions, usesPlanarPath: Bool
  ) throws -> (all: Split, kinds: [(kind: String, split: Split)]) {
    let clock = PhaseClock()
    let thumbnailer = Thumbnailer(
      decoder: TimedDecoder(clock: clock), encoder: TimedEncoder(clock: clock),
      store: BenchmarkStore(directory: out), limits: limits, usesPlanarPath: usesPlanarPath)
    var perFile = [[Split]](repeating: [], count: files.count)
    for _ in 0..<passes {
      for (index, file) in files.enumerated() {
        let bytes = try FileSystem.readFile(file, limit: 64 << 20)
        clock.reset()
        let start = PhaseClock.threadSeconds()
        _ = try thumbnailer.thumbnails(of: bytes, source: file, variants: [configuration.variant])
        let total = PhaseClock.threadSeconds() - start
        let phases = clock.seconds
        perFile[index].append(Split(decode: phases.decode, encode: phases.encode, total: total))
      }
    }
    let medians = perFile.map { $0.sorted { $0.total < $1.total }[$0.count / 2] }
    func mean(_ splits: [Split]) -> Split {
      let count = Double(splits.count)
      return Split(
        decode: splits.map(\.decode).reduce(0, +) / count, encode: splits.map(\.encode).reduce(0, +) / count,
        total: splits.map(\.total).reduce(0, +) / count)
    }
    let byKind = Dictionary(grouping: zip(files, medians), by: { ImagingBenchmark.kind(of: $0.0) })
    let kinds = byKind.keys.sorted().map { (kind: $0, split: mean(byKind[$0]!.map(\.1))) }
    return (mean(medians), kinds)
  }
}

/// Thread CPU time spent in decoder and encoder calls.
final class PhaseClock: Sendable {
  private let state = Mutex((decode: 0.0, encode: 0.0))

  var seconds: (decode: Double, encode: Double) { state.withLock { $0 } }

  func reset() { state.withLock { $0 = (0, 0) } }

  enum Phase { case decode, encode }

  func timing<T, E: Error>(_ phase: Phase, _ body: () throws(E) -> T) throws(E) -> T {
    let start = Self.threadSeconds()
    defer {
      let elapsed = Self.threadSeconds() - start
      state.withLock {
        switch phase {
        case .decode: $0.decode += elapsed
        case .encode: $0.encode += elapsed
        }
      }
    }
    return try body()
  }

  /// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`).
  static func threadSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }
}

/// `ImageDecoder`, planes included, with its calls timed.
struct TimedDecoder: PlanarImageDecoding {
  let clock: PhaseClock
  let decoder = ImageDecoder()

  func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
    try clock.timing(.decode) { () throws(ImageError) in try decoder.decode(data, options: options) }
  }

  func decodePlanes(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedPlanes? {
    try clock.timing(.decode) { () throws(ImageError) in try decoder.decodePlanes(data, options: options) }
  }
}

/// `ImageEncoder`, planes included, with its calls timed.
struct TimedEncoder: PlanarImageEncoding {
  let clock: PhaseClock
  let encoder = ImageEncoder()

  func encode(_ image: PixelBuffer, options: EncodeOptions) throws(ImageError) -> [UInt8] {
    try clock.timing(.encode) { () throws(ImageError) in try encoder.encode(image, options: options) }
  }

  func encode(_ image: YCbCrImage, options: EncodeOptions) throws(ImageError) -> [UInt8] {
    try clock.timing(.encode) { () throws(ImageError) in try encoder.encode(image, options: options) }
  }

  func acceptsPlanes(for options: EncodeOptions) -> Bool { encoder.acceptsPlanes(for: options) }
}
