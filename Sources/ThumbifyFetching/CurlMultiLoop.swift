import CCurl
import Foundation
import Synchronization
import ThumbifySystem

#if canImport(Glibc)
  import Glibc
#endif

/// One libcurl multi handle driven by its own thread, which makes every curl call.
///
/// Other threads talk to the loop only by appending a command to the Mutex-locked inbox and
/// calling `curl_multi_wakeup`, the one multi call libcurl allows from another thread. The
/// loop runs `curl_multi_perform` → `curl_multi_info_read` → `curl_multi_poll`, starts waiting
/// transfers as `HostQueue` frees slots, and resumes each caller exactly once.
final class CurlMultiLoop: @unchecked Sendable {
  // Confined to the loop thread: `queue`, `active`, and every use of `multi` and `share`
  // except `curl_multi_wakeup`. Guarded by `inbox`'s lock: the pending commands.
  private enum Command {
    case add(CurlTransfer)
    case cancel(CurlTransfer)
    case setDelay(Duration, host: String)
    case postpone(host: String, until: ContinuousClock.Instant)
    case hold(host: String)
    case release(host: String)
  }

  private struct Inbox {
    var commands: [Command] = []
    var isClosed = false
  }

  /// The loop thread's name, as shown in `/proc/self/task/*/comm`.
  static let threadName = "thumbify-curl"

  let configuration: FetcherConfiguration
  private let multi: UnsafeMutableRawPointer
  private let share: UnsafeMutableRawPointer
  private let inbox = Mutex(Inbox())
  private var queue: HostQueue<CurlTransfer>
  private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
  /// Easy handles of finished transfers, reset for the next: `curl_easy_init`, which allocates a
  /// handle's buffers anew, was 0.8 % of a 100,000-URL crawl's CPU in perf, and freeing them part of
  /// the 1 % that releasing finished transfers took.
  private var spareHandles: [CurlEasyHandle] = []
  private let thread = Mutex<pthread_t?>(nil)
  /// The loop thread's kernel thread ID (its `/proc/self/task` entry), 0 until it runs.
  let threadID = Atomic<Int32>(0)
  /// Easy handles made so far (`curl_easy_init`); with reuse, at most one per transfer running at once.
  let handlesMade = Atomic<Int>(0)
  /// Set by `stopStarting()`, for good. An atomic the loop reads before it starts anything, not a
  /// command: a command waits in the inbox while the loop may still start what it found ready.
  private let isStopped = Atomic(false)

