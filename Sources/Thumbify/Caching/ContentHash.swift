import CCrypto

/// SHA-256 of bytes as lower-case hex, through OpenSSL's libcrypto.
enum ContentHash {
  /// The corresponding C function is `SHA256` (OpenSSL).
  static func sha256Hex(_ bytes: [UInt8]) -> String {
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    bytes.withUnsafeBufferPointer { input in
      digest.withUnsafeMutableBufferPointer { output in
        _ = SHA256(input.baseAddress, input.count, output.baseAddress)
      }
    }
    let hex = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(64)
    for byte in digest {
      out.append(hex[Int(byte >> 4)])
      out.append(hex[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
