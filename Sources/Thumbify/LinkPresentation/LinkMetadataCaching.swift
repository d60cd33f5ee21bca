import Foundation

/// Where a `LinkMetadataProvider` keeps the metadata it fetched, so that a server asking for the same
/// URL twice fetches it once (what LinkPresentation's documentation advises apps to do with
/// `LPLinkMetadata`, which is archivable for that reason).
///
/// Entries are keyed by `CardKey`: every spelling of a URL that normalizes alike (`HTTP://Example.com`
/// and `http://example.com/`) shares one entry, as it shares one card in a crawl. Implementations
/// decide how long an entry is good for; a miss (`nil`) makes the provider fetch.
public protocol LinkMetadataCaching: Sendable {
  /// The metadata stored for `key`, or `nil`.
  func metadata(for key: CardKey) async -> LinkMetadata?
  /// Keeps `metadata`, just fetched, for `key`.
  func store(_ metadata: LinkMetadata, for key: CardKey) async
}

/// An in-memory cache of the most recently used metadata: for one server process.
///
/// When it grows past `capacity` the least recently used half is dropped (`LRUCache`). Entries do
/// not expire otherwise: make a new cache (or use a crawl's cards) when pages must be re-read.
public final class MemoryLinkMetadataCache: LinkMetadataCaching {
  private let entries: LRUCache<CardKey, LinkMetadata>

  /// - Parameter capacity: the most entries kept (a card is a few kilobytes).
  public init(capacity: Int = 1_000) {
    entries = LRUCache(capacity: capacity)
  }

  public func metadata(for key: CardKey) async -> LinkMetadata? {
    entries[key]
  }

  public func store(_ metadata: LinkMetadata, for key: CardKey) async {
    entries[key] = metadata
  }
}

/// The cards a crawl wrote (`thumbify crawl … --out <directory>`): a server answers from last night's
/// crawl and fetches only URLs the crawl did not have.
///
/// Read-only: the crawl owns the directory (it replaces and sweeps cards as it runs), so `store` keeps
/// nothing; put a `MemoryLinkMetadataCache` in front when fetched URLs should be remembered too
/// (``LinkMetadataProvider``'s initializer
/// takes one cache; chain them with your own type). A card whose URL failed (`state` `failed`) is a miss; a `stale` card
/// (the last run failed, the card keeps the last good data) is a hit.
public struct CardDirectoryCache: LinkMetadataCaching {
  /// The crawl's output directory: the one holding `cards/` and `manifest.jsonl`.
  public var directory: String

  /// A cache over the crawl output in `directory`.
  public init(directory: String) {
    self.directory = directory
  }

  public func metadata(for key: CardKey) async -> LinkMetadata? {
    let path = OutputLayout.card(key, in: directory)
    // A card is a few kilobytes; anything larger than this is not one.
    guard let bytes = try? FileSystem.readFile(path, limit: 1 << 20),
      let card = try? JSONDecoder().decode(Card.self, from: Data(bytes)), card.state != .failed
    else { return nil }
    return LinkMetadata(card: card)
  }

  public func store(_ metadata: LinkMetadata, for key: CardKey) async {}
}
