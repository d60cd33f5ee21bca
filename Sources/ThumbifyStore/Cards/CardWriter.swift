import Foundation
import ThumbifySystem

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
/// Memory: a session started with `start()` keeps the set of keys written (32 bytes per card, needed
/// to remove the others); one started with `start(keeping:)` asks its caller instead and holds nothing
/// per card (a crawl keeps the keys in its state database).
package struct CardWriter: Sendable {
  /// The directory holding `manifest.jsonl`; blob paths in cards are relative to it.
  package var outputDirectory: String

  package init(outputDirectory: String) {
    self.outputDirectory = outputDirectory
  }

  /// `<outputDirectory>/cards`
  package var cardsDirectory: String { OutputLayout.cards(in: outputDirectory) }

  /// What one run of the writer did.
  package struct Summary: Sendable, Equatable {
    /// Cards created or whose content changed.
    package var written = 0
    /// Cards whose file already held exactly these bytes.
    package var unchanged = 0
    /// Cards removed because their URL is no longer in the manifest.
    package var removed = 0
    /// Records skipped because an earlier record had the same normalized URL.
    package var duplicates = 0

    package init() {}
  }

  /// Starts a run: write each record with `Session.write(_:)`, then call `Session.finish()`.
  ///
  /// - Throws: `StoreError` when the cards directory cannot be created.
  package func start() throws(StoreError) -> Session {
    try FileSystem.makeDirectories(cardsDirectory)
    return Session(cardsDirectory: cardsDirectory, isKept: nil)
  }

  /// Starts a run whose caller writes each URL's record once and knows which cards the run keeps, so
  /// that the session holds nothing per card: `finish()` asks `isKept` about each card file it finds.
  ///
  /// A crawl's manifest pass uses this: the state database remembers the keys it listed
  /// (`StateStore.isListed(_:)`), and memory stays flat however long the list.
  ///
  /// - Parameter isKept: whether the card named by a key belongs to this run.
  /// - Throws: `StoreError` when the cards directory cannot be created.
  package func start(keeping isKept: @escaping @Sendable (CardKey) throws(StoreError) -> Bool)
    throws(StoreError) -> Session
  {
    try FileSystem.makeDirectories(cardsDirectory)
    return Session(cardsDirectory: cardsDirectory, isKept: isKept)
  }

  /// Writes the cards of every record and removes the cards of URLs not among them.
  @discardableResult
  package func write(records: some Sequence<CrawlRecord>) throws(StoreError) -> Summary {
    var session = try start()
    for record in records { try session.write(record) }
    return try session.finish()
  }

  /// Regenerates every card from `<outputDirectory>/manifest.jsonl`.
  @discardableResult
  package func writeFromManifest() throws(StoreError) -> Summary {
    let reader = try ManifestReader(directory: outputDirectory)
    do {
      var session = try start()
      try reader.readRecords { (record) throws(StoreError) in try session.write(record) }
      return try session.finish()
    } catch let error as StoreError {
      throw error
    } catch {
      throw .io(path: cardsDirectory, operation: "write cards in", message: "\(error)")
    }
  }

  /// The bytes of the card file of `record`: its `Card` as JSON (`JSONEncoder`'s bytes with sorted keys
  /// and unescaped slashes, by `JSONWriter`) and a newline.
  ///
  /// - Throws: `StoreError` when the card cannot be encoded (a non-finite number).
  package static func encodedCard(for record: CrawlRecord) throws(StoreError) -> [UInt8] {
    try encodedCard(for: record, key: CardKey(normalizedURL: record.normalizedURL))
  }

  /// `encodedCard(for:)` with the key of `record.normalizedURL` computed by the caller.
  package static func encodedCard(for record: CrawlRecord, key: CardKey) throws(StoreError) -> [UInt8] {
    let card = Card(record: record, key: key)
    do {
      var bytes = try JSONWriter.encode(card)
      bytes.append(UInt8(ascii: "\n"))
      return bytes
    } catch {
      throw .io(path: card.key, operation: "encode the card", message: String(describing: error))
    }
  }

  /// Writes card bytes (`encodedCard(for:)`) as the card named `key`, outside any session (the crawl's
  /// workers write each card as soon as its record is saved; a session's `finish()` removes the
  /// cards no longer listed).
  ///
  /// - Parameter isNew: true when, as far as the caller knows, no card was written for `key` before (the
  ///   crawl: a URL the state has no record of). The file is then written without first being read to
  ///   compare; a file there all the same (left by a killed run) is replaced.
  /// - Returns: false when the file already held these bytes and was left untouched.
  /// - Throws: `StoreError` when the file cannot be written.
  package func write(encoded bytes: [UInt8], key: CardKey, isNew: Bool = false) throws(StoreError) -> Bool {
    try Self.writeCard(bytes, key: key, in: cardsDirectory, isNew: isNew)
  }

  static func writeCard(_ bytes: [UInt8], key: CardKey, in cardsDirectory: String, isNew: Bool = false)
    throws(StoreError) -> Bool
  {
    let path = OutputLayout.path(key.fileName, in: cardsDirectory)
    // Looking up a missing name in a directory of 100,000 cards was ~2.5 % of a first crawl's CPU.
    if !isNew, FileSystem.fileHolds(bytes, at: path) { return false }
    // No fsync per card: 10,000 cards cost 10,000 disk flushes (~5 s of a 10,000-URL crawl). A card is
    // derived from the manifest, which is fsynced; after a power cut a card left empty differs from
    // its bytes and is rewritten by the next run (or `writeFromManifest`).
    try FileSystem.writeAtomically(bytes, to: path, isDurable: false)
    return true
  }

  /// One run of the writer: the keys written so far (or the caller's answer), so `finish()` can remove the rest.
  package struct Session: Sendable {
    let cardsDirectory: String
    /// The keys written, when the caller does not keep them (`isKept` is nil).
    private var kept = Set<CardKey>()
    private let isKept: (@Sendable (CardKey) throws(StoreError) -> Bool)?
    private var summary = Summary()

    init(cardsDirectory: String, isKept: (@Sendable (CardKey) throws(StoreError) -> Bool)?) {
      self.cardsDirectory = cardsDirectory
      self.isKept = isKept
    }

    /// Writes the card of `record` unless its file already holds the same bytes.
    ///
    /// A session from `start()` skips a record whose URL it already wrote (counted in `duplicates`);
    /// one from `start(keeping:)` trusts its caller to hand each URL over once.
    package mutating func write(_ record: CrawlRecord) throws(StoreError) {
      let key = CardKey(normalizedURL: record.normalizedURL)
      if isKept == nil, !kept.insert(key).inserted {
        summary.duplicates += 1
        return
      }
      try write(encoded: try CardWriter.encodedCard(for: record, key: key), key: key)
    }

    /// Writes card bytes made by `CardWriter.encodedCard(for:)` as the card named `key`, unless its
    /// file already holds them. No duplicate check (a session from `start()` still records the key,
    /// so `finish()` keeps the card).
    package mutating func write(encoded bytes: [UInt8], key: CardKey) throws(StoreError) {
      if isKept == nil { kept.insert(key) }
      if try CardWriter.writeCard(bytes, key: key, in: cardsDirectory) {
        summary.written += 1
      } else {
        summary.unchanged += 1
      }
    }

    /// Removes the cards of URLs this run did not write, and temporary files a crash left.
    ///
    /// The directory is read one entry at a time (`readdir`), never listed whole, and each stale entry
    /// is unlinked as it is met (entries already read are not returned again).
    package mutating func finish() throws(StoreError) -> Summary {
      try DirectoryEntries.forEach(in: cardsDirectory) { (name) throws(StoreError) in
        let isLeftover = name.hasPrefix(".tmp-")
        let isCard = name.hasSuffix(".json")
        guard isLeftover || isCard else { return }
        if isCard, let key = CardKey(hex: String(name.dropLast(5))), try keeps(key) { return }
        let path = FilePath(cardsDirectory).appending(name).string
        guard unlink(path) == 0 || Errno.current == .noSuchFileOrDirectory else {
          throw SystemCall.error("remove", path)
        }
        if isCard { summary.removed += 1 }
      }
      return summary
    }

    private func keeps(_ key: CardKey) throws(StoreError) -> Bool {
      if let isKept { return try isKept(key) }
      return kept.contains(key)
    }
  }
}
