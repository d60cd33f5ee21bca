import Foundation
import Testing
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A `thumbify serve` child process on a free loopback port, with a fresh --out.
final class ServeProcess: Sendable {
  let out: String
  let port: Int
  let processIdentifier: Int32
  private let child: ChildProcess
  private let log: String

  init(_ arguments: [String]) async throws {
    out = makeTemporaryDirectory("serve")
    log = out + ".log"
    let process = thumbifyProcess(["serve", "--out", out, "--listen", "127.0.0.1:0"] + arguments)
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    process.standardOutput = FileHandle.nullDevice
    child = try ChildProcess(process)
    processIdentifier = process.processIdentifier
    var found: Int?
    for _ in 0..<3_000 {
      let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      // "Listening on 127.0.0.1:<port>", alone (text) or as a JSON line's message (--log-format json).
      if let range = text.range(of: "Listening on 127.0.0.1:") {
        found = Int(text[range.upperBound...].prefix(while: \.isNumber))
        break
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    guard let found else {
      kill(processIdentifier, SIGKILL)
      throw ServerError(
        "thumbify serve did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    }
    port = found
  }

  deinit {
    kill(processIdentifier, SIGKILL)
    removeDirectory(out)
    unlink(log)
  }

  /// `/v1/card?url=<url, percent-encoded>`.
  static func cardTarget(_ url: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return "/v1/card?url=" + (url.addingPercentEncoding(withAllowedCharacters: allowed) ?? url)
  }

  struct Answer: Sendable {
    /// 0 when the connection closed without an answer.
    var status: Int
    /// Lower-cased names.
    var headers: [String: String]
    var body: [UInt8]
  }

  /// One request on its own connection (`Connection: close`), read to the end.
  func get(_ target: String, headers: [String] = []) async throws -> Answer {
    let port = port
    return try await offThePool {
      let descriptor = connectLoopback(port: port)
      guard descriptor >= 0 else { throw ServerError("cannot connect to \(port)") }
      defer { close(descriptor) }
      var timeout = timeval(tv_sec: 120, tv_usec: 0)
      setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      let request =
        Array(
          (["GET \(target) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"] + headers).joined(
            separator: "\r\n"
          ).utf8)
        + Array("\r\n\r\n".utf8)
      var sent = 0
      while sent < request.count {
        let count = request[sent...].withUnsafeBytes {
          send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        if count <= 0 { break }  // the server may close early (a header too large)
        sent += count
      }
      var response: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count <= 0 { break }
        response += buffer[..<count]
      }
      guard let end = response.firstRange(of: Array("\r\n\r\n".utf8)) else {
        return Answer(status: 0, headers: [:], body: [])
      }
      let head = String(decoding: response[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
      let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
      var fields: [String: String] = [:]
      for line in head.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
          in: .whitespaces)
      }
      return Answer(status: status, headers: fields, body: Array(response[end.upperBound...]))
    }
  }

  /// What the server wrote on standard error so far.
  var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

  /// Sends SIGTERM and waits for the exit status.
  func terminate() async throws -> Int32 {
    kill(processIdentifier, SIGTERM)
    return await child.exitStatus()
  }

  func exitStatus() async throws -> Int32 { await child.exitStatus() }
}
