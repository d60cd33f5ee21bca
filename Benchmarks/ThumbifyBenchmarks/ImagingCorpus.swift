import Foundation
import Synchronization
import Thumbify

/// The imaging benchmark's inputs and the peers it is compared with.
enum ImagingCorpus {
  /// One benchmark configuration: the thumbnail every tool makes.
  struct Configuration {
    var name: String
    var box: Size
    var fit: Fit
    var format: OutputFormat
    var quality = 80

    var variant: ThumbnailVariant {
      ThumbnailVariant(name: name, box: box, fit: fit, format: format, quality: quality)
    }
  }

  static let configurations = [
    Configuration(
      name: "card 600x315 contain webp q80", box: Size(width: 600, height: 315), fit: .contain, format: .webp),
    Configuration(name: "icon 64x64 cover png", box: Size(width: 64, height: 64), fit: .cover, format: .png),
  ]

  /// The corpus files, built by `Benchmarks/imaging/make-corpus.py` when missing (`--colour`: the
  /// colour-managed corpus).
  static func files(in directory: String, colour: Bool = false) throws -> [String] {
    if !FileManager.default.fileExists(atPath: directory) {
      try run(
        "/usr/bin/python3", ["Benchmarks/imaging/make-corpus.py"] + (colour ? ["--colour"] : []) + [directory]
      )
    }
    return try FileManager.default.contentsOfDirectory(atPath: directory).sorted().map {
      directory + "/" + $0
    }
  }

  /// Runs a program to completion; throws when it fails.
  @discardableResult
  static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
    -> String
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchmarkFailure(
        "\(executable) \(arguments.prefix(3).joined(separator: " ")) … exited \(process.terminationStatus)")
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// `vipsthumbnail` over `files` with the same box, fit, format and quality;
  /// `processes` runs split the files, each with `VIPS_CONCURRENCY=1`.
  /// `colourFlags` go before the files (``vipsColourFlags`` for the colour-managed corpus).
  static func vipsthumbnail(
    _ files: [String], _ configuration: Configuration, out: String, processes: Int, colourFlags: [String] = []
  ) throws {
    let arguments = vipsArguments(configuration, out: out) + colourFlags
    let chunks = (0..<processes).map { index in
      stride(from: index, to: files.count, by: processes).map { files[$0] }
    }
    let running = try chunks.map { chunk in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/vipsthumbnail")
      process.arguments = arguments + chunk
      process.environment = ProcessInfo.processInfo.environment.merging(["VIPS_CONCURRENCY": "1"]) { $1 }
      try process.run()
      return process
    }
    for process in running {
      process.waitUntilExit()
      guard process.terminationStatus == 0 else { throw BenchmarkFailure("vipsthumbnail failed") }
    }
  }

  /// `vipsthumbnail` 8.14's flags for converting an embedded profile to sRGB as thumbify does (perceptual;
  /// it has no black-point compensation flag). Without `--export-profile` it converts only CMYK.
  static let vipsColourFlags = ["--export-profile", "srgb", "--intent", "perceptual"]

  /// `vipsthumbnail`'s options for a configuration (the files follow).
  static func vipsArguments(_ configuration: Configuration, out: String) -> [String] {
    let format = configuration.format == .webp ? "webp[Q=\(configuration.quality),strip]" : "png[strip]"
    var arguments = ["--size", configuration.box.description, "-o", "\(out)/%s.\(format)"]
    if configuration.fit == .cover { arguments += ["--smartcrop", "centre"] }
    return arguments
  }

  /// The peak RSS in KiB of one `vipsthumbnail` process over all `files` (untimed), from GNU `time`:
  /// `getrusage(RUSAGE_CHILDREN)` would report at least this process's own peak (see `ChildProcess`).
  static func vipsPeakRSSKiB(_ files: [String], _ configuration: Configuration, out: String) throws -> Int {
    try ChildProcess.run(
      "/usr/bin/env",
      ["VIPS_CONCURRENCY=1", "/usr/bin/vipsthumbnail"] + vipsArguments(configuration, out: out) + files
    ).peakRSSKiB
  }

  /// A long-lived Pillow process (`pillow-thumbnail.py … serve`) that runs one
  /// timed pass per request, so its samples interleave with the other tools'.
  final class PillowPeer {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered = Data()

    /// `managesColour`: `--srgb`, embedded profiles converted to sRGB (perceptual, black-point compensation).
    init(
      _ files: [String], _ configuration: Configuration, out: String, threads: Int,
      managesColour: Bool = false
    )
      throws
    {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
      process.arguments =
        ["Benchmarks/imaging/pillow-thumbnail.py"] + (managesColour ? ["--srgb"] : [])
        + [
          configuration.box.description, configuration.fit.rawValue,
          configuration.format.rawValue, String(configuration.quality), String(threads), "serve", out,
        ] + files
      process.standardInput = input
      process.standardOutput = output
      try process.run()
    }

    /// Runs one pass; returns its wall and CPU seconds as Python measured them (CPU -1 with a pool).
    func sample() throws -> (wall: Double, cpu: Double) {
      input.fileHandleForWriting.write(Data("go\n".utf8))
      let line = try readLine()
      let parts = line.split(separator: " ")
      guard parts.count == 4, parts[0] == "seconds", let wall = Double(parts[1]), let cpu = Double(parts[3])
      else {
        throw BenchmarkFailure("Pillow answered '\(line)'")
      }
      return (wall, cpu)
    }

    /// Ends the process; returns its peak RSS in KiB.
    func finish() throws -> Int {
      try input.fileHandleForWriting.close()
      let line = try readLine()
      process.waitUntilExit()
      return Int(line.split(separator: " ").last ?? "") ?? 0
    }

    private func readLine() throws -> String {
      while true {
        if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
          let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
          buffered = Data(buffered[(newline + 1)...])
          return line
        }
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { throw BenchmarkFailure("Pillow exited early") }
        buffered += chunk
      }
    }
  }

  /// The peak resident set of this process so far, in KiB (`VmHWM`).
  static func peakRSSKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return Int(line.split(separator: " ")[1]) ?? 0
    }
    return 0
  }

  /// User + system CPU seconds of this process (`RUSAGE_SELF`) or of its waited-for children.
  static func cpuSeconds(children: Bool) -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue), &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return user + system
  }
}

/// A benchmark step that could not run.
struct BenchmarkFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Writes each blob to a file named by its SHA-256, every time: atomically as
/// `BlobStore` does, but with no `fsync` and no skip-if-present, as
/// `vipsthumbnail` and Pillow write theirs.
struct BenchmarkStore: BlobStoring {
  var directory: String

  func store(_ bytes: [UInt8], fileExtension: String) throws(StoreError) -> StoredBlob {
    let sha256 = SHA256Digest.hex(of: bytes)
    let path = "\(sha256).\(fileExtension)"
    // Not `FileManager.createFile` (used until 2 Dec 2026): it flushes every file (`strace`).
    try FileSystem.writeAtomically(bytes, to: directory + "/" + path, isDurable: false)
    return StoredBlob(path: path, sha256: sha256, bytes: bytes.count, isNew: true)
  }
}

/// Keeps the last stored blob's bytes (the quality pass reads thumbify's output back).
final class CapturingStore: BlobStoring {
  let bytes = Mutex<[UInt8]>([])

  func store(_ bytes: [UInt8], fileExtension: String) throws(StoreError) -> StoredBlob {
    self.bytes.withLock { $0 = bytes }
    return StoredBlob(path: "", sha256: "", bytes: bytes.count, isNew: true)
  }
}
