import Dispatch
import Testing

/// A task executor backed by a serial Dispatch queue, whose threads are not the cooperative pool's.
final class SerialQueueExecutor: TaskExecutor, @unchecked Sendable {
  // Immutable after init; DispatchQueue is thread-safe.
  private let queue: DispatchQueue

  init(label: String) { queue = DispatchQueue(label: label) }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}

/// Runs each test on an executor of its own (`withTaskExecutorPreference`), so that its
/// continuations resume on time however busy the cooperative pool is.
///
/// For tests that measure how long something takes (a cancellation, a capped delay): Swift
/// Testing runs every test on the cooperative pool, two threads on CI, and CPU-bound tests
/// (decoding, SSIM) hold those threads for seconds, which made "cancelled within 10 s"
/// measure the other tests instead of the fetcher. Child tasks and the tasks these tests start
/// with `Task(executorPreference:)` run there too.
struct DedicatedExecutorTrait: SuiteTrait, TestTrait, TestScoping {
  /// The running test's executor.
  @TaskLocal static var current: SerialQueueExecutor?

  var isRecursive: Bool { true }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil else { return try await function() }  // the suite: each of its tests gets one
    let executor = SerialQueueExecutor(label: "thumbify.test.\(test.name)")
    try await Self.$current.withValue(executor) {
      try await withTaskExecutorPreference(executor) { try await function() }
    }
  }
}

extension Trait where Self == DedicatedExecutorTrait {
  /// Runs each test on an executor of its own; see `DedicatedExecutorTrait`.
  static var dedicatedExecutor: Self { DedicatedExecutorTrait() }
}

/// `Task { body }` on the running test's dedicated executor, if it has one: unstructured tasks do
/// not inherit an executor preference.
func testTask<Success: Sendable>(_ body: @escaping @Sendable () async -> Success) -> Task<Success, Never> {
  Task(executorPreference: DedicatedExecutorTrait.current, operation: body)
}
