import CMicroHTTPD
import Foundation
import Synchronization
import Thumbify

#if canImport(Glibc)
  import Glibc
#endif

/// One request as the server's handler sees it: read on libmicrohttpd's thread before any waiting.
struct HTTPRequest: Sendable {
  var method: String
  /// The request target as sent, query string included (`/v1/card?url=…`).
  var target: String
  /// The client's address (`127.0.0.1`, `::1`), or `unix` for a Unix socket.
  var client: String
  /// `Authorization`'s value, if any.
  var authorization: String?
  /// `If-None-Match`'s value, if any.
  var ifNoneMatch: String?
}

/// What the handler answers.
struct HTTPResponse: Sendable {
  enum Body: Sendable {
    case bytes([UInt8])
    /// An open file descriptor of `size` bytes, closed by the server once sent.
    case file(descriptor: Int32, size: UInt64)
  }

  var status: Int
  var headers: [(String, String)] = []
  var body: Body = .bytes([])
  /// The route, for metrics and the access log (`card`, `blobs`, …).
  var route: String = "other"
  /// Extra fields for the access log (`source`, `code`).
  var logFields: [String: String] = [:]

  var byteCount: Int {
    switch body {
    case .bytes(let bytes): bytes.count
    case .file(_, let size): Int(size)
    }
  }
}

/// How a handler answers: now, on libmicrohttpd's thread, or later, from Swift concurrency (the
/// connection is suspended meanwhile and no thread waits: `MHD_suspend_connection`).
enum HTTPHandling: Sendable {
  case now(HTTPResponse)
  case later(@Sendable () async -> HTTPResponse)
}

/// Where the server listens.
enum ListenAddress: Equatable, CustomStringConvertible {
  case inet(host: String, port: Int)
  case unix(path: String)

  /// `127.0.0.1:8080`, `[::1]:8080`, `localhost:8080`, or a Unix socket path (anything with a `/`).
  init?(_ text: String) {
    if text.contains("/") {
      self = .unix(path: text)
      return
    }
    guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
      (0...65_535).contains(port)
    else { return nil }
    var host = String(text[..<colon])
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    if host == "localhost" { host = "127.0.0.1" }
    guard IPAddress(host) != nil else { return nil }
    self = .inet(host: host, port: port)
  }

  /// Loopback addresses and Unix sockets: reachable only from this machine.
  var isLocal: Bool {
    switch self {
    case .unix: return true
    case .inet(let host, _):
      guard let address = IPAddress(host) else { return false }
      switch address {
      case .v4(let value): return value >> 24 == 127
      case .v6(let bytes): return bytes == [UInt8](repeating: 0, count: 15) + [1]
      }
    }
  }

