import Synchronization

/// Cancels work that passes its deadline, with one watching task for all of it.
///
/// A `Task.sleep(for: deadline)` raced against each live fetch kept its timer, and the sleeping task,
/// alive until the deadline even when the fetch was done in milliseconds and the sleep cancelled:
/// 3,000 fetches a second with a 32 s deadline held ~100,000 of them (~20 MB). Here one task wakes
/// every `tick` while work is watched, cancels what is overdue, and ends when nothing is left.
final class DeadlineWatch: Sendable {
  private struct Entry {
    var deadline: ContinuousClock.Instant
    var cancel: @Sendable () -> Void
    var isExpired = false
  }

  private struct State {
    var nextID: UInt64 = 0
    var entries: [UInt64: Entry] = [:]
    var isWatching = false
  }

  private let tick: Duration
  private let state = Mutex(State())

  /// - Parameter tick: how often deadlines are looked at: how late past its deadline work is cancelled.
  init(tick: Duration = .milliseconds(100)) {
    self.tick = tick
  }

  /// Work being watched now.
  var count: Int { state.withLock { $0.entries.count } }

  /// Runs `work`, cancelling it when `deadline` has passed (or when the calling task is cancelled).
  ///
  /// - Returns: what `work` returned, or nil when it was cancelled for its deadline (it is awaited to
  ///   its end all the same: nothing it does outlives the call).
  func run<Value: Sendable>(deadline: Duration, _ work: @escaping @Sendable () async -> Value) async -> Value?
  {
    let task = Task { await work() }
    let end = ContinuousClock.now + deadline
    let (id, startsWatcher) = state.withLock { state -> (UInt64, Bool) in
      state.nextID += 1
      state.entries[state.nextID] = Entry(deadline: end, cancel: { task.cancel() })
      defer { state.isWatching = true }
      return (state.nextID, !state.isWatching)
    }
    if startsWatcher { Task { await self.watch() } }
    let value = await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
    let isExpired = state.withLock { $0.entries.removeValue(forKey: id)?.isExpired ?? false }
    return isExpired ? nil : value
  }

  /// Cancels overdue work every `tick` until nothing is watched.
  private func watch() async {
    while true {
      try? await Task.sleep(for: tick)
      let now = ContinuousClock.now
      let (overdue, isDone) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
        let ids = state.entries.compactMap { !$0.value.isExpired && $0.value.deadline <= now ? $0.key : nil }
        let overdue = ids.compactMap { id -> (@Sendable () -> Void)? in
          state.entries[id]?.isExpired = true
          return state.entries[id]?.cancel
        }
        if state.entries.isEmpty { state.isWatching = false }
        return (overdue, state.entries.isEmpty)
      }
      for cancel in overdue { cancel() }
      if isDone { return }
    }
  }
}
