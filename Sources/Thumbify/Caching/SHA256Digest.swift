import CCrypto

/// SHA-256 through OpenSSL's libcrypto.
///
/// The corresponding C function is `EVP_Digest` with `EVP_sha256()`.
public enum SHA256Digest {
  /// The lower-case hex SHA-256 of `bytes`.
  public static func hex(of bytes: [UInt8]) -> String {
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let status = bytes.withUnsafeBytes { input in
      digest.withUnsafeMutableBufferPointer { output in
        EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
      }
    }
    // EVP_Digest with a built-in digest fails only when libcrypto cannot allocate a context.
    precondition(status == 1, "libcrypto could not compute a SHA-256 digest")
    let table = Array("0123456789abcdef".utf8)
    var hex = [UInt8]()
    hex.reserveCapacity(Int(length) * 2)
    for byte in digest.prefix(Int(length)) {
      hex.append(table[Int(byte >> 4)])
      hex.append(table[Int(byte & 0x0f)])
    }
    return String(decoding: hex, as: UTF8.self)
  }
}