  var description: String {
    switch self {
    case .unix(let path): path
    case .inet(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
  }
}

/// An HTTP/1.1 server on libmicrohttpd: its own threads (one by default, like nginx's single worker;
/// each polls its own connections with epoll) accept, parse and answer; a handler that must wait suspends the connection and resumes it from a Swift
/// task, so neither MHD's threads nor Swift's cooperative pool block on a slow page.
///
/// The C handles are owned here: the daemon is stopped by `stop()` (and on deinit).
final class HTTPServer: @unchecked Sendable {
  // Guarded by: `daemon` is set in init and cleared by `stop()`, which the owner calls once, after
  // `quiesce()`; the callbacks only read the immutable rest.

  /// Limits enforced by libmicrohttpd.
  struct Limits: Sendable {
    /// Open connections at once; past it new ones are refused.
    var connections: Int = 512
    /// Open connections from one address (TCP only; 0: none).
    var connectionsPerClient: Int = 64
    /// Seconds a connection may stay idle (or trickle a request in) before it is closed.
    var idleTimeout: Int = 10
    /// Memory of one connection, which bounds its request line and headers: a larger request is
    /// answered 431 (or 414) by libmicrohttpd without reaching the handler.
    var connectionMemory: Int = 32 * 1024
    /// Threads answering requests, each with its own connections. One: on a small machine more
    /// threads than cores are preempted holding ready connections (docs/serve.md, "Load benchmark").
    var threads: Int = 1
  }

  let address: ListenAddress
  /// The port bound (a TCP `port` of 0 picks one).
  let port: Int
  private let handler: @Sendable (HTTPRequest) -> HTTPHandling
  private let onComplete: @Sendable (HTTPRequest, HTTPResponse, Duration) -> Void
  private var daemon: OpaquePointer?
  private var listenDescriptor: Int32
  /// Requests received and not yet answered.
  private let active = Atomic<Int>(0)

  /// Per-request state, from the URI callback to the completion callback.
  final class Context: @unchecked Sendable {
    // Guarded by `lock`, except `target` and `started`, set before the context is shared.
    let target: String
    let started = ContinuousClock.now
    let lock = Mutex<(request: HTTPRequest?, response: HTTPResponse?, isSuspended: Bool)>((nil, nil, false))
    /// Whether the access handler has been called once (with the headers only). Confined to MHD's
    /// thread of the connection.
    var isHeaderCallDone = false
    init(target: String) { self.target = target }
  }

  enum Failure: Error, CustomStringConvertible {
    case listen(String, String)
    case start(String)

    var description: String {
      switch self {
      case .listen(let address, let message): "Cannot listen on \(address): \(message)."
      case .start(let address): "libmicrohttpd could not start on \(address)."
      }
    }
  }

  init(
    address: ListenAddress, limits: Limits, handler: @escaping @Sendable (HTTPRequest) -> HTTPHandling,
    onComplete: @escaping @Sendable (HTTPRequest, HTTPResponse, Duration) -> Void
  ) throws(Failure) {
    self.address = address
    self.handler = handler
    self.onComplete = onComplete
    (listenDescriptor, port) = try Self.listen(address)
    let flags =
      MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
    let isUnix = if case .unix = address { true } else { false }
    let started = thumbify_mhd_start(
      UInt32(flags), listenDescriptor, Self.accessCallback, Self.completedCallback, Self.uriCallback,
      Unmanaged.passUnretained(self).toOpaque(), UInt32(max(1, limits.threads)),
      UInt32(max(1, limits.connections)), isUnix ? 0 : UInt32(max(0, limits.connectionsPerClient)),
      UInt32(max(1, limits.idleTimeout)), max(8192, limits.connectionMemory))
    guard let started else {
      close(listenDescriptor)
      throw .start(address.description)
    }
    daemon = started
  }

  deinit { stop() }

  /// Requests received and not answered yet.
  var activeRequests: Int { active.load(ordering: .relaxed) }

  /// Stops accepting connections (the listening socket is closed; connections open stay open).
  func quiesce() {
    guard let daemon else { return }
    let descriptor = MHD_quiesce_daemon(daemon)
    if descriptor >= 0 { close(descriptor) }
    if case .unix(let path) = address { unlink(path) }
  }

  /// Stops the daemon: closes every connection and joins MHD's threads.
  func stop() {
    guard let daemon else { return }
    self.daemon = nil
    MHD_stop_daemon(daemon)
    if case .unix(let path) = address { unlink(path) }
  }

  // MARK: - Callbacks (C)

  private static let uriCallback:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) ->
      UnsafeMutableRawPointer? =
      { cls, uri, _ in
        let server = Unmanaged<HTTPServer>.fromOpaque(cls!).takeUnretainedValue()
        server.active.wrappingAdd(1, ordering: .relaxed)
        let context = Context(target: uri.map { String(cString: $0) } ?? "/")
        return Unmanaged.passRetained(context).toOpaque()
      }

  private static let completedCallback:
    @convention(c) (
      UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
      MHD_RequestTerminationCode
    ) -> Void = { cls, _, requestContext, _ in
      let server = Unmanaged<HTTPServer>.fromOpaque(cls!).takeUnretainedValue()
      guard let pointer = requestContext?.pointee else { return }
      requestContext?.pointee = nil
      let context = Unmanaged<Context>.fromOpaque(pointer).takeRetainedValue()
      server.active.wrappingSubtract(1, ordering: .relaxed)
      let (request, response) = context.lock.withLock { ($0.request, $0.response) }
      if let request, let response {
        server.onComplete(request, response, ContinuousClock.now - context.started)
      }
    }

  private static let accessCallback:
    @convention(c) (
      UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
      UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?,
      UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> MHD_Result = { cls, connection, _, method, _, _, uploadSize, requestContext in
      let server = Unmanaged<HTTPServer>.fromOpaque(cls!).takeUnretainedValue()
      guard let connection, let pointer = requestContext?.pointee else { return MHD_Result.NO }
      let context = Unmanaged<Context>.fromOpaque(pointer).takeUnretainedValue()
      // The first call comes with the headers: answering in it makes libmicrohttpd close the
      // connection (it cannot know the request has no body), so keep-alive needs the second.
      if !context.isHeaderCallDone {
        context.isHeaderCallDone = true
        return MHD_Result.YES
      }
      // A request body (none is expected) is read and dropped.
      if let uploadSize, uploadSize.pointee != 0 {
        uploadSize.pointee = 0
        return MHD_Result.YES
      }
      let state = context.lock.withLock { $0 }
      if let response = state.response {
        return server.queue(response, on: connection)
      }
      guard state.request == nil else { return MHD_Result.YES }  // suspended, resumed early: wait
      let request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "GET", target: context.target,
        client: HTTPServer.client(of: connection),
        authorization: HTTPServer.header("Authorization", of: connection),
        ifNoneMatch: HTTPServer.header("If-None-Match", of: connection))
      switch server.handler(request) {
      case .now(let response):
        context.lock.withLock {
          $0.request = request
          $0.response = response
        }
        return server.queue(response, on: connection)
      case .later(let work):
        context.lock.withLock {
          $0.request = request
          $0.isSuspended = true
        }
        MHD_suspend_connection(connection)
        // The connection pointer stays valid while suspended; it is only handed back to MHD.
        let handle = UnsafeSendable(connection)
        Task {
          let response = await work()
          context.lock.withLock { $0.response = response }
          MHD_resume_connection(handle.value)
        }
        return MHD_Result.YES
      }
    }

  /// Queues `response` on `connection` (libmicrohttpd copies the bytes).
  private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let made: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
      made = bytes.withUnsafeBytes { buffer in
        thumbify_mhd_response_copying(buffer.count, buffer.baseAddress)
      }
    case .file(let descriptor, let size):
      made = MHD_create_response_from_fd(Int(size), descriptor)
    }
    guard let made else { return MHD_Result.NO }
    defer { MHD_destroy_response(made) }
    for (name, value) in response.headers { MHD_add_response_header(made, name, value) }
    return MHD_queue_response(connection, UInt32(response.status), made)
  }

  private static func header(_ name: String, of connection: OpaquePointer) -> String? {
    MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
  }

  private static func client(of connection: OpaquePointer) -> String {
    guard let address = thumbify_mhd_client_address(connection) else { return "unix" }
    // On the stack: this runs for every request.
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { buffer in
      buffer.initialize(repeating: 0)
      let text: UnsafePointer<CChar>?
      switch Int32(address.pointee.sa_family) {
      case AF_INET:
        var inet = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
        text = inet_ntop(AF_INET, &inet.sin_addr, buffer.baseAddress, socklen_t(buffer.count))
      case AF_INET6:
        var inet6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
        text = inet_ntop(AF_INET6, &inet6.sin6_addr, buffer.baseAddress, socklen_t(buffer.count))
      default:
        text = nil
      }
      return text.map { String(cString: $0) } ?? "unix"
    }
  }

  // MARK: - Listening socket

  /// A socket bound to `address` and listening, and its port (0 for a Unix socket).
  private static func listen(_ address: ListenAddress) throws(Failure) -> (Int32, Int) {
    func failure(_ call: String) -> Failure {
      .listen(address.description, "\(call): \(Errno.current)")
    }
    switch address {
    case .unix(let path):
      let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      guard descriptor >= 0 else { throw failure("socket") }
      var name = sockaddr_un()
      name.sun_family = sa_family_t(AF_UNIX)
      let bytes = Array(path.utf8)
      guard bytes.count < MemoryLayout.size(ofValue: name.sun_path) else {
        close(descriptor)
        throw .listen(path, "the path is too long for a Unix socket")
      }
      withUnsafeMutableBytes(of: &name.sun_path) { buffer in
        for (index, byte) in bytes.enumerated() { buffer[index] = byte }
      }
      // A socket file left by an earlier server that is gone (nothing accepts on it) is replaced.
      if access(path, F_OK) == 0, !isAccepting(unixPath: path) { unlink(path) }
      let bound = withUnsafePointer(to: &name) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
      guard bound == 0, Glibc.listen(descriptor, 1024) == 0 else {
        let error = failure(bound == 0 ? "listen" : "bind")
        close(descriptor)
        throw error
      }
      return (descriptor, 0)
    case .inet(let host, let port):
      let isV6 = host.contains(":")
      let descriptor = socket(
        isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      guard descriptor >= 0 else { throw failure("socket") }
      var yes: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
      var (storage, length): (sockaddr_storage, socklen_t)
      if isV6 {
        var name = sockaddr_in6()
        name.sin6_family = sa_family_t(AF_INET6)
        name.sin6_port = UInt16(port).bigEndian
        inet_pton(AF_INET6, host, &name.sin6_addr)
        (storage, length) = Self.storage(of: name)
      } else {
        var name = sockaddr_in()
        name.sin_family = sa_family_t(AF_INET)
        name.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, host, &name.sin_addr)
        (storage, length) = Self.storage(of: name)
      }
      let bound = withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
          bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
        }
      }
      guard bound, Glibc.listen(descriptor, 1024) == 0 else {
        let error = failure(bound ? "listen" : "bind")
        close(descriptor)
        throw error
      }
      let boundPort = withUnsafeBytes(of: &storage) { raw -> Int in
        isV6
          ? Int(UInt16(bigEndian: raw.loadUnaligned(as: sockaddr_in6.self).sin6_port))
          : Int(UInt16(bigEndian: raw.loadUnaligned(as: sockaddr_in.self).sin_port))
      }
      return (descriptor, boundPort)
    }
  }

  /// `name` (a `sockaddr_in` or `sockaddr_in6`) in a `sockaddr_storage`, and its length.
  private static func storage<Address>(of name: Address) -> (sockaddr_storage, socklen_t) {
    var storage = sockaddr_storage()
    withUnsafeBytes(of: name) { source in
      withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
    }
    return (storage, socklen_t(MemoryLayout<Address>.size))
  }

  private static func isAccepting(unixPath path: String) -> Bool {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var name = sockaddr_un()
    name.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &name.sun_path) { buffer in
      for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
    }
    return withUnsafePointer(to: &name) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
      }
    }
  }
}

/// A value handed to a task that only passes it back to the C library it came from.
struct UnsafeSendable<Value>: @unchecked Sendable {
  // Confined to: libmicrohttpd, which resumes the connection on its own thread.
  let value: Value
  init(_ value: Value) { self.value = value }
}
