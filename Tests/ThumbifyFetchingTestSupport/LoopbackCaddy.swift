import Foundation
import ThumbifySystemTestSupport

/// Debian's Caddy (v2), run as the current user on a free loopback port for one test with a given
/// Caddyfile site block, the way `LoopbackNginx` runs nginx: in the foreground under the same `sh`
/// watchdog (SIGKILL once its stdin closes, also when the test process dies), with the admin API
/// off (no shared port 2019) and HOME and the XDG directories in a temporary prefix, so Caddy's
/// autosave and storage never touch the user's home.
package final class LoopbackCaddy: @unchecked Sendable {
  // Confined to the creating test: every property is set in init and only read after.
  package let port: Int
  package let prefix: URL
  private let process: Process
  private let watchdogInput: Pipe

  /// Starts Caddy with `siteBlock`, a Caddyfile site block whose address is `{address}` (replaced by
  /// `http://127.0.0.1:<port>`, plain HTTP, so no automatic HTTPS). As with `LoopbackNginx`, a port
  /// taken between the kernel handing it out and Caddy binding it is replaced by another.
  package init(siteBlock: String) async throws {
    prefix = FileManager.default.temporaryDirectory.appendingPathComponent(
      "thumbify-caddy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
    var output = ""
    for _ in 0..<5 {
      let port = try LoopbackNginx.freePort()
      let caddyfile =
        "{\n    admin off\n}\n"
        + siteBlock.replacingOccurrences(of: "{address}", with: "http://127.0.0.1:\(port)")
      let configuration = prefix.appendingPathComponent("Caddyfile")
      try caddyfile.write(to: configuration, atomically: true, encoding: .utf8)
      let process = Process()
      let watchdogInput = Pipe()
      LoopbackNginx.underWatchdog(
        process, ["/usr/bin/caddy", "run", "--config", configuration.path, "--adapter", "caddyfile"])
      var environment = ProcessInfo.processInfo.environment
      for name in ["HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"] { environment[name] = prefix.path }
      process.environment = environment
      process.standardInput = watchdogInput
      process.standardOutput = FileHandle.nullDevice
      let log = prefix.appendingPathComponent("caddy.log")
      _ = FileManager.default.createFile(atPath: log.path, contents: nil)
      process.standardError = try FileHandle(forWritingTo: log)
      try process.run()
      for _ in 0..<500 {
        output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        // Caddy logs "serving initial configuration" once its listeners are bound (then the port is
        // its own, not another server's that answers too).
        if output.contains("serving initial configuration"), LoopbackNginx.canConnect(port: port) {
          (self.port, self.process, self.watchdogInput) = (port, process, watchdogInput)
          return
        }
        if output.contains("Error:") { break }
        try await Task.sleep(for: .milliseconds(10))
      }
      try? watchdogInput.fileHandleForWriting.close()  // the watchdog kills Caddy
      if !output.contains("address already in use") { break }
    }
    try? FileManager.default.removeItem(at: prefix)
    throw ServerError("caddy did not start: \(output)")
  }

  deinit { stop() }

  /// Stops Caddy (the watchdog SIGKILLs it) and removes the prefix; does not wait. Idempotent.
  package func stop() {
    try? watchdogInput.fileHandleForWriting.close()
    try? FileManager.default.removeItem(at: prefix)
  }
}
