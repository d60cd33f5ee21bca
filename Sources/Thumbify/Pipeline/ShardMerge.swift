import Foundation
import ThumbifyStore

/// One output directory from the output directories of a sharded crawl (`thumbify merge`, docs/crawl.md,
/// "Merging shards"): blobs, cards, manifest and state.
///
/// 1. Takes the merged state's run lock, and each shard's (a shard still crawling is refused).
/// 2. Brings every shard's blobs in (`BlobUnion`: hard links on one file system, else copies, each
///    verified against its SHA-256 name; present blobs skipped), then fsyncs the directories linked into.
/// 3. Takes each shard's state into the merged state (`StateStore.importState`): a page's row comes from
///    the shard that owns its URL (`Shard` among the shard count), other shards' rows fill only gaps.
/// 4. Writes the manifest: with a list, the list's order (each URL's record taken from its shard's
///    manifest, which is in list order), then each shard's remaining (kept) records in shard order;
///    without one, the shards' manifests one after the other. Each URL once. Each record's card is
///    copied from its shard (or made from the record when the shard has none) beside it.
/// 5. Replaces the manifest atomically (unless it already holds these bytes), then removes the cards
///    no record names (when the directory held cards before).
///
/// Every step is idempotent, so a merge killed at any moment is finished by running it again; a merge
/// run twice writes nothing new the second time. Memory does not grow with the corpus: the list and
/// manifests are streamed, card keys are remembered in the merged state database.
package final class ShardMerge: Sendable {
  /// The counts a merge ends with.
  package struct Summary: Sendable, Equatable {
    /// The number of shards merged.
    package var shards = 0
    /// Records in the merged manifest.
    package var records = 0
    /// Of them, records of URLs the list names (in its order), and the shards' kept records after them.
    package var listed = 0
    package var kept = 0
    /// Outcomes of the listed records (`kept` is not counted here, as in a crawl's summary).
    package var outcomes: [CrawlRecord.Outcome: Int] = [:]
    /// Lines of the list that are not URLs; lines repeating a URL; listed URLs no shard has a record of
    /// (a shard stopped early, or the list is not the one the shards crawled).
    package var invalidLines = 0
    package var duplicates = 0
    package var missing = 0
    /// The first `CrawlReport.maxListed` listed URLs without a record.
    package var missingURLs: [String] = []
    package var blobs = BlobUnion.Counts()
    /// Pages, images and thumbnail sets taken into the merged state.
    package var state = StateStore.ImportCounts()
    /// Cards written, already holding their bytes, made from the record (the shard had no card file),
    /// and removed (no record names them).
    package var cardsWritten = 0
    package var cardsUnchanged = 0
    package var cardsMade = 0
    package var cardsRemoved = 0
    /// False when the manifest already held these bytes and was left untouched.
    package var isManifestReplaced = false
    package var seconds: Double = 0

    package init() {}
  }

  /// The merged output directory and its state directory.
  package let output: OutputLayout
  /// The shards' output and state directories, in shard order (index K of N).
  package let shards: [OutputLayout]

  /// - Parameters:
  ///   - shards: each shard's output directory and state directory, shard 0 first; their number is
  ///     the N of the crawl's `--shard K/N`.
  ///   - output: the merged directory and its state directory.
  package init(shards: [OutputLayout], output: OutputLayout) {
    self.shards = shards
    self.output = output
  }

  /// Merges.
  ///
  /// - Parameter openList: opens the URL list the shards crawled, or nil to concatenate the shards'
  ///   manifests.
  /// - Throws: `StoreError` when a directory is locked, a shard has no manifest or state, or a file
  ///   cannot be read or written (nothing of the merged manifest is replaced then; a rerun finishes).
  package func run(openList: (() throws(StoreError) -> URLListReader)?) throws(StoreError) -> Summary {
    let started = Date()
    var summary = Summary()
    summary.shards = shards.count
    for shard in shards {
      guard access(shard.manifest, R_OK) == 0 else {
        throw .io(
          path: shard.manifest, operation: "read the shard's manifest",
          message: "\(SystemCall.message()); did its crawl finish?")
      }
      guard access(shard.stateDatabase, R_OK) == 0 else {
        throw .io(
          path: shard.stateDatabase, operation: "find the crawl state of shard '\(shard.directory)' at",
          message: "\(SystemCall.message()); give its --state with --shard-state")
      }
    }
    let lock = try RunLock(output)
    let shardLocks = try shards.map { (shard) throws(StoreError) in try RunLock(shard) }
    defer { withExtendedLifetime((lock, shardLocks)) {} }
    try FileSystem.makeDirectories(output.directory)
    FileSystem.removeStaleTemporaries(in: output.directory)

    let union = BlobUnion(target: output.directory)
    for shard in shards { summary.blobs = summary.blobs + (try union.unite(from: shard.directory)) }
    try union.sync(summary.blobs)
    summary.blobs.linkedDirectories = []

    let state = try StateStore(path: output.stateDatabase)
    let count = shards.count
    for (index, shard) in shards.enumerated() {
      let counts = try state.importState(
        from: shard.stateDatabase,
        pages: .replacingOwned(isOwned: { Shard.index(ofNormalizedURL: $0, count: count) == index }))
      summary.state.pages += counts.pages
      summary.state.images += counts.images
      summary.state.thumbnailSets += counts.thumbnailSets
    }

    let cards = CardWriter(outputDirectory: output.directory)
    let hadCards = !FileSystem.isMissingOrEmpty(cards.cardsDirectory)
    try FileSystem.makeDirectories(cards.cardsDirectory)
    let writer = try ManifestWriter(path: output.manifest)
    let cursors = try shards.map { (shard) throws(StoreError) in
      try ManifestCursor(directory: shard.directory)
    }
    try state.rememberingManifestKeys { (remember) throws(StoreError) in
      /// Appends one record and writes its card, unless its URL is in the manifest already.
      func take(_ line: [UInt8], url: String, shard: Int, isListed: Bool) throws(StoreError) {
        let key = CardKey(normalizedURL: url)
        guard try remember(key) else {
          summary.duplicates += 1
          return
        }
        try writer.append(encoded: String(decoding: line, as: UTF8.self))
        if isListed {
          summary.listed += 1
          if let outcome = ManifestCursor.stringMember("outcome", of: line).flatMap(CrawlRecord.Outcome.init)
          {
            summary.outcomes[outcome, default: 0] += 1
          }
        } else {
          summary.kept += 1
        }
        try copyCard(key: key, line: line, from: shards[shard], into: cards, summary: &summary)
      }
      if let openList {
        let list = try openList()
        while let entry = try list.next() {
          switch entry {
          case .invalid: summary.invalidLines += 1
          case .url(_, _, let url):
            let shard = Shard.index(ofNormalizedURL: url, count: count)
            if try cursors[shard].peek() == url, let record = try cursors[shard].next() {
              try take(record.line, url: url, shard: shard, isListed: true)
            } else if try remember(CardKey(normalizedURL: url)) {
              // Never met before, and its shard's next record is another URL's: no record of it.
              summary.missing += 1
              if summary.missingURLs.count < CrawlReport.maxListed { summary.missingURLs.append(url) }
            } else {
              summary.duplicates += 1
            }
          }
        }
      }
      for (shard, cursor) in cursors.enumerated() {
        while let record = try cursor.next() {
          try take(record.line, url: record.normalizedURL, shard: shard, isListed: openList == nil)
        }
      }
    }
    summary.isManifestReplaced = try writer.commitIfChanged()
    summary.records = writer.count
    if hadCards {
      var session = try cards.start(keeping: { (key) throws(StoreError) in try state.isListed(key) })
      summary.cardsRemoved = try session.finish().removed
    }
    summary.seconds = Date().timeIntervalSince(started)
    return summary
  }

  /// Writes the card of one merged record: the shard's card file, or, when the shard has none (a record
  /// kept from a baseline, a card lost to a kill), the card made from the record.
  private func copyCard(
    key: CardKey, line: [UInt8], from shard: OutputLayout, into cards: CardWriter, summary: inout Summary
  ) throws(StoreError) {
    let source = OutputLayout.path(key.fileName, in: shard.cards)
    var bytes = try? FileSystem.readFile(source, limit: ManifestReader.maximumLineLength)
    if bytes == nil {
      guard let record = try? JSONDecoder().decode(CrawlRecord.self, from: Data(line)) else {
        throw .malformedLine(path: shard.manifest, line: 0, message: "the record of '\(key)' cannot be read")
      }
      bytes = try CardWriter.encodedCard(for: record, key: key)
      summary.cardsMade += 1
    }
    if try cards.write(encoded: bytes ?? [], key: key) {
      summary.cardsWritten += 1
    } else {
      summary.cardsUnchanged += 1
    }
  }
}
