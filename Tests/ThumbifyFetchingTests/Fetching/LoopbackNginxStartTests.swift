import Foundation
import Synchronization
import Testing
import ThumbifyFetchingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyFetching

/// The test web server itself: a port found free can be taken before nginx binds it (a CI run lost
/// a test so), and nginx must then come up on another, not fail the test that wanted a server.
@Suite("LoopbackNginx start-up", .timeLimit(.minutes(5)))
struct LoopbackNginxStartTests {
  @Test("a port taken before nginx binds it is replaced by another")
  func aTakenPortIsReplaced() async throws {
    let taken = try RefusingPort()  // bound, never listening: nginx's bind fails with EADDRINUSE
    let picks = Mutex<[[Int]]>([])
    let nginx = try await LoopbackNginx { count in
      let ports = picks.withLock { $0.isEmpty } ? [taken.port] : try LoopbackNginx.freePorts(count)
      picks.withLock { $0.append(ports) }
      return ports
    }
    let picked = picks.withLock { $0 }
    #expect(picked.count == 2)
    #expect(nginx.port != taken.port)
    #expect(nginx.port == picked.last?.first)
    try nginx.write("index.html", "up")
    let response = try await makeTestFetcher().fetch(FetchRequest(url: nginx.url("/index.html"), kind: .page))
    #expect(String(decoding: response.body, as: UTF8.self) == "up")
  }

  @Test("a configuration nginx refuses is reported with nginx's own words, without retrying")
  func aRefusedConfigurationFails() async throws {
    let attempts = Mutex(0)
    await #expect(throws: ServerError.self) {
      _ = try await LoopbackNginx(options: .init(serverDirectives: "no_such_directive on;")) { count in
        attempts.withLock { $0 += 1 }
        return try LoopbackNginx.freePorts(count)
      }
    }
    #expect(attempts.withLock { $0 } == 1)
  }
}
