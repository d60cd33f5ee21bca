import Foundation
import Synchronization
import Testing

@testable import ThumbifyCLI

#if canImport(Glibc)
  import Glibc
#endif

/// `StopSignals` in this process: a signal sent to one particular thread that does not block it
/// still reaches the handlers. (libdispatch's signal sources lost exactly that one: they re-raised it
/// at that thread alone, where their signalfd never saw it — the SIGINT a loaded CI machine lost.)
/// SIGUSR1 and SIGUSR2 stand for SIGINT and SIGTERM, which would stop a crawl another test runs in
/// this process.
@Suite("Stop signals", .serialized)
struct StopSignalsTests {
  /// A thread of its own with SIGUSR1 and SIGUSR2 unblocked, waiting until `release` is signalled.
  final class UnblockedThread: @unchecked Sendable {
    let ready = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    private(set) var thread = pthread_t()

    init() {
      Thread { [self] in
        var both = sigset_t()
        sigemptyset(&both)
        sigaddset(&both, SIGUSR1)
        sigaddset(&both, SIGUSR2)
        pthread_sigmask(SIG_UNBLOCK, &both, nil)
        thread = pthread_self()
        ready.signal()
        release.wait()
      }.start()
      ready.wait()
    }
  }

  @Test(arguments: [SIGUSR1, SIGUSR2])
  func aSignalAtAThreadThatDoesNotBlockItReachesTheHandlers(signal: Int32) async throws {
    let calls = Mutex<[String]>([])
    let signals = StopSignals(
      signals: [SIGUSR1, SIGUSR2],
      onFirst: { number in calls.withLock { $0.append("first \(number)") } },
      onSecond: { calls.withLock { $0.append("second") } })
    defer { signals.cancel() }
    let target = UnblockedThread()
    defer { target.release.signal() }
    for _ in 0..<2 {
      #expect(pthread_kill(target.thread, signal) == 0)
      // Let the first be handled before the second is sent (one pending signal of a kind is one).
      for _ in 0..<400 where calls.withLock({ $0.count }) < 2 {
        try await Task.sleep(for: .milliseconds(5))
        if calls.withLock({ $0.count }) == 1 { break }
      }
    }
    for _ in 0..<400 where calls.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(5)) }
    #expect(calls.withLock { $0 } == ["first \(signal)", "second"])
    #expect(signals.first == signal)
  }

  @Test func cancellingGivesTheEarlierDispositionBack() {
    let earlier = Glibc.signal(SIGUSR1, SIG_IGN)
    defer { Glibc.signal(SIGUSR1, earlier) }
    let signals = StopSignals(signals: [SIGUSR1], onFirst: { _ in }, onSecond: {})
    var current = sigaction()
    sigaction(SIGUSR1, nil, &current)
    #expect(unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) > 1)
    signals.cancel()
    sigaction(SIGUSR1, nil, &current)
    #expect(unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1)  // SIG_IGN
  }
}
