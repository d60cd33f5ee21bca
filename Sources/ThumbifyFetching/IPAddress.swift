#if canImport(Glibc)
  import Glibc
#endif

/// An IPv4 or IPv6 address as raw bytes, as the SSRF guard sees it at connect time.
package enum IPAddress: Sendable, Hashable, CustomStringConvertible {
  /// An IPv4 address in host byte order (`127.0.0.1` is `0x7F00_0001`).
  case v4(UInt32)
  /// An IPv6 address: exactly 16 bytes in network order.
  case v6([UInt8])

  /// Parses the canonical text form (`inet_pton`): dotted quad or RFC 4291 IPv6.
  package init?(_ text: String) {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 {
      self = .v4(UInt32(bigEndian: v4.s_addr))
      return
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, text, &v6) == 1 {
      self = .v6(withUnsafeBytes(of: &v6) { Array($0) })
      return
    }
    return nil
  }

  /// Reads a `sockaddr_in` or `sockaddr_in6`; other families give nil.
  init?(socketAddress: UnsafePointer<sockaddr>) {
    switch Int32(socketAddress.pointee.sa_family) {
    case AF_INET:
      let address = UnsafeRawPointer(socketAddress).loadUnaligned(as: sockaddr_in.self)
      self = .v4(UInt32(bigEndian: address.sin_addr.s_addr))
    case AF_INET6:
      var address = UnsafeRawPointer(socketAddress).loadUnaligned(as: sockaddr_in6.self)
      self = .v6(withUnsafeBytes(of: &address.sin6_addr) { Array($0) })
    default:
      return nil
    }
  }

  /// The canonical text form (`inet_ntop`).
  package var description: String {
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    switch self {
    case .v4(let value):
      var address = in_addr(s_addr: value.bigEndian)
      _ = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
    case .v6(let bytes):
      var address = in6_addr()
      withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes.prefix(16)) }
      _ = inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
