import CStopSignals
import Foundation
import Synchronization
import Thumbify

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT and SIGTERM while a command runs: a C handler writes each signal into a pipe, and a thread
/// of its own reads it and calls the handlers (the default action, which would kill the process
/// mid-batch, is replaced meanwhile and restored after).
///
/// The first signal calls `onFirst` (a graceful stop), the second `onSecond` (stop at once); a third
/// ends the process on the spot with the first signal's exit code: every file thumbify writes is
/// written atomically and the state is SQLite, so that is as safe as `kill -9` (the next run resumes).
///
/// Not libdispatch's signal sources: on Linux, a signal that reaches a thread which does not block it
/// is re-raised there, at that thread alone, where their signalfd (read on another thread) never sees
/// it; on a loaded machine a SIGINT was lost so (the crawl ran to its end, exit 0). A handler of our
/// own runs on whichever thread the kernel picks, and the reading thread blocks no signal, so there is
/// always a thread to take one.
///
/// Owned by the command that installed it; one instance per signal at a time.
final class StopSignals {
  /// The signals received, in order.
  private final class Received: Sendable {
    let list = Mutex<[Int32]>([])
  }

  /// Each installed signal's handler, called on the reading thread, and whether that thread runs (it
  /// lives as long as the process, as the pipe does); the lock also serializes the C calls.
  private static let listeners = Mutex<(handlers: [Int32: @Sendable (Int32) -> Void], isReading: Bool)>(
    ([:], false))

  private static func startReading(_ descriptor: Int32) {
    let reader = Thread {
      var none = sigset_t()
      sigemptyset(&none)
      pthread_sigmask(SIG_SETMASK, &none, nil)
      var byte: UInt8 = 0
      while true {
        guard SystemCall.read(descriptor, into: &byte, count: 1) == 1 else { return }
        let number = Int32(byte)
        let handler = listeners.withLock { $0.handlers[number] }
        handler?(number)
      }
    }
    reader.name = "thumbify-signals"
    reader.start()
  }

  private let signals: [Int32]
  private let received = Received()

  /// `signals` are SIGINT and SIGTERM but in tests, which use others so as not to stop a crawl
  /// running in the same process.
  init(
    signals: [Int32] = [SIGINT, SIGTERM], onFirst: @escaping @Sendable (Int32) -> Void,
    onSecond: @escaping @Sendable () -> Void
  ) {
    let received = received
    let handler: @Sendable (Int32) -> Void = { number in
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
    self.signals = Self.listeners.withLock { listeners in
      signals.filter { number in
        // A signal that cannot be caught keeps its default action (Ctrl-C then ends the crawl as
        // `kill -9` would, which the next run survives).
        let descriptor = thumbify_stop_signals_install(number)
        guard descriptor >= 0 else { return false }
        listeners.handlers[number] = handler
        if !listeners.isReading {
          listeners.isReading = true
          Self.startReading(descriptor)
        }
        return true
      }
    }
  }

  /// The first signal received, if any.
  var first: Int32? { received.list.withLock { $0.first } }

  /// 130 for SIGINT, 143 for SIGTERM (128 + the signal, as shells report a death by it).
  static func exitCode(for signal: Int32) -> Int32 {
    signal == SIGTERM ? ExitCode.terminated : ExitCode.interrupted
  }

  /// Stops listening and gives the signals their earlier dispositions back.
  func cancel() {
    Self.listeners.withLock { listeners in
      for number in signals {
        thumbify_stop_signals_restore(number)
        listeners.handlers[number] = nil
      }
    }
  }
}
