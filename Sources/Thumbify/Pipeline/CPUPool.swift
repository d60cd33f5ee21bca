import Dispatch
import ThumbifySystem

/// Runs CPU-bound work (decode, resize, encode) off the cooperative pool, at most `width` jobs at once.
///
/// Jobs wait their turn in FIFO order; a job waiting for a slot that is cancelled leaves the queue.
package final class CPUPool: Sendable {
  private let slots: AsyncSemaphore
  private let queue = DispatchQueue(label: "thumbify.cpu", attributes: .concurrent)

  package init(width: Int) {
    slots = AsyncSemaphore(width: width)
  }

  /// Runs `body` on a pool thread once a slot is free and returns its result.
  ///
  /// - Throws: `CancellationError` when the task was cancelled while waiting for a slot, else what
  ///   `body` throws.
  package func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws -> T {
    guard await slots.acquire() else { throw CancellationError() }
    defer { slots.release() }
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
}