  /// Creates the multi handle and starts its thread.
  init(configuration: FetcherConfiguration) throws(FetchError) {
    guard let multi = curl_multi_init() else { throw .other("curl_multi_init failed: out of memory.") }
    guard let share = curl_share_init() else {
      curl_multi_cleanup(multi)
      throw .other("curl_share_init failed: out of memory.")
    }
    self.configuration = configuration
    self.multi = multi
    self.share = share
    queue = HostQueue(
      globalLimit: configuration.maxConcurrentTransfers, perHostLimit: configuration.maxTransfersPerHost,
      defaultDelay: configuration.perHostDelay)
    _ = thumbify_multi_setopt_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
    // Idle connections kept for reuse; curl's default shrinks with the number of running
    // transfers, which would close every kept-alive connection between bursts.
    _ = thumbify_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(64, configuration.maxConcurrentTransfers))
    _ = thumbify_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
    _ = thumbify_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
    var handle = pthread_t()
    let context = Unmanaged.passRetained(self).toOpaque()
    let created = pthread_create(
      &handle, nil,
      { context in
        guard let context else { return nil }
        let loop = Unmanaged<CurlMultiLoop>.fromOpaque(context).takeRetainedValue()
        Thread.current.name = CurlMultiLoop.threadName
        let task = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        loop.threadID.store(Int32(task.split(separator: "/").last ?? "") ?? 0, ordering: .relaxed)
        loop.run()
        return nil
      }, context)
    guard created == 0 else {
      Unmanaged<CurlMultiLoop>.fromOpaque(context).release()
      throw .other("Could not start the fetcher thread: \(SystemCall.message(created))")
    }
    thread.withLock { $0 = handle }
  }

  deinit {
    curl_multi_cleanup(multi)
    curl_share_cleanup(share)
  }

  /// Runs `transfer` and returns its completion; cancelling the task removes the transfer.
  /// `onQueued` is called once the transfer is in the loop's inbox (or was refused).
  func perform(_ transfer: CurlTransfer, onQueued: (@Sendable () -> Void)? = nil) async -> Result<
    CurlCompletion, FetchError
  > {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        defer { onQueued?() }
        guard transfer.ticket.install(continuation) else { return }
        if isStopped.load(ordering: .acquiring) {
          transfer.ticket.finish(.failure(.stopped))
        } else if !post(.add(transfer)) {
          transfer.ticket.finish(.failure(.cancelled))
        }
      }
    } onCancel: {
      if transfer.ticket.cancel() { post(.cancel(transfer)) }
    }
  }

  /// Sets `host`'s minimum delay between transfer starts.
  func setDelay(_ delay: Duration, host: String) { post(.setDelay(delay, host: host)) }

  /// Holds `host`'s transfers other than robots.txt until `release(host:)` (`HostQueue.hold`).
  func hold(host: String) { post(.hold(host: host)) }

  /// Ends a `hold(host:)`.
  func release(host: String) { post(.release(host: host)) }

  /// Keeps `host` from starting transfers until `instant`.
  func postpone(host: String, until instant: ContinuousClock.Instant) {
    post(.postpone(host: host, until: instant))
  }

  /// Starts no transfer from now on: the waiting ones and every later one end `.stopped`; the running
  /// ones go on. For good.
  func stopStarting() {
    isStopped.store(true, ordering: .releasing)
    curl_multi_wakeup(multi)
  }

  /// Cancels every transfer, stops the thread and waits for it to exit. Idempotent.
  func shutdown() {
    inbox.withLock { $0.isClosed = true }
    curl_multi_wakeup(multi)
    guard let handle = thread.withLock({ $0.take() }) else { return }
    pthread_join(handle, nil)
  }

  @discardableResult
  private func post(_ command: Command) -> Bool {
    // Only the first command of a batch wakes the loop: it drains the whole inbox at once.
    let (posted, wakes) = inbox.withLock { inbox -> (Bool, Bool) in
      guard !inbox.isClosed else { return (false, false) }
      inbox.commands.append(command)
      return (true, inbox.commands.count == 1)
    }
    if wakes { curl_multi_wakeup(multi) }
    return posted
  }

  // MARK: - The loop thread

  private func run() {
    var running: Int32 = 0
    var remaining: Int32 = 0
    var nextSweep = ContinuousClock.now + .seconds(10)
    while true {
      let (commands, isClosed) = inbox.withLock { inbox in
        defer { inbox.commands = [] }
        return (inbox.commands, inbox.isClosed)
      }
      if isClosed {
        drain(commands)
        break
      }
      for command in commands { handle(command) }
      if isStopped.load(ordering: .acquiring) {
        for transfer in queue.removeAllPending() { transfer.ticket.finish(.failure(.stopped)) }
      } else {
        startReadyTransfers()
      }
      curl_multi_perform(multi, &running)
      var finished = false
      while let message = curl_multi_info_read(multi, &remaining) {
        guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
        complete(easy: easy, code: message.pointee.data.result)
        finished = true
      }
      let now = ContinuousClock.now
      if now >= nextSweep {
        queue.sweep(now: now)
        nextSweep = now + .seconds(10)
      }
      let wait = queue.timeUntilNextStart(now: now)
      if finished && wait == .zero { continue }
      let milliseconds = wait.map { Int32(min(1000, max(0, $0.milliseconds))) } ?? 1000
      curl_multi_poll(multi, nil, 0, milliseconds, nil)
    }
  }

  private func handle(_ command: Command) {
    switch command {
    case .add(let transfer):
      queue.enqueue(transfer, host: transfer.host, priority: transfer.request.priority)
    case .cancel(let transfer):
      if let easy = transfer.easy, active.removeValue(forKey: easy.raw) != nil {
        curl_multi_remove_handle(multi, easy.raw)
        transfer.easy = nil
        recycle(easy)
        queue.finish(host: transfer.host)
      } else {
        _ = queue.removePending(host: transfer.host) { $0 === transfer }
      }
    case .setDelay(let delay, let host):
      queue.setDelay(delay, host: host)
    case .postpone(let host, let instant):
      queue.postpone(host: host, until: instant)
    case .hold(let host):
      queue.hold(host: host)
    case .release(let host):
      queue.release(host: host)
    }
  }

  private func startReadyTransfers() {
    for (transfer, host) in queue.popReady(now: .now) {
      guard let easy = spareHandles.popLast() ?? makeHandle() else {
        queue.finish(host: host)
        transfer.ticket.finish(.failure(.other("curl_easy_init failed: out of memory.")))
        continue
      }
      transfer.easy = easy
      CurlRequestOptions.apply(configuration, share: share, to: easy, for: transfer)
      var failure: FetchError?
      if let (option, code) = easy.setupError {
        failure = .other(
          "Setting curl option \(option.rawValue) failed: \(String(cString: curl_easy_strerror(code)))")
      } else {
        let code = curl_multi_add_handle(multi, easy.raw)
        if code != CURLM_OK { failure = .other(String(cString: curl_multi_strerror(code))) }
      }
      if let failure {
        transfer.easy = nil
        queue.finish(host: host)
        transfer.ticket.finish(.failure(failure))
        continue
      }
      active[easy.raw] = transfer
    }
  }

  private func complete(easy: UnsafeMutableRawPointer, code: CURLcode) {
    guard let transfer = active.removeValue(forKey: easy) else {
      curl_multi_remove_handle(multi, easy)
      return
    }
    let result = transfer.finish(code: code)
    curl_multi_remove_handle(multi, easy)
    if let handle = transfer.easy { recycle(handle) }
    transfer.easy = nil
    queue.finish(host: transfer.host)
    transfer.ticket.finish(result)
  }

  private func makeHandle() -> CurlEasyHandle? {
    handlesMade.add(1, ordering: .relaxed)
    return CurlEasyHandle()
  }

  /// Keeps the handle of a transfer removed from the multi handle for the next transfer.
  private func recycle(_ easy: CurlEasyHandle) {
    guard spareHandles.count < configuration.maxConcurrentTransfers else { return }
    easy.reset()
    spareHandles.append(easy)
  }

  /// Shutdown: fails everything still waiting or running with `.cancelled`.
  private func drain(_ commands: [Command]) {
    for command in commands {
      if case .add(let transfer) = command { transfer.ticket.finish(.failure(.cancelled)) }
    }
    for (easy, transfer) in active {
      curl_multi_remove_handle(multi, easy)
      transfer.easy = nil
      transfer.ticket.finish(.failure(.cancelled))
    }
    active = [:]
    for transfer in queue.removeAllPending() { transfer.ticket.finish(.failure(.cancelled)) }
  }
}

extension Duration {
  /// Whole milliseconds, rounded down.
  var milliseconds: Int {
    let (seconds, attoseconds) = components
    return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
  }
}
