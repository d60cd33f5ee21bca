import Foundation

/// `thumbify thumb` as a library call: thumbnails of local images, made on the crawl's bounded CPU pool,
/// stored as content-addressed blobs of one output directory, and a manifest of one ``ThumbRecord`` per
/// input, in input order, replaced atomically.
///
/// ```swift
/// let batch = ThumbnailBatch(output: OutputLayout("out", stateDirectory: "state"), variant: ThumbnailVariant(name: "thumb",
///                            box: Size(width: 600, height: 315), fit: .contain, format: .webp))
/// let records = try await batch.run([.file("a.jpg"), .file("b.png")])
/// ```
public struct ThumbnailBatch: Sendable {
  /// One image to thumbnail.
  public enum Input: Sendable {
    /// A file, read up to `limits.maxBytes`; its path is the record's `source`.
    case file(String)
    /// Bytes already read (standard input: `source` is `-`).
    case bytes(source: String, [UInt8])
  }

  public var output: OutputLayout
  public var variant: ThumbnailVariant
  public var decoder: any ImageDecoding
  /// Images thumbnailed at once.
  public var concurrency: Int
  /// Local files may be larger than the crawler's 10 MB download cap.
  public var limits: DecodeOptions

  public init(
    output: OutputLayout, variant: ThumbnailVariant, decoder: any ImageDecoding = ImageDecoder(),
    concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
    limits: DecodeOptions = DecodeOptions(maxBytes: 64 << 20)
  ) {
    self.output = output
    self.variant = variant
    self.decoder = decoder
    self.concurrency = concurrency
    self.limits = limits
  }

  /// Thumbnails every input and writes `manifest.jsonl`; a failed input is a record with an `error`.
  ///
  /// It takes the directory's run lock, and refuses a crawl's output directory, whose manifest a
  /// thumbnail manifest would replace: one with a crawl state (in the layout's state directory or the
  /// old `<out>/.thumbify`) or a `cards/` directory, which only a crawl writes (so a crawl whose state
  /// was given elsewhere with `--state` is refused too).
  ///
  /// - Throws: `StoreError.locked` when another run uses the directory; `StoreError.io` when it is a
  ///   crawl's, or the blobs directory or the manifest cannot be written.
  public func run(_ inputs: [Input]) async throws(StoreError) -> [ThumbRecord] {
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
    let (variant, limits) = (variant, limits)
    let records = await withTaskGroup(of: (Int, ThumbRecord).self) { group in
      for (index, input) in inputs.enumerated() {
        group.addTask {
          let record = try? await pool.run {
            Self.thumbnail(input, limits: limits, variant: variant, with: thumbnailer)
          }
          return (index, record ?? ThumbRecord(source: input.source, error: Self.cancelled))
        }
      }
      var records = [ThumbRecord?](repeating: nil, count: inputs.count)
      for await (index, record) in group { records[index] = record }
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
    ManifestWriter.removeStaleTemporaries(of: output.manifest)
    FileSystem.removeStaleTemporaries(in: output.directory)
    try FileSystem.writeAtomically(manifest, to: output.manifest)
    return records
  }

  private static let cancelled = RecordError(code: "cancelled", message: "The run was cancelled.")

  /// The manifest record of one input.
  static func thumbnail(
    _ input: Input, limits: DecodeOptions, variant: ThumbnailVariant, with thumbnailer: Thumbnailer
  ) -> ThumbRecord {
    let bytes: [UInt8]
    switch input {
    case .bytes(_, let data):
      bytes = data
    case .file(let path):
      do {
        bytes = try FileSystem.readFile(path, limit: limits.maxBytes)
      } catch {
        return ThumbRecord(source: path, error: RecordError(code: "unreadableInput", message: "\(error)"))
      }
    }
    do {
      let set = try thumbnailer.thumbnails(of: bytes, source: input.source, variants: [variant])
      return ThumbRecord(source: input.source, set: set)
    } catch {
      return ThumbRecord(
        source: input.source, error: RecordError(code: error.code, message: error.description))
    }
  }
}

extension ThumbnailBatch.Input {
  /// The record's `source`: the path, or `-` for standard input.
  public var source: String {
    switch self {
    case .file(let path): path
    case .bytes(let source, _): source
    }
  }
}
