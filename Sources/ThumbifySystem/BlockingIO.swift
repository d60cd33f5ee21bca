import Dispatch

/// The executor of blocking work: SQLite transactions, passes over files, a lock's short retry loop.
///
/// Swift's cooperative pool has one thread per core (two on a 2-core machine); a task that blocks
/// one of them in `fsync`, a SQLite commit or a `read` on a pipe stops every other task of the
/// process from resuming there — the crawl's fetch callbacks, a library caller's timeouts. Work that
/// blocks runs here instead, on threads of a Dispatch queue that adds a thread when its threads
/// block, and the task resumes on the pool afterwards.
///
/// ```swift
/// let state = try await BlockingIO.run { () throws(StoreError) in try StateStore(path: path) }
/// ```
package enum BlockingIO {
  /// Runs `body` on the blocking-I/O executor and returns its result; the caller's task waits
  /// without holding a cooperative thread.
  ///
  /// `body` runs in the calling task (its task-locals, its cancellation), so it may capture local
  /// state; only its thread differs.
  package static func run<T, E: Error>(_ body: () throws(E) -> T) async throws(E) -> T {
    try await withTaskExecutorPreference(BlockingIOExecutor.shared) { () async throws(E) -> T in
      try body()
    }
  }
}

/// A task executor on a concurrent Dispatch queue, whose threads are not the cooperative pool's.
package final class BlockingIOExecutor: TaskExecutor {
  /// The process's one blocking-I/O executor.
  package static let shared = BlockingIOExecutor()

  // A queue of its own targets Dispatch's overcommitting root queue: a job that waits on I/O gets a
  // thread even when the others are blocked.
  private let queue = DispatchQueue(label: "thumbify.blocking-io", attributes: .concurrent)

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
