import Foundation
import Thumbify

/// One `thumbify thumb` run: thumbnails every input on a bounded pool, then
/// writes the manifest atomically, in input order.
struct ThumbJob: Sendable {
  var output: String
  var variant: ThumbnailVariant
  var decoder: any ImageDecoding
  /// Images processed at once (the number of cores).
  var concurrency: Int
  /// Local files may be larger than the crawler's 10 MB download cap.
  var limits = DecodeOptions(maxBytes: 64 << 20)

  /// Runs the job and returns the exit code: 0 all succeeded, 1 some failed, 70 output not writable.
  func run(_ sources: [String], console: Console) async -> Int32 {
    do {
      try FileSystem.makeDirectories(output + "/blobs")
    } catch {
      console.printError("Error: \(error)")
      return ExitCode.fatal
    }
    let thumbnailer = Thumbnailer(
      decoder: decoder, store: BlobStore(root: output), limits: limits)
    let standardInput = sources.contains("-") ? console.readStandardInput() : []
    let records = await withTaskGroup(of: (Int, ThumbRecord).self) { group in
      var records = [ThumbRecord?](repeating: nil, count: sources.count)
      var next = 0
      func addNext() {
        let index = next
        let source = sources[index]
        let variant = variant
        let limits = limits
        group.addTask {
          (
            index,
            Self.thumbnail(
              source, standardInput: standardInput, limits: limits, variant: variant, with: thumbnailer)
          )
        }
        next += 1
      }
      while next < min(concurrency, sources.count) { addNext() }
      for await (index, record) in group {
        records[index] = record
        if next < sources.count { addNext() }
      }
      return records.compactMap { $0 }
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var manifest: [UInt8] = []
    for record in records {
      guard let line = try? encoder.encode(record) else { continue }
      manifest += line
      manifest.append(UInt8(ascii: "\n"))
    }
    let manifestPath = output + "/manifest.jsonl"
    do {
      try FileSystem.writeAtomically(manifest, to: manifestPath)
    } catch {
      console.printError("Error: \(error)")
      return ExitCode.fatal
    }
    let failures = records.filter { $0.error != nil }
    for failure in failures {
      console.printError("\(failure.source): \(failure.error?.message ?? "")")
    }
    console.print(
      "\(records.count - failures.count) of \(records.count) images thumbnailed; manifest: \(manifestPath)")
    return failures.isEmpty ? ExitCode.success : ExitCode.someFailed
  }

  /// The manifest record of one input.
  static func thumbnail(
    _ source: String, standardInput: [UInt8], limits: DecodeOptions, variant: ThumbnailVariant,
    with thumbnailer: Thumbnailer
  ) -> ThumbRecord {
    let bytes: [UInt8]
    if source == "-" {
      bytes = standardInput
    } else {
      do {
        bytes = try FileSystem.readFile(source, limit: limits.maxBytes)
      } catch {
        return ThumbRecord(source: source, error: RecordError(code: "unreadableInput", message: "\(error)"))
      }
    }
    do {
      let set = try thumbnailer.thumbnails(of: bytes, source: source, variants: [variant])
      return ThumbRecord(source: source, set: set)
    } catch {
      return ThumbRecord(source: source, error: RecordError(code: error.code, message: error.description))
    }
  }
}
