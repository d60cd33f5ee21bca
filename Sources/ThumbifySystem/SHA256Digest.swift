import CCrypto

/// SHA-256 through OpenSSL's libcrypto.
///
/// The corresponding C functions are `EVP_MD_fetch` (once) and `EVP_Digest`.
package enum SHA256Digest {
  /// libcrypto's SHA-256, fetched from its provider once. `EVP_sha256()` would make every
  /// `EVP_Digest` look the implementation up again (a locked table search, ~0.6 µs of the ~0.9 µs a
  /// card key's digest took); a fetched `EVP_MD` is immutable and safe to share between threads.
  private nonisolated(unsafe) static let algorithm: OpaquePointer = {
    // Fails only when libcrypto's default provider cannot load: nothing else can hash then either.
    guard let fetched = EVP_MD_fetch(nil, "SHA256", nil) else {
      preconditionFailure("libcrypto has no SHA-256 implementation")
    }
    return fetched
  }()

  /// The 32 digest bytes of `bytes`.
  package static func bytes(of bytes: [UInt8]) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: 32) { digest, count in
      var length: UInt32 = 0
      let status = bytes.withUnsafeBytes { input in
        EVP_Digest(input.baseAddress, input.count, digest.baseAddress, &length, algorithm, nil)
      }
      // EVP_Digest with a built-in digest fails only when libcrypto cannot allocate a context.
      precondition(status == 1 && length == 32, "libcrypto could not compute a SHA-256 digest")
      count = 32
    }
  }

  /// The lower-case hex SHA-256 of `bytes`.
  package static func hex(of bytes: [UInt8]) -> String {
    hex(digest: self.bytes(of: bytes))
  }

  /// Digest bytes as lower-case hex.
  package static func hex(digest: [UInt8]) -> String {
    let table = Array("0123456789abcdef".utf8)
    var hex = [UInt8]()
    hex.reserveCapacity(digest.count * 2)
    for byte in digest {
      hex.append(table[Int(byte >> 4)])
      hex.append(table[Int(byte & 0x0f)])
    }
    return String(decoding: hex, as: UTF8.self)
  }
}
