import Synchronization

/// The calls one `LinkMetadataProvider` has in flight, so that `cancel()` can cancel exactly those.
///
/// Each call runs as a child task next to a second child that waits for the provider's `cancel()`;
/// when that one returns first, the group cancels the call, which is all it takes: `CurlFetcher`
/// removes a cancelled task's transfer from curl and `CPUPool` lets a cancelled job leave its queue.
/// Child tasks, unlike `Task {}`, keep the caller's task executor preference and cancellation, so a
/// caller running off the cooperative pool stays off it.
final class InFlightCalls: Sendable {
  private enum Entry {
    /// Running; the cancel waiter's continuation once it is waiting.
    case running(CheckedContinuation<Void, Never>?)
    /// `cancel()` (or the end of the call) came before the waiter was waiting.
    case released
  }

  private struct State {
    var nextID: UInt64 = 0
    var entries: [UInt64: Entry] = [:]
  }

  private let state = Mutex(State())

  /// Runs `body` as one call that `cancelAll()` cancels.
  func run<T: Sendable>(_ body: @escaping @Sendable () async throws(LinkPreviewError) -> T)
    async throws(LinkPreviewError) -> T
  {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      state.entries[state.nextID] = .running(nil)
      return state.nextID
    }
    defer { _ = state.withLock { $0.entries.removeValue(forKey: id) } }
    let result = await withTaskGroup(of: Result<T, LinkPreviewError>?.self) { group in
      group.addTask {
        do throws(LinkPreviewError) {
          return .success(try await body())
        } catch {
          return .failure(error)
        }
      }
      group.addTask {
        await self.waitForCancel(id)
        return nil
      }
      var outcome: Result<T, LinkPreviewError> = .failure(.cancelled)
      while let next = await group.next() {
        // Either the call ended (the waiter is then released by the group's cancellation) or
        // `cancel()` came (the call then ends with its cancellation error).
        group.cancelAll()
        if let next { outcome = next }
      }
      return outcome
    }
    return try result.get()
  }

  /// Cancels every call in flight; calls made later run normally.
  func cancelAll() {
    release { _ in true }
  }

  /// Returns once `cancelAll()` or the task's cancellation released call `id`.
  private func waitForCancel(_ id: UInt64) async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let isReleased = state.withLock { state -> Bool in
          guard case .running = state.entries[id] else { return true }
          state.entries[id] = .running(continuation)
          return false
        }
        if isReleased { continuation.resume() }
      }
    } onCancel: {
      release { $0 == id }
    }
  }

  /// Marks the chosen running calls released and resumes their waiters, outside the lock.
  private func release(_ isChosen: (UInt64) -> Bool) {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      var waiters: [CheckedContinuation<Void, Never>] = []
      for (id, entry) in state.entries where isChosen(id) {
        if case .running(let continuation) = entry {
          if let continuation { waiters.append(continuation) }
          state.entries[id] = .released
        }
      }
      return waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
