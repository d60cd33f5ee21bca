/// The SSRF deny list: every IANA special-purpose range a crawler must never connect to.
///
/// IPv4 follows the IANA IPv4 Special-Purpose Address Registry (RFC 6890 and later).
/// IPv6 allows only global unicast (`2000::/3`) minus its special-purpose blocks; the
/// forms that embed an IPv4 address (IPv4-mapped `::ffff:0:0/96`, NAT64 `64:ff9b::/96`,
/// 6to4 `2002::/16`) are unwrapped and the IPv4 address is checked instead.
package enum SpecialAddressRanges {
  /// IPv4 ranges refused, as (network, prefix length, name).
  static let deniedV4: [(network: UInt32, prefix: Int, name: String)] = [
    (0x0000_0000, 8, "0.0.0.0/8 (this network)"),
    (0x0A00_0000, 8, "10.0.0.0/8 (private)"),
    (0x6440_0000, 10, "100.64.0.0/10 (carrier-grade NAT)"),
    (0x7F00_0000, 8, "127.0.0.0/8 (loopback)"),
    (0xA9FE_0000, 16, "169.254.0.0/16 (link-local, cloud metadata)"),
    (0xAC10_0000, 12, "172.16.0.0/12 (private)"),
    (0xC000_0000, 24, "192.0.0.0/24 (IETF protocol assignments)"),
    (0xC000_0200, 24, "192.0.2.0/24 (documentation)"),
    (0xC01F_C400, 24, "192.31.196.0/24 (AS112)"),
    (0xC034_C100, 24, "192.52.193.0/24 (AMT)"),
    (0xC058_6300, 24, "192.88.99.0/24 (6to4 relay anycast)"),
    (0xC0A8_0000, 16, "192.168.0.0/16 (private)"),
    (0xC0AF_3000, 24, "192.175.48.0/24 (AS112 direct delegation)"),
    (0xC612_0000, 15, "198.18.0.0/15 (benchmarking)"),
    (0xC633_6400, 24, "198.51.100.0/24 (documentation)"),
    (0xCB00_7100, 24, "203.0.113.0/24 (documentation)"),
    (0xE000_0000, 4, "224.0.0.0/4 (multicast)"),
    (0xF000_0000, 4, "240.0.0.0/4 (reserved, broadcast)"),
  ]

  /// IPv6 ranges refused inside `2000::/3`, as (prefix bytes, prefix length, name).
  static let deniedV6Global: [(network: [UInt8], prefix: Int, name: String)] = [
    ([0x20, 0x01, 0x00, 0x00], 23, "2001::/23 (IETF protocol assignments, Teredo)"),
    ([0x20, 0x01, 0x0D, 0xB8], 32, "2001:db8::/32 (documentation)"),
    ([0x26, 0x20, 0x00, 0x4F, 0x80, 0x00], 48, "2620:4f:8000::/48 (AS112)"),
    ([0x3F, 0xFF], 20, "3fff::/20 (documentation)"),
  ]

  /// Names the reserved range holding `address`, or nil when it is publicly routable.
  package static func reservedRange(containing address: IPAddress) -> String? {
    switch address {
    case .v4(let value):
      for range in deniedV4 where value >> (32 - range.prefix) == range.network >> (32 - range.prefix) {
        return range.name
      }
      return nil
    case .v6(let bytes):
      guard bytes.count == 16 else { return "malformed IPv6 address" }
      if let embedded = embeddedV4(in: bytes) {
        return reservedRange(containing: .v4(embedded.address)).map { "\(embedded.name) of \($0)" }
      }
      guard bytes[0] & 0xE0 == 0x20 else { return nonGlobalName(bytes) }
      for range in deniedV6Global where matches(bytes, range.network, range.prefix) {
        return range.name
      }
      return nil
    }
  }

  /// The IPv4 address inside an IPv4-mapped, NAT64 or 6to4 address.
  static func embeddedV4(in bytes: [UInt8]) -> (address: UInt32, name: String)? {
    func v4(at offset: Int) -> UInt32 {
      bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
    if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
      return (v4(at: 12), "::ffff:0:0/96 (IPv4-mapped)")
    }
    if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {
      return (v4(at: 12), "64:ff9b::/96 (NAT64)")
    }
    if bytes[0] == 0x20 && bytes[1] == 0x02 {
      return (v4(at: 2), "2002::/16 (6to4)")
    }
    return nil
  }

  /// Names an IPv6 range outside global unicast.
  static func nonGlobalName(_ bytes: [UInt8]) -> String {
    if bytes[0..<15].allSatisfy({ $0 == 0 }) {
      return bytes[15] == 1
        ? "::1/128 (loopback)" : bytes[15] == 0 ? "::/128 (unspecified)" : "::/96 (IPv4-compatible)"
    }
    if matches(bytes, [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01], 48) { return "64:ff9b:1::/48 (local-use NAT64)" }
    if matches(bytes, [0x01, 0x00, 0, 0, 0, 0, 0, 0], 64) { return "100::/64 (discard-only)" }
    if bytes[0] & 0xFE == 0xFC { return "fc00::/7 (unique local)" }
    if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return "fe80::/10 (link-local)" }
    if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0xC0 { return "fec0::/10 (site-local)" }
    if bytes[0] == 0xFF { return "ff00::/8 (multicast)" }
    return "outside 2000::/3 (not global unicast)"
  }

  /// True when the first `prefix` bits of `bytes` equal those of `network`.
  static func matches(_ bytes: [UInt8], _ network: [UInt8], _ prefix: Int) -> Bool {
    var remaining = prefix
    var index = 0
    while remaining > 0 {
      let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
      let expected = index < network.count ? network[index] : 0
      if bytes[index] & mask != expected & mask { return false }
      remaining -= 8
      index += 1
    }
    return true
  }
}
