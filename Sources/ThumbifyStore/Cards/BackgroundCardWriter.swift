import Dispatch
import Synchronization
import ThumbifySystem

/// Writes cards on a thread of its own while the caller goes on (the manifest pass of a crawl).
///
/// Encoding a card and writing its file is ~40 % of the manifest pass; on its own thread it overlaps
/// with reading the state and writing the manifest. At most `backlog` records wait, so memory stays
/// bounded. The first error is kept and thrown by the next `write(_:)` or by `finish()`.
///
/// The session is confined to the writer's serial queue and the caller only takes a short lock to
/// read the first error: a lock held across a card's file I/O made the caller wait (and spin in
/// `futex_lock_pi`, 5.8 % of a 100,000-URL crawl's CPU) for every card.
///
/// ```swift
/// let cards = BackgroundCardWriter(try CardWriter(outputDirectory: out).start())
/// for record in records { try cards.write(record) }
/// let summary = try cards.finish()
/// ```
package final class BackgroundCardWriter: Sendable {
  private final class SessionBox: @unchecked Sendable {
    // Confined to `BackgroundCardWriter.queue`: only blocks running on that serial queue touch it.
    var session: CardWriter.Session
    init(_ session: CardWriter.Session) { self.session = session }
  }

  private let box: SessionBox
  private let firstError = Mutex<StoreError?>(nil)
  private let queue = DispatchQueue(label: "thumbify.cards")
  private let slots: DispatchSemaphore

  package init(_ session: CardWriter.Session, backlog: Int = 256) {
    box = SessionBox(session)
    slots = DispatchSemaphore(value: max(1, backlog))
  }

  /// Queues the card of `record`; waits while `backlog` cards are queued.
  package func write(_ record: CrawlRecord) throws(StoreError) {
    try enqueue { (session) throws(StoreError) in try session.write(record) }
  }

  /// Queues card bytes (`CardWriter.encodedCard(for:)`) for the card named `key`.
  func write(encoded bytes: [UInt8], key: CardKey) throws(StoreError) {
    try enqueue { (session) throws(StoreError) in try session.write(encoded: bytes, key: key) }
  }

  private func enqueue(_ work: @escaping @Sendable (inout CardWriter.Session) throws(StoreError) -> Void)
    throws(StoreError)
  {
    if let error = firstError.withLock({ $0 }) { throw error }
    slots.wait()
    queue.async {
      defer { self.slots.signal() }
      guard self.firstError.withLock({ $0 }) == nil else { return }
      do throws(StoreError) {
        try work(&self.box.session)
      } catch {
        self.firstError.withLock { $0 = $0 ?? error }
      }
    }
  }

  /// Waits for the queued cards to be written; throws the first error.
  package func drain() throws(StoreError) {
    queue.sync {}
    if let error = firstError.withLock({ $0 }) { throw error }
  }

  /// Waits for the queued cards, then removes the cards of URLs not written (`Session.finish()`).
  package func finish() throws(StoreError) -> CardWriter.Summary {
    try drain()
    let result = queue.sync { () -> Result<CardWriter.Summary, StoreError> in
      do throws(StoreError) {
        return .success(try box.session.finish())
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }
}
