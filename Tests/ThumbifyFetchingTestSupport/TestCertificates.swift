import Foundation
import ThumbifySystemTestSupport

/// A throwaway CA and a server certificate for 127.0.0.1/localhost, made with the `openssl` CLI.
package struct TestCertificates {
  /// The CA certificate (PEM), what `--cacert` gets.
  package let caFile: String
  package let certificateFile: String
  package let keyFile: String

  /// Generates the CA and server key pairs (P-256) and certificates in `directory`.
  package init(in directory: URL) async throws {
    let dir = directory.path
    caFile = "\(dir)/ca.pem"
    certificateFile = "\(dir)/server.pem"
    keyFile = "\(dir)/server.key"
    try "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
      .write(toFile: "\(dir)/server.ext", atomically: true, encoding: .utf8)
    let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    try await Self.openssl(
      ["req", "-x509"] + ec + [
        "-keyout", "\(dir)/ca.key", "-out", caFile, "-days", "2", "-subj", "/CN=thumbify test CA",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
      ])
    try await Self.openssl(
      ["req"] + ec + ["-keyout", keyFile, "-out", "\(dir)/server.csr", "-subj", "/CN=localhost"])
    try await Self.openssl([
      "x509", "-req", "-in", "\(dir)/server.csr", "-CA", caFile, "-CAkey", "\(dir)/ca.key",
      "-CAcreateserial", "-out", certificateFile, "-days", "2", "-extfile", "\(dir)/server.ext",
    ])
  }

  private static func openssl(_ arguments: [String]) async throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let status = try await ChildProcess.run(process)
    guard status == 0 else {
      throw ServerError("openssl \(arguments.prefix(2).joined(separator: " ")) exited \(status)")
    }
  }
}
