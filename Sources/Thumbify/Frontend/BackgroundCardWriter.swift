import Dispatch
import Synchronization

/// Writes cards on a thread of its own while the caller goes on (the manifest pass of a crawl).
///
/// Encoding a card and writing its file is ~40 % of the manifest pass; on its own thread it overlaps
/// with reading the state and writing the manifest. At most `backlog` records wait, so memory stays
/// bounded. The first error is kept and thrown by the next `write(_:)` or by `finish()`.
///
/// ```swift
/// let cards = BackgroundCardWriter(try CardWriter(outputDirectory: out).start())
/// for record in records { try cards.write(record) }
/// let summary = try cards.finish()
/// ```
final class BackgroundCardWriter: Sendable {
  private struct State {
    var session: CardWriter.Session
    var error: StoreError?
  }

  private let state: Mutex<State>
  private let queue = DispatchQueue(label: "thumbify.cards")
  private let slots: DispatchSemaphore

  init(_ session: CardWriter.Session, backlog: Int = 256) {
    state = Mutex(State(session: session))
    slots = DispatchSemaphore(value: max(1, backlog))
  }

  /// Queues the card of `record`; waits while `backlog` cards are queued.
  func write(_ record: CrawlRecord) throws(StoreError) {
    try enqueue { (session) throws(StoreError) in try session.write(record) }
  }

  /// Queues card bytes (`CardWriter.encodedCard(for:)`) for the card named `key`.
  func write(encoded bytes: [UInt8], key: CardKey) throws(StoreError) {
    try enqueue { (session) throws(StoreError) in try session.write(encoded: bytes, key: key) }
  }

  private func enqueue(_ work: @escaping @Sendable (inout CardWriter.Session) throws(StoreError) -> Void)
    throws(StoreError)
  {
    if let error = state.withLock({ $0.error }) { throw error }
    slots.wait()
    queue.async {
      self.state.withLock { state in
        guard state.error == nil else { return }
        do throws(StoreError) {
          try work(&state.session)
        } catch {
          state.error = error
        }
      }
      self.slots.signal()
    }
  }

  /// Waits for the queued cards to be written; throws the first error.
  func drain() throws(StoreError) {
    queue.sync {}
    if let error = state.withLock({ $0.error }) { throw error }
  }

  /// Waits for the queued cards, then removes the cards of URLs not written (`Session.finish()`).
  func finish() throws(StoreError) -> CardWriter.Summary {
    try drain()
    return try state.withLock { (state) throws(StoreError) -> CardWriter.Summary in
      try state.session.finish()
    }
  }
}
