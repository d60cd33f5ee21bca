import Dispatch
import Synchronization

/// Runs CPU-bound work (decode, resize, encode) off the cooperative pool, at most `width` jobs at once.
///
/// Jobs wait their turn in FIFO order; a job waiting for a slot that is cancelled leaves the queue.
public final class CPUPool: Sendable {
  private struct State {
    var running = 0
    var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    var nextID: UInt64 = 0
  }

  private let width: Int
  private let state = Mutex(State())
  private let queue = DispatchQueue(label: "thumbify.cpu", attributes: .concurrent)

  public init(width: Int) {
    self.width = max(1, width)
  }

  /// Runs `body` on a pool thread once a slot is free and returns its result.
  public func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws -> T {
    guard await acquire() else { throw CancellationError() }
    defer { release() }
    let result: Result<T, E> = await withCheckedContinuation { continuation in
      queue.async {
        do throws(E) {
          continuation.resume(returning: .success(try body()))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
    }
    return try result.get()
  }

  /// Waits for a slot; `false` when the task was cancelled while waiting.
  private func acquire() async -> Bool {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let granted = state.withLock { state -> Bool in
          if state.running < width {
            state.running += 1
            return true
          }
          state.waiters.append((id, continuation))
          return false
        }
        if granted { continuation.resume(returning: true) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return state.waiters.remove(at: index).continuation
      }
      waiter?.resume(returning: false)
    }
  }

  private func release() {
    let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      if state.waiters.isEmpty {
        state.running -= 1
        return nil
      }
      return state.waiters.removeFirst().continuation
    }
    next?.resume(returning: true)
  }
}
