import Synchronization

/// Hands one transfer's result to its awaiting task exactly once.
///
/// Whichever comes first — completion on the multi loop or cancellation of the task —
/// takes the continuation out under the lock and resumes it after releasing the lock.
final class TransferTicket: Sendable {
  typealias Continuation = CheckedContinuation<Result<CurlCompletion, FetchError>, Never>

  private enum State {
    case idle
    case waiting(Continuation)
    case cancelled
    case done
  }

  private let state = Mutex<State>(.idle)
  private let transferMilliseconds = Atomic<Int>(0)

  /// How long curl spent on the transfer (`CURLINFO_TOTAL_TIME`; 0 when it never started): the part
  /// of an attempt that counts against the fetch's timeout, queue time excluded. Set by the loop
  /// before `finish`, read by the awaiting task after it.
  var transferTime: Duration { .milliseconds(transferMilliseconds.load(ordering: .relaxed)) }

  func recordTransferTime(seconds: Double) {
    transferMilliseconds.store(Int(min(max(seconds, 0), 1e9) * 1000), ordering: .relaxed)
  }

  /// Stores the continuation; false (and nothing stored) when the task was already cancelled.
  func install(_ continuation: Continuation) -> Bool {
    let installed = state.withLock { state -> Bool in
      guard case .idle = state else { return false }
      state = .waiting(continuation)
      return true
    }
    if !installed { continuation.resume(returning: .failure(.cancelled)) }
    return installed
  }

  /// Resumes the waiting task with `result`, unless it was resumed before.
  func finish(_ result: Result<CurlCompletion, FetchError>) {
    let continuation = state.withLock { state -> Continuation? in
      guard case .waiting(let continuation) = state else { return nil }
      state = .done
      return continuation
    }
    continuation?.resume(returning: result)
  }

  /// Resumes the waiting task with `.cancelled`; true when this call did so or will (idle).
  @discardableResult
  func cancel() -> Bool {
    let (continuation, changed) = state.withLock { state -> (Continuation?, Bool) in
      switch state {
      case .idle:
        state = .cancelled
        return (nil, true)
      case .waiting(let continuation):
        state = .done
        return (continuation, true)
      case .cancelled, .done:
        return (nil, false)
      }
    }
    continuation?.resume(returning: .failure(.cancelled))
    return changed
  }
}
