import Synchronization

/// A small thread-safe least-recently-used cache.
///
/// When it grows past `capacity` the least recently used half is evicted in one sweep, so the
/// bookkeeping cost is amortized O(1) per access and memory stays bounded. `@inlinable`, so that the
/// caches of other targets are specialized for their key and value types.
package final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  @usableFromInline struct State {
    @usableFromInline var entries: [Key: (value: Value, tick: UInt64)] = [:]
    @usableFromInline var tick: UInt64 = 0
  }

  @usableFromInline let capacity: Int
  @usableFromInline let state = Mutex(State())

  package init(capacity: Int) {
    self.capacity = max(2, capacity)
  }

  @inlinable package subscript(key: Key) -> Value? {
    get {
      state.withLock { state -> Value? in
        guard let entry = state.entries[key] else { return nil }
        state.tick += 1
        state.entries[key] = (entry.value, state.tick)
        return entry.value
      }
    }
    set {
      state.withLock { state in
        state.tick += 1
        state.entries[key] = newValue.map { ($0, state.tick) }
        guard state.entries.count > capacity else { return }
        let ticks = state.entries.values.map(\.tick).sorted()
        let cutoff = ticks[ticks.count / 2]
        state.entries = state.entries.filter { $0.value.tick > cutoff }
      }
    }
  }

  /// Drops every entry.
  package func removeAll() {
    state.withLock { $0.entries.removeAll() }
  }
}
