import Foundation
import ThumbifySystemTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Debian's nginx, run as the current user on a free loopback port for one test, serving
/// a given document root from a temporary prefix (conf, pid, logs, temp dirs).
///
/// nginx runs in the foreground (`daemon off; master_process off;`) under a tiny `sh`
/// watchdog that SIGKILLs it once the watchdog's stdin closes: `stop()` (also on deinit)
/// closes it, and so does the kernel if the test process dies, so no nginx outlives a test.
/// (SIGTERM would not do: children inherit the test runner's blocked-signal mask.)
package final class LoopbackNginx: @unchecked Sendable {
  // Confined to the creating test: every property is set in init and only read after.
  /// What the server does beyond serving static files.
  package struct Options {
    /// `gzip on` for text/html and text/plain.
    package var gzip = false
    /// Keep-alive connections (off: `keepalive_timeout 0`).
    package var keepAlive = true
    /// TLS with a certificate from a throwaway CA (`caFile`).
    package var https = false
    /// HTTP/2 over TLS (`listen … ssl http2`); implies `https`.
    package var http2 = false
    /// More directives for the `server` block (`location`s of a configuration under test).
    package var serverDirectives = ""
    /// nginx's `limit_rate` for every response (e.g. `100k`: bytes per second), to make pages slow.
    package var limitRate: String?
    /// More ports the same server listens on (127.0.0.1 too): a web of one address and many ports,
    /// which a sharded crawl must still spread (`ports`, `portLog()`).
    package var extraPorts = 0

    // The memberwise initializer, `package` (a synthesized one is internal).
    package init(
      gzip: Bool = false, keepAlive: Bool = true, https: Bool = false, http2: Bool = false,
      serverDirectives: String = "", limitRate: String? = nil, extraPorts: Int = 0
    ) {
      self.gzip = gzip
      self.keepAlive = keepAlive
      self.https = https
      self.http2 = http2
      self.serverDirectives = serverDirectives
      self.limitRate = limitRate
      self.extraPorts = extraPorts
    }
  }

  package let port: Int
  /// `port`, then the extra ports.
  package let ports: [Int]
  package let prefix: URL
  package let docroot: URL
  /// The test CA's certificate when serving HTTPS.
  package let caFile: String?
  private let process: Process
  private let watchdogInput: Pipe

  /// Starts nginx serving `docroot` (a fresh empty directory when nil) on the ports `pickPorts` gives
  /// (asked for that many; again when one was taken meanwhile).
  package init(
    docroot: URL? = nil, options: Options = Options(),
    pickPorts: (Int) throws -> [Int] = LoopbackNginx.freePorts
  ) async throws {
    prefix = FileManager.default.temporaryDirectory.appendingPathComponent(
      "thumbify-nginx-\(UUID().uuidString)")
    let fileManager = FileManager.default
    for sub in ["logs", "tmp", "www"] {
      try fileManager.createDirectory(
        at: prefix.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
    self.docroot = docroot ?? prefix.appendingPathComponent("www")
    var tls: (certificate: String, key: String)?
    if options.https || options.http2 {
      let certificates = try await TestCertificates(in: prefix)
      caFile = certificates.caFile
      tls = (certificates.certificateFile, certificates.keyFile)
    } else {
      caFile = nil
    }
    // A port the kernel handed out and we released can be taken before nginx binds it: by another
    // test's server, or as the source port of one of the suite's thousands of loopback connections.
    // nginx then stops with EADDRINUSE, and is started again on other ports (a CI run met it once).
    var log = ""
    for _ in 0..<5 {
      let ports = try pickPorts(1 + options.extraPorts)
      let conf = Self.configuration(
        prefix: prefix.path, docroot: self.docroot.path, ports: ports, tls: tls, options: options)
      try conf.write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
      let started = try await Self.start(prefix: prefix, port: ports[0])
      switch started.outcome {
      case .listening:
        (port, self.ports, process, watchdogInput) = (ports[0], ports, started.process, started.watchdogInput)
        return
      case .addressInUse(let text):
        log = text
        continue
      case .failed(let text):
        log = text
      }
      break
    }
    try? fileManager.removeItem(at: prefix)
    throw ServerError("nginx did not start: \(log)")
  }

  /// `count` different ports the kernel just handed out on 127.0.0.1.
  package static func freePorts(_ count: Int) throws -> [Int] {
    var ports: [Int] = []
    while ports.count < count {
      let port = try freePort()
      if !ports.contains(port) { ports.append(port) }
    }
    return ports
  }

  private static func configuration(
    prefix p: String, docroot: String, ports: [Int], tls: (certificate: String, key: String)?,
    options: Options
  ) -> String {
    let listen = ports.map {
      "listen 127.0.0.1:\($0)" + (tls != nil ? " ssl" : "") + (options.http2 ? " http2" : "") + ";"
    }.joined(separator: "\n      ")
    let certificates =
      tls.map { "ssl_certificate \($0.certificate);\n    ssl_certificate_key \($0.key);" } ?? ""
    return """
      daemon off;
      master_process off;
      worker_processes 1;
      pid \(p)/nginx.pid;
      error_log \(p)/logs/error.log warn;
      events { worker_connections 4096; }
      http {
        log_format probe '$status $request_method $request_uri $connection $connection_requests $server_protocol "$http_user_agent"';
        access_log \(p)/logs/access.log probe;
        log_format ports '$server_port $request_uri';
        access_log \(p)/logs/ports.log ports;
        client_body_temp_path \(p)/tmp/body;
        proxy_temp_path \(p)/tmp/proxy;
        fastcgi_temp_path \(p)/tmp/fastcgi;
        uwsgi_temp_path \(p)/tmp/uwsgi;
        scgi_temp_path \(p)/tmp/scgi;
        types { text/html html; text/plain txt; image/png png; image/jpeg jpg; application/json json; }
        default_type application/octet-stream;
        keepalive_timeout \(options.keepAlive ? "65" : "0");
        keepalive_requests 1000000;
        gzip \(options.gzip ? "on" : "off");
        gzip_types text/plain;
        gzip_min_length 0;
        \(options.limitRate.map { "limit_rate \($0);" } ?? "")
        server {
          \(listen)
          \(certificates)
          root \(docroot);
          \(options.serverDirectives)
        }
      }
      """
  }

  private enum StartOutcome {
    case listening
    /// Another socket holds a port: the error log.
    case addressInUse(String)
    /// The error log, or that nginx did not answer.
    case failed(String)
  }

  /// Runs `prefix/nginx.conf` under the watchdog and waits until nginx has written its pid file
  /// (which it does once every port is bound: `port` answering alone may be another server) and
  /// answers on `port`, or has logged why it stopped; a failed nginx is killed.
  private static func start(prefix: URL, port: Int) async throws
    -> (outcome: StartOutcome, process: Process, watchdogInput: Pipe)
  {
    let p = prefix.path
    let errorLog = prefix.appendingPathComponent("logs/error.log")
    let pidFile = prefix.appendingPathComponent("nginx.pid")
    try? FileManager.default.removeItem(at: errorLog)
    try? FileManager.default.removeItem(at: pidFile)
    let process = Process()
    let watchdogInput = Pipe()
    underWatchdog(process, ["/usr/sbin/nginx", "-p", p, "-c", "\(p)/nginx.conf", "-e", errorLog.path])
    process.standardInput = watchdogInput
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    var log = ""
    for _ in 0..<500 {
      if FileManager.default.fileExists(atPath: pidFile.path), canConnect(port: port) {
        return (.listening, process, watchdogInput)
      }
      log = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
      if log.contains("[emerg]") { break }
      try await Task.sleep(for: .milliseconds(10))
    }
    try? watchdogInput.fileHandleForWriting.close()  // the watchdog kills nginx
    if log.isEmpty { log = "no answer on port \(port) within 5 s" }
    return (
      log.contains("Address already in use") ? .addressInUse(log) : .failed(log), process, watchdogInput
    )
  }

  deinit { stop() }

  /// `http(s)://127.0.0.1:<port><path>`.
  package func url(_ path: String) -> String {
    "\(caFile == nil ? "http" : "https")://127.0.0.1:\(port)\(path)"
  }

  /// Writes `contents` to `docroot/<name>`.
  package func write(_ name: String, _ contents: String) throws {
    try contents.write(to: docroot.appendingPathComponent(name), atomically: true, encoding: .utf8)
  }

  /// The access log's lines: `status method uri connection connection_requests protocol "UA"`.
  package func accessLog() -> [String] {
    let text =
      (try? String(contentsOf: prefix.appendingPathComponent("logs/access.log"), encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init)
  }

  /// The port and request URI of every request (`<port> <uri>`), in the order nginx logged them.
  package func portLog() -> [(port: Int, uri: String)] {
    let text =
      (try? String(contentsOf: prefix.appendingPathComponent("logs/ports.log"), encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ", maxSplits: 1)
      guard fields.count == 2, let port = Int(fields[0]) else { return nil }
      return (port, String(fields[1]))
    }
  }

  /// Stops nginx (the watchdog SIGKILLs it when its stdin closes) and removes the prefix; does not
  /// wait, so that no thread of the cooperative pool blocks. Idempotent.
  package func stop() {
    try? watchdogInput.fileHandleForWriting.close()
    try? FileManager.default.removeItem(at: prefix)
  }

  /// Makes `process` run `command` under the `sh` watchdog that SIGKILLs it once the watchdog's
  /// stdin (the caller's pipe) closes.
  package static func underWatchdog(_ process: Process, _ command: [String]) {
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments =
      ["-c", "\"$@\" & pid=$!; cat >/dev/null; kill -KILL $pid; wait $pid", "watchdog"] + command
  }

  /// A port the kernel just handed out on 127.0.0.1 (bound to port 0, then released).
  package static func freePort() throws -> Int {
    let (fd, port) = try boundLoopbackSocket()
    close(fd)
    return port
  }

  /// A TCP socket bound to a port the kernel hands out on 127.0.0.1, and that port.
  package static func boundLoopbackSocket() throws -> (descriptor: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ServerError("socket failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else {
      close(fd)
      throw ServerError("bind failed")
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
  }

  package static func canConnect(port: Int) -> Bool {
    let fd = connectLoopback(port: port)
    if fd >= 0 { close(fd) }
    return fd >= 0
  }
}

/// A loopback port that refuses connections for as long as this value lives: it is bound and never
/// listened on, so no other test's server can take it (a port found free and released can be).
package final class RefusingPort {
  package let port: Int
  private let descriptor: Int32

  package init() throws {
    (descriptor, port) = try LoopbackNginx.boundLoopbackSocket()
  }

  deinit { close(descriptor) }
}
