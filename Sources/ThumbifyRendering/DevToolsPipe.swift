import CLinux
import Foundation
import Synchronization
import ThumbifyExtracting
import ThumbifySystem

#if canImport(Glibc)
  import Glibc
#endif

/// One Chromium process and its DevTools protocol connection over `--remote-debugging-pipe`:
/// commands are NUL-terminated JSON written to the browser's file descriptor 3, answers and events
/// NUL-terminated JSON read from its descriptor 4. No WebSocket, no port, nothing another local
/// program could connect to.
///
/// `send` waits for the answer to one command (matched by `id`); events (`Fetch.requestPaused`,
/// `Page.loadEventFired`, …) go to `onEvent` on the reader thread, in order. The browser runs in a
/// process group of its own, so `terminate()` (and `deinit`) kill it with its renderer and GPU
/// processes; when the browser exits by itself, every waiting command fails with `browserExited`.
package final class DevToolsPipe: Sendable {
  /// A protocol event: its method, parameters and the session (tab) it belongs to.
  package struct Event: Sendable {
    package var method: String
    package var params: JSONValue
    package var sessionID: String?
  }

  package let processID: pid_t
  private let commands: Int32
  private let responses: Int32
  private let state: Mutex<State>
  private let writeLock = Mutex(())
  private let onEvent: @Sendable (Event) -> Void

  private struct State {
    var nextID = 1
    var waiting: [Int: CheckedContinuation<Result<JSONValue, RenderError>, Never>] = [:]
    var hasExited = false
    var isReaped = false
  }

  /// Starts `executable` with `arguments` (`ChromiumLauncher.arguments(profile:)`), its standard
  /// output and error sent to /dev/null.
  package init(
    executable: String, arguments: [String], onEvent: @escaping @Sendable (Event) -> Void = { _ in }
  ) throws(RenderError) {
    var commandPipe: [Int32] = [-1, -1]
    var responsePipe: [Int32] = [-1, -1]
    guard thumbify_cloexec_pipe(&commandPipe) == 0 else {
      throw .launchFailed("pipe: \(Errno.current)")
    }
    guard thumbify_cloexec_pipe(&responsePipe) == 0 else {
      close(commandPipe[0])
      close(commandPipe[1])
      throw .launchFailed("pipe: \(Errno.current)")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, commandPipe[0], 3)
    posix_spawn_file_actions_adddup2(&actions, responsePipe[1], 4)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // A process group of its own (killed as one), no blocked signals, default SIGINT/SIGTERM/SIGPIPE.
    posix_spawnattr_setpgroup(&attributes, 0)
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    close(commandPipe[0])
    close(responsePipe[1])
    guard status == 0 else {
      close(commandPipe[1])
      close(responsePipe[0])
      throw .launchFailed("\(executable): \(Errno(rawValue: status))")
    }
    processID = pid
    commands = commandPipe[1]
    responses = responsePipe[0]
    state = Mutex(State())
    self.onEvent = onEvent
    let thread = Thread { [self] in readUntilExit() }
    thread.name = "thumbify devtools"
    thread.start()
  }

  deinit { terminate() }

  /// Sends one command and waits for its answer's `result`.
  ///
  /// - Throws: `protocolError` when the browser answers with an error, `timedOut` after `timeout`,
  ///   `browserExited` when it is gone.
  @discardableResult
  package func send(
    _ method: String, _ params: [String: JSONValue] = [:], session: String? = nil,
    timeout: Duration = .seconds(30)
  ) async throws(RenderError) -> JSONValue {
    var message: [String: Any] = ["method": method, "params": params.mapValues(\.foundationObject)]
    if let session { message["sessionId"] = session }
    let id = state.withLock { state -> Int in
      defer { state.nextID += 1 }
      return state.nextID
    }
    message["id"] = id
    let bytes: Data
    do {
      bytes = try JSONSerialization.data(withJSONObject: message)
    } catch {
      throw .protocolError(method: method, message: "unencodable parameters")
    }
    let timer = Task { [weak self] in
      try await Task.sleep(for: timeout)
      self?.finish(id, with: .failure(.timedOut(method: method)))
    }
    defer { timer.cancel() }
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<JSONValue, RenderError>, Never>) in
      let hasExited = state.withLock { state -> Bool in
        if state.hasExited { return true }
        state.waiting[id] = continuation
        return false
      }
      if hasExited { return continuation.resume(returning: .failure(.browserExited)) }
      if !write(bytes + [0]) { finish(id, with: .failure(.browserExited)) }
    }
    return try result.get()
  }

  /// Whether the browser process has exited (its pipe closed).
  package var hasExited: Bool { state.withLock { $0.hasExited } }

  /// Kills the browser's whole process group and reaps it. Safe to call more than once.
  package func terminate() {
    let shouldReap = state.withLock { state -> Bool in
      defer { state.isReaped = true }
      return !state.isReaped
    }
    guard shouldReap else { return }
    kill(-processID, SIGKILL)
    var status: Int32 = 0
    _ = SystemCall.retrying { waitpid(processID, &status, 0) }
    close(commands)
  }

  private func write(_ bytes: Data) -> Bool {
    writeLock.withLock { _ in
      bytes.withUnsafeBytes { SystemCall.writeAll(commands, $0) }
    }
  }

  private func finish(_ id: Int, with result: Result<JSONValue, RenderError>) {
    let continuation = state.withLock { $0.waiting.removeValue(forKey: id) }
    continuation?.resume(returning: result)
  }

  /// The reader thread: splits the stream at NUL bytes and hands each message on, until EOF.
  private func readUntilExit() {
    var pending: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes {
        SystemCall.read(responses, into: $0.baseAddress!, count: $0.count)
      }
      guard count > 0 else { break }
      var start = pending.count
      pending.append(contentsOf: chunk[0..<count])
      while let end = pending[start...].firstIndex(of: 0) {
        dispatch(pending[..<end])
        pending.removeSubrange(...end)
        start = 0
      }
      start = pending.count
    }
    close(responses)
    let waiting = state.withLock { state in
      state.hasExited = true
      defer { state.waiting.removeAll() }
      return Array(state.waiting.values)
    }
    for continuation in waiting { continuation.resume(returning: .failure(.browserExited)) }
  }

  private func dispatch(_ bytes: ArraySlice<UInt8>) {
    guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)),
      case .object(let message) = JSONValue(foundationObject: object)
    else { return }
    if case .number(let number) = message["id"] {
      let id = Int(number)
      if case .object(let error) = message["error"] {
        finish(
          id, with: .failure(.protocolError(method: "#\(id)", message: error["message"]?.stringValue ?? "")))
      } else {
        finish(id, with: .success(message["result"] ?? .object([:])))
      }
    } else if case .string(let method) = message["method"] {
      onEvent(
        Event(
          method: method, params: message["params"] ?? .object([:]),
          sessionID: message["sessionId"]?.stringValue))
    }
  }
}

extension JSONValue {
  /// The value as `JSONSerialization` reads and writes it.
  var foundationObject: Any {
    switch self {
    case .object(let members): return members.mapValues(\.foundationObject)
    case .array(let items): return items.map(\.foundationObject)
    case .string(let text): return text
    case .number(let value): return value
    case .bool(let value): return value
    case .null: return NSNull()
    }
  }

  /// A value `JSONSerialization` read.
  init(foundationObject object: Any) {
    switch object {
    case let members as [String: Any]: self = .object(members.mapValues(JSONValue.init(foundationObject:)))
    case let items as [Any]: self = .array(items.map(JSONValue.init(foundationObject:)))
    case let text as String: self = .string(text)
    case let number as NSNumber:
      // JSONSerialization gives booleans as NSNumbers too, of type `c` (it makes no other chars).
      if String(cString: number.objCType) == "c" {
        self = .bool(number.boolValue)
      } else {
        self = .number(number.doubleValue)
      }
    default: self = .null
    }
  }
}
