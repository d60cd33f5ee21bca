import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP socket connected to 127.0.0.1:`port`, or -1.
package func connectLoopback(port: Int) -> Int32 {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { return -1 }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = UInt16(port).bigEndian
  address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
    }
  }
  guard connected else {
    close(fd)
    return -1
  }
  return fd
}
