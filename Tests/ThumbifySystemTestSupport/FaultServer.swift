import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs `Tests/Servers/fault_server.py` on a free loopback port for one test. (In the system layer's
/// support, not Fetching's: it needs no layer, and the SVG decoder's tests use it too.)
///
/// The server exits when its stdin closes, so it cannot outlive the test process; `stop()`
/// (also called on deinit) closes stdin.
package final class FaultServer: @unchecked Sendable {
  // Confined to the creating test: `process` and `stdin` are set once and only read after.
  package let port: Int
  private let process = Process()
  private let stdin = Pipe()

  /// The script's path, found next to this file.
  package static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Servers/fault_server.py").path

  /// Starts the server and waits (off the cooperative pool) until it printed its port.
  package init() async throws {
    let stdout = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [Self.script]
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    let output = stdout.fileHandleForReading
    let line = try await offThePool {
      var line = Data()
      while !line.contains(UInt8(ascii: "\n")) {
        let chunk = output.availableData
        if chunk.isEmpty { break }
        line.append(chunk)
      }
      return line
    }
    guard
      let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    else {
      try? stdin.fileHandleForWriting.close()
      throw ServerError("fault_server.py did not print a port")
    }
    self.port = port
  }

  deinit { stop() }

  /// `http://127.0.0.1:<port><path>`.
  package func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  /// `http://<host>:<port><path>`, for a host name mapped to loopback with `resolveEntry`.
  package func url(host: String, _ path: String) -> String { "http://\(host):\(port)\(path)" }

  /// A `--resolve` entry mapping `host` to this server.
  package func resolveEntry(_ host: String) -> String { "\(host):\(port):127.0.0.1" }

  /// The server's request counters for `bucket`: peak concurrency and total.
  package func stats(bucket: String) throws -> (max: Int, count: Int) {
    let body = try Self.get(port: port, path: "/stats?bucket=\(bucket)")
    let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Int] ?? [:]
    return (object["max"] ?? -1, object["count"] ?? -1)
  }

  /// Opens gate `name`: the requests held on it (`/hold?gate=`) are answered.
  package func open(gate name: String) throws {
    _ = try Self.get(port: port, path: "/open?gate=\(name)")
  }

  /// A plain blocking HTTP/1.0 GET on 127.0.0.1, independent of the fetcher under test.
  package static func get(port: Int, path: String) throws -> [UInt8] {
    let fd = connectLoopback(port: port)
    guard fd >= 0 else { throw ServerError("connect to port \(port) failed") }
    defer { close(fd) }
    let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    guard write(fd, request, request.count) == request.count else { throw ServerError("write failed") }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(fd, &buffer, buffer.count)
      if count <= 0 { break }
      response += buffer[0..<count]
    }
    let separator = Array("\r\n\r\n".utf8)
    guard response.count >= 4,
      let start = (0...(response.count - 4)).first(where: { response[$0..<$0 + 4].elementsEqual(separator) })
    else { throw ServerError("no HTTP header end") }
    return Array(response[(start + 4)...])
  }

  /// Closes stdin, which makes the server exit (SIGTERM is blocked); does not wait, so that no
  /// thread of the cooperative pool blocks. Idempotent.
  package func stop() {
    try? stdin.fileHandleForWriting.close()
  }
}

/// A test server that could not be started.
package struct ServerError: Error, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}
