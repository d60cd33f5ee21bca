import Foundation

/// Writes `cards/<key>.json` next to a manifest: one file per URL, what a frontend draws.
///
/// Cards are written atomically (temporary file, rename; not fsynced one by one, see `write(_:)`), a card whose bytes would not
/// change is not touched (its modification time stays, a CDN sees no churn), and when a run is
/// finished the cards of URLs that are no longer in the manifest are removed.
///
/// ```swift
/// var session = try CardWriter(outputDirectory: out).start()
/// for record in records { try session.write(record) }
/// let summary = try session.finish()
/// ```
///
/// Memory is 32 bytes per card kept (the set of keys written, needed to remove the others).
public struct CardWriter: Sendable {
  /// The directory holding `manifest.jsonl`; blob paths in cards are relative to it.
  public var outputDirectory: String

  public init(outputDirectory: String) {
    self.outputDirectory = outputDirectory
  }

  /// `<outputDirectory>/cards`
  public var cardsDirectory: String { (outputDirectory as NSString).appendingPathComponent("cards") }

  /// What one run of the writer did.
  public struct Summary: Sendable, Equatable {
    /// Cards created or whose content changed.
    public var written = 0
    /// Cards whose file already held exactly these bytes.
    public var unchanged = 0
    /// Cards removed because their URL is no longer in the manifest.
    public var removed = 0
    /// Records skipped because an earlier record had the same normalized URL.
    public var duplicates = 0

    public init() {}
  }

  /// Starts a run: write each record with `Session.write(_:)`, then call `Session.finish()`.
  ///
  /// - Throws: `StoreError` when the cards directory cannot be created.
  public func start() throws(StoreError) -> Session {
    try FileSystem.makeDirectories(cardsDirectory)
    return Session(cardsDirectory: cardsDirectory)
  }

  /// Writes the cards of every record and removes the cards of URLs not among them.
  @discardableResult
  public func write(records: some Sequence<CrawlRecord>) throws(StoreError) -> Summary {
    var session = try start()
    for record in records { try session.write(record) }
    return try session.finish()
  }

  /// Regenerates every card from `<outputDirectory>/manifest.jsonl`.
  @discardableResult
  public func writeFromManifest() throws(ManifestError) -> Summary {
    let reader = try ManifestReader(directory: outputDirectory)
    do {
      var session = try start()
      try reader.readRecords { (record) throws(StoreError) in try session.write(record) }
      return try session.finish()
    } catch let error as StoreError {
      throw .store(error)
    } catch let error as ManifestError {
      throw error
    } catch {
      throw .store(.io(path: cardsDirectory, operation: "write cards in", message: "\(error)"))
    }
  }

  /// One run of the writer: the keys written so far, so `finish()` can remove the rest.
  public struct Session: Sendable {
    let cardsDirectory: String
    private var kept = Set<CardKey>()
    private var summary = Summary()
    private let encoder: JSONEncoder = {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      return encoder
    }()

    init(cardsDirectory: String) {
      self.cardsDirectory = cardsDirectory
    }

    /// Writes the card of `record` unless its file already holds the same bytes.
    public mutating func write(_ record: CrawlRecord) throws(StoreError) {
      let key = CardKey(normalizedURL: record.normalizedURL)
      guard kept.insert(key).inserted else {
        summary.duplicates += 1
        return
      }
      let bytes = try encode(Card(record: record))
      let path = (cardsDirectory as NSString).appendingPathComponent(key.fileName)
      if FileManager.default.contents(atPath: path).map(Array.init) == bytes {
        summary.unchanged += 1
        return
      }
      // No fsync per card: 10,000 cards cost 10,000 disk flushes (~5 s of a 10,000-URL crawl). A card is
      // derived from the manifest, which is fsynced; after a power cut a card left empty differs from
      // its bytes and is rewritten by the next run (or `writeFromManifest`).
      try FileSystem.writeAtomically(bytes, to: path, isDurable: false)
      summary.written += 1
    }

    /// Removes the cards of URLs this run did not write, and temporary files a crash left.
    public mutating func finish() throws(StoreError) -> Summary {
      let names: [String]
      do {
        names = try FileManager.default.contentsOfDirectory(atPath: cardsDirectory)
      } catch {
        throw .io(path: cardsDirectory, operation: "list", message: String(describing: error))
      }
      for name in names {
        let isLeftover = name.hasPrefix(".tmp-")
        let isCard = name.hasSuffix(".json")
        guard isLeftover || isCard else { continue }
        if isCard, let key = CardKey(hex: String(name.dropLast(5))), kept.contains(key) { continue }
        let path = (cardsDirectory as NSString).appendingPathComponent(name)
        guard unlink(path) == 0 || errno == ENOENT else {
          throw .io(path: path, operation: "remove", message: String(cString: strerror(errno)))
        }
        if isCard { summary.removed += 1 }
      }
      return summary
    }

    private func encode(_ card: Card) throws(StoreError) -> [UInt8] {
      do {
        return [UInt8](try encoder.encode(card)) + [UInt8(ascii: "\n")]
      } catch {
        throw .io(path: card.key, operation: "encode the card", message: String(describing: error))
      }
    }
  }
}
