import Foundation
import Synchronization

// Swift Testing runs every test concurrently on Swift's cooperative pool, which has one thread per
// core (two on CI). A test that blocks one of them (`waitUntilExit`, `usleep`, a blocking pipe
// read) stalls the continuations of every other test: on a loaded CI machine stalls of over 10 s
// made the fetch tests' cancellation and crawl-delay expectations fail. Tests therefore wait for
// child processes with `ChildProcess` and do unavoidable blocking work through `offThePool`.

/// Runs blocking `body` on a thread of its own, not the cooperative pool's, and returns its result.
///
/// A thread per call, not Dispatch's global queue: that queue is as wide as the machine (two
/// threads on CI) and adds a thread only when its monitor sees the others blocked for a while, so
/// in a parallel run a few blocking reads (the serve tests' 120 s `recv`s, a slowloris client) made
/// every later call wait behind them.
package func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Result { try body() }) }
    thread.name = "thumbify.test.blocking"
    thread.start()
  }
}

/// A started child process whose exit is awaited without holding a thread.
package final class ChildProcess: Sendable {
  /// The exit status once known, and the tasks waiting for it.
  private final class Exit: Sendable {
    package let state = Mutex<(status: Int32?, waiters: [CheckedContinuation<Int32, Never>])>((nil, []))

    package func record(_ status: Int32) {
      let waiters = state.withLock { state in
        state.status = status
        defer { state.waiters = [] }
        return state.waiters
      }
      for waiter in waiters { waiter.resume(returning: status) }
    }
  }

  package let processIdentifier: Int32
  private let exit = Exit()

  /// Runs `process`, which must not have a termination handler of its own.
  package init(_ process: Process) throws {
    let exit = exit
    process.terminationHandler = { exit.record($0.terminationStatus) }
    try process.run()
    processIdentifier = process.processIdentifier
  }

  /// Runs `process` to its end; returns its exit status.
  package static func run(_ process: Process) async throws -> Int32 {
    try await ChildProcess(process).exitStatus()
  }

  /// Waits for the process to exit; returns its status (the signal number when it was killed).
  package func exitStatus() async -> Int32 {
    await withCheckedContinuation { continuation in
      let status = exit.state.withLock { state -> Int32? in
        if state.status == nil { state.waiters.append(continuation) }
        return state.status
      }
      if let status { continuation.resume(returning: status) }
    }
  }
}
