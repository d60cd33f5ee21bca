import Foundation
import ThumbifySystem

/// `thumbify thumb` as a library call: thumbnails of local images, made on the crawl's bounded CPU pool,
/// stored as content-addressed blobs of one output directory, and a manifest of one `CrawlRecord` per
/// input, in input order, replaced atomically.
///
/// The records are a crawl's, so everything that reads a crawl's manifest (`thumbify report`,
/// `thumbify cards`, `thumbify gc`) reads them: `originalURL` is the path as given, `normalizedURL`
/// its absolute `file://` URL (`-`, standard input, stays `-`), `image` the thumbnails and the source's
/// size, `error` why there are none.
///
/// ```swift
/// let batch = ThumbnailBatch(output: OutputLayout("out", stateDirectory: "state"), variants: [ThumbnailVariant(name: "thumb",
///                            box: Size(width: 600, height: 315), fit: .contain, format: .webp)])
/// let records = try await batch.run([.file("a.jpg"), .file("b.png")])
/// ```
package struct ThumbnailBatch: Sendable {
  /// One image to thumbnail.
  package enum Input: Sendable {
    /// A file, read up to `limits.maxBytes`; its path is the record's `originalURL`.
    case file(String)
    /// Bytes already read (standard input: `source` is `-`).
    case bytes(source: String, [UInt8])
  }

  package var output: OutputLayout
  /// Made from every input, in this order.
  package var variants: [ThumbnailVariant]
  package var decoder: any ImageDecoding
  /// Images thumbnailed at once.
  package var concurrency: Int
  /// Local files may be larger than the crawler's 10 MB download cap.
  package var limits: DecodeOptions

  package init(
    output: OutputLayout, variants: [ThumbnailVariant], decoder: any ImageDecoding = ImageDecoder(),
    concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
    limits: DecodeOptions = DecodeOptions(maxBytes: 64 << 20)
  ) {
    self.output = output
    self.variants = variants
    self.decoder = decoder
    self.concurrency = concurrency
    self.limits = limits
  }

  /// Thumbnails every input and writes `manifest.jsonl`; a failed input is a `failed` record with an
  /// `error`.
  ///
  /// It takes the directory's run lock, and refuses a crawl's output directory, whose manifest a
  /// thumbnail manifest would replace: one with a crawl state (in the layout's state directory or the
  /// old `<out>/.thumbify`) or a `cards/` directory, which only a crawl writes (so a crawl whose state
  /// was given elsewhere with `--state` is refused too).
  ///
  /// - Throws: `StoreError.locked` when another run uses the directory; `StoreError.io` when it is a
  ///   crawl's, or the blobs directory or the manifest cannot be written.
  package func run(_ inputs: [Input]) async throws(StoreError) -> [CrawlRecord] {
    let lock = try RunLock(output)
    defer { withExtendedLifetime(lock) {} }
    let legacyState = OutputLayout(output.directory, stateDirectory: output.legacyStateDirectory)
    guard
      access(output.stateDatabase, F_OK) != 0 && access(legacyState.stateDatabase, F_OK) != 0
        && access(output.cards, F_OK) != 0
    else {
      throw .io(
        path: output.directory, operation: "write thumbnails into",
        message: "it is a crawl's output directory (its manifest would be replaced); choose another --out")
    }
    try FileSystem.makeDirectories(output.blobs)
    let thumbnailer = Thumbnailer(decoder: decoder, store: BlobStore(root: output.directory), limits: limits)
    let pool = CPUPool(width: max(1, concurrency))
    let (variants, limits) = (variants, limits)
    let records = await withTaskGroup(of: (Int, CrawlRecord).self) { group in
      for (index, input) in inputs.enumerated() {
        group.addTask {
          let record = try? await pool.run {
            Self.thumbnail(input, limits: limits, variants: variants, with: thumbnailer)
          }
          return (index, record ?? input.record(error: Self.cancelled))
        }
      }
      var records = [CrawlRecord?](repeating: nil, count: inputs.count)
      for await (index, record) in group { records[index] = record }
      return records.compactMap { $0 }
    }
    // The crawl's manifest encoding.
    var manifest: [UInt8] = []
    for record in records {
      // Every number in a record is finite (sizes, byte counts): nothing to skip.
      guard let line = try? JSONWriter.encode(record) else { continue }
      manifest += line
      manifest.append(UInt8(ascii: "\n"))
    }
    ManifestWriter.removeStaleTemporaries(of: output.manifest)
    FileSystem.removeStaleTemporaries(in: output.directory)
    try FileSystem.writeAtomically(manifest, to: output.manifest)
    return records
  }

  private static let cancelled = RecordError(
    code: "cancelled", message: "The run was cancelled.", stage: "image")

  /// The manifest record of one input.
  static func thumbnail(
    _ input: Input, limits: DecodeOptions, variants: [ThumbnailVariant], with thumbnailer: Thumbnailer
  ) -> CrawlRecord {
    let bytes: [UInt8]
    switch input {
    case .bytes(_, let data):
      bytes = data
    case .file(let path):
      do {
        bytes = try FileSystem.readFile(path, limit: limits.maxBytes)
      } catch {
        // Reading the file is this command's fetch.
        return input.record(error: RecordError(code: "unreadableInput", message: "\(error)", stage: "fetch"))
      }
    }
    do {
      let set = try thumbnailer.thumbnails(of: bytes, source: input.source, variants: variants)
      return CrawlRecord(
        originalURL: input.source, normalizedURL: input.normalizedURL, outcome: .ok, image: set)
    } catch {
      return input.record(error: RecordError(code: error.code, message: error.description, stage: "image"))
    }
  }
}

extension ThumbnailBatch.Input {
  /// The record's `originalURL` and its thumbnails' `source`: the path, or `-` for standard input.
  package var source: String {
    switch self {
    case .file(let path): path
    case .bytes(let source, _): source
    }
  }

  /// The record's `normalizedURL` (what its card key hashes): the file's absolute `file://` URL, so
  /// two spellings of one path share a key; `source` for bytes.
  var normalizedURL: String {
    switch self {
    case .file(let path): URL(fileURLWithPath: path).standardizedFileURL.absoluteString
    case .bytes(let source, _): source
    }
  }

  /// The `failed` record of this input.
  func record(error: RecordError) -> CrawlRecord {
    CrawlRecord(originalURL: source, normalizedURL: normalizedURL, outcome: .failed, error: error)
  }
}
