import Synchronization

/// Coalesces identical work: callers asking for the same key while it is in flight share one task.
///
/// The shared task is cancelled when its last subscriber is cancelled; it is forgotten when it
/// finishes, so the pool's size is bounded by the work in flight, not by the keys ever seen.
package final class KeyedTaskPool<Value: Sendable>: Sendable {
  private struct Entry {
    var task: Task<Value, Never>
    var subscribers: Int
  }

  private let entries = Mutex<[String: Entry]>([:])

  package init() {}

  /// Keys currently in flight.
  package var count: Int { entries.withLock { $0.count } }

  /// The value for `key`: joins the task in flight for it, or starts `work` and shares it.
  package func value(for key: String, work: @escaping @Sendable () async -> Value) async -> Value {
    let task = entries.withLock { entries -> Task<Value, Never> in
      if var entry = entries[key] {
        entry.subscribers += 1
        entries[key] = entry
        return entry.task
      }
      let task = Task { await work() }
      entries[key] = Entry(task: task, subscribers: 1)
      return task
    }
    let value = await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      let orphan = entries.withLock { entries -> Task<Value, Never>? in
        guard var entry = entries[key], entry.task == task else { return nil }
        entry.subscribers -= 1
        if entry.subscribers > 0 {
          entries[key] = entry
          return nil
        }
        entries[key] = nil
        return entry.task
      }
      orphan?.cancel()
    }
    entries.withLock { entries in
      if let entry = entries[key], entry.task == task { entries[key] = nil }
    }
    return value
  }
}
