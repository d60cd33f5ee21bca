import Testing
import ThumbifyFetching

@Suite("SSRF deny list")
struct SpecialAddressRangesTests {
  @Test(arguments: [
    "0.0.0.0", "0.1.2.3", "10.0.0.1", "10.255.255.255", "100.64.0.1", "100.127.255.254", "127.0.0.1",
    "127.255.0.1", "169.254.169.254", "169.254.0.1", "172.16.0.1", "172.31.255.255", "192.0.0.8",
    "192.0.2.1", "192.88.99.1", "192.168.1.1", "198.18.0.1", "198.19.255.255", "198.51.100.7",
    "203.0.113.9", "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
    "::", "::1", "::ffff:127.0.0.1", "::ffff:10.1.2.3", "::ffff:169.254.169.254", "::127.0.0.1",
    "64:ff9b::10.0.0.1", "64:ff9b::127.0.0.1", "64:ff9b:1::1", "2002:7f00:1::", "2002:c0a8:0101::1",
    "2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:db8::1", "fc00::1", "fd12:3456::1",
    "fe80::1", "fec0::1", "ff02::1", "ff05::2", "100::1", "3fff::1", "::ffff:0:7f00:1",
  ])
  func deniesSpecialPurposeAddresses(_ text: String) throws {
    let address = try #require(IPAddress(text))
    #expect(SpecialAddressRanges.reservedRange(containing: address) != nil, "\(text) must be refused")
  }

  @Test(arguments: [
    "1.1.1.1", "8.8.8.8", "93.184.216.34", "100.63.255.255", "100.128.0.1", "172.15.255.255",
    "172.32.0.1", "192.0.1.1", "192.169.0.1", "198.17.255.255", "198.20.0.1", "223.255.255.255",
    "2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8", "64:ff9b::808:808",
    "2002:0808:0808::1",
  ])
  func allowsPublicAddresses(_ text: String) throws {
    let address = try #require(IPAddress(text))
    #expect(SpecialAddressRanges.reservedRange(containing: address) == nil, "\(text) is public")
  }

  @Test func namesTheRangeAndUnwrapsMappedAddresses() throws {
    let mapped = try #require(IPAddress("::ffff:169.254.169.254"))
    #expect(
      SpecialAddressRanges.reservedRange(containing: mapped)
        == "::ffff:0:0/96 (IPv4-mapped) of 169.254.0.0/16 (link-local, cloud metadata)")
    #expect(IPAddress("::ffff:127.0.0.1")?.description == "::ffff:127.0.0.1")
    #expect(IPAddress("127.0.0.1") == .v4(0x7F00_0001))
    #expect(IPAddress("not an address") == nil)
  }
}
