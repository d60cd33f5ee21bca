import Synchronization

/// A counting semaphore that is awaited, never blocked on: at most `width` holders at once, the
/// others waiting in FIFO order without holding a thread.
///
/// The one limiter of the package (the CPU pool's slots, the renderer's tabs, the tests' slots): a
/// `DispatchSemaphore.wait()` on Swift's cooperative pool holds one of its few threads (two on a
/// 2-core machine) while it waits, and every other task of the process waits with it.
///
/// A waiter whose task is cancelled leaves the queue at once (`acquire()` returns `false`); a slot
/// given to a task cancelled a moment later is still its own to release.
///
/// ```swift
/// let slots = AsyncSemaphore(width: 2)
/// guard await slots.acquire() else { throw CancellationError() }
/// defer { slots.release() }
/// ```
package final class AsyncSemaphore: Sendable {
  private struct State {
    var free: Int
    var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    var nextID: UInt64 = 0
  }

  private let state: Mutex<State>

  /// A semaphore with `width` slots (at least one).
  package init(width: Int) {
    state = Mutex(State(free: max(1, width)))
  }

  /// Waits for a slot; `false` when the task was cancelled before it got one (it holds none then).
  package func acquire() async -> Bool {
    let id = state.withLock { state -> UInt64 in
      state.nextID &+= 1
      return state.nextID
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        // Cancellation is read under the lock: a task cancelled before it queued is refused here, one
        // cancelled after is found in the queue by the handler (which takes the same lock).
        let answer = state.withLock { state -> Bool? in
          if state.free > 0 {
            state.free -= 1
            return true
          }
          if Task.isCancelled { return false }
          state.waiters.append((id, continuation))
          return nil
        }
        // Resumed outside the lock: a continuation is never resumed while holding it.
        if let answer { continuation.resume(returning: answer) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return state.waiters.remove(at: index).continuation
      }
      waiter?.resume(returning: false)
    }
  }

  /// How many tasks wait for a slot now.
  package var waiterCount: Int { state.withLock { $0.waiters.count } }

  /// Gives a slot back: to the first waiter, or to the free count.
  package func release() {
    let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      guard !state.waiters.isEmpty else {
        state.free += 1
        return nil
      }
      return state.waiters.removeFirst().continuation
    }
    next?.resume(returning: true)
  }
}
