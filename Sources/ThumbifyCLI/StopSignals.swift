import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT and SIGTERM while a command runs, as DispatchSource signal sources (the default action,
/// which would kill the process mid-batch, is set to SIG_IGN meanwhile and restored after).
///
/// The first signal calls `onFirst` (a graceful stop), the second `onSecond` (stop at once); a third
/// ends the process on the spot with the first signal's exit code: every file thumbify writes is
/// written atomically and the state is SQLite, so that is as safe as `kill -9` (the next run resumes).
///
/// Owned by the command that installed it (not shared): its handlers share only `Received`.
final class StopSignals {
  /// The signals received, in order.
  private final class Received: Sendable {
    let list = Mutex<[Int32]>([])
  }

  private static let queue = DispatchQueue(label: "thumbify.stop-signals")
  private let sources: [any DispatchSourceSignal]
  private let previous: [(Int32, sighandler_t?)]
  private let received = Received()

  init(onFirst: @escaping @Sendable (Int32) -> Void, onSecond: @escaping @Sendable () -> Void) {
    let signals = [SIGINT, SIGTERM]
    previous = signals.map { ($0, signal($0, SIG_IGN)) }
    var sources: [any DispatchSourceSignal] = []
    let received = received
    for number in signals {
      // A private serial queue, not `.global()`: the global queues are not overcommitting, so with
      // every pool thread busy (2 cores, a crawl's CPU work) the handler waited until the crawl ended,
      // and the stop came too late; a private queue gets a thread of its own.
      let source = DispatchSource.makeSignalSource(signal: number, queue: Self.queue)
      source.setEventHandler {
        let count = received.list.withLock { list -> Int in
          list.append(number)
          return list.count
        }
        switch count {
        case 1: onFirst(number)
        case 2: onSecond()
        default: _exit(StopSignals.exitCode(for: received.list.withLock { $0[0] }))
        }
      }
      // Registered before `init` returns: until libdispatch has its signalfd, a signal would meet
      // SIG_IGN and be lost (a Ctrl-C at once would not stop the crawl).
      let registered = DispatchSemaphore(value: 0)
      source.setRegistrationHandler { registered.signal() }
      source.resume()
      _ = registered.wait(timeout: .now() + .seconds(2))
      sources.append(source)
    }
    self.sources = sources
  }

  /// The first signal received, if any.
  var first: Int32? { received.list.withLock { $0.first } }

  /// 130 for SIGINT, 143 for SIGTERM (128 + the signal, as shells report a death by it).
  static func exitCode(for signal: Int32) -> Int32 {
    signal == SIGTERM ? ExitCode.terminated : ExitCode.interrupted
  }

  /// Stops listening and gives the signals their earlier dispositions back.
  func cancel() {
    for source in sources { source.cancel() }
    for (number, handler) in previous { signal(number, handler) }
  }
}
