import Dispatch
import Foundation
import Synchronization
import Testing
import ThumbifySystem

/// A task executor backed by a serial Dispatch queue, whose threads are not the cooperative pool's.
package final class SerialQueueExecutor: TaskExecutor, @unchecked Sendable {
  // Immutable after init; DispatchQueue is thread-safe.
  private let queue: DispatchQueue

  package init(label: String) { queue = DispatchQueue(label: label) }

  package func enqueue(_ job: consuming ExecutorJob) {
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
package struct DedicatedExecutorTrait: SuiteTrait, TestTrait, TestScoping {
  /// The running test's executor.
  @TaskLocal package static var current: SerialQueueExecutor?

  package var isRecursive: Bool { true }

  package func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil else { return try await function() }  // the suite: each of its tests gets one
    try await Self.run(test, function)
  }

  /// Runs `function` on a new executor of `test`'s own, which becomes `current`.
  package static func run(_ test: Test, _ function: @Sendable () async throws -> Void) async throws {
    let executor = SerialQueueExecutor(label: "thumbify.test.\(test.name)")
    try await $current.withValue(executor) {
      try await withTaskExecutorPreference(executor) { try await function() }
    }
  }
}

extension Trait where Self == DedicatedExecutorTrait {
  /// Runs each test on an executor of its own; see `DedicatedExecutorTrait`.
  package static var dedicatedExecutor: Self { DedicatedExecutorTrait() }
}

/// `Task { body }` on the running test's dedicated executor, if it has one: unstructured tasks do
/// not inherit an executor preference.
package func testTask<Success: Sendable>(_ body: @escaping @Sendable () async -> Success) -> Task<
  Success, Never
> {
  Task(executorPreference: DedicatedExecutorTrait.current, operation: body)
}

/// Runs each test on a thread of its own, off Swift's cooperative pool, at most one per core at a
/// time.
///
/// For the synchronous suites (decoding, resizing, parsing, SQLite): on the pool, two of their tests
/// held both of its threads for seconds at a time (debug-build SIMD, `fsync`), and every async test
/// of the process waited for a thread to resume on. With a loaded CI machine such stalls lasted over
/// 100 s and the network suites' time limits measured them. Here they take turns for two slots
/// (the pool's width, so the suite takes no longer), and the pool stays free for the async tests.
package struct OffThePoolTrait: SuiteTrait, TestTrait, TestScoping {
  package static let slots = AsyncSemaphore(width: ProcessInfo.processInfo.activeProcessorCount)

  package var isRecursive: Bool { true }

  package func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // A test already on an executor of its own (a nested suite's trait) holds its slot.
    guard testCase != nil, DedicatedExecutorTrait.current == nil else { return try await function() }
    guard await Self.slots.acquire() else { throw CancellationError() }
    defer { Self.slots.release() }
    try await DedicatedExecutorTrait.run(test, function)
  }
}

extension Trait where Self == OffThePoolTrait {
  /// Runs each test on a thread of its own, one per core at a time; see `OffThePoolTrait`.
  package static var offThePool: Self { OffThePoolTrait() }
}
