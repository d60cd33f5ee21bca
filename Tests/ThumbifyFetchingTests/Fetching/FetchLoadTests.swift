import Foundation
import Testing
import ThumbifyFetchingTestSupport

@testable import ThumbifyFetching

/// The load check: 3,000 requests to nginx with 256 in flight, no failures, nothing leaked.
///
/// A correctness check, not a throughput one (beside the suite on a loaded machine 10,000 requests
/// outlasted the time limit): `scripts/bench-fetch` measures 10,000 and more, alone.
///
/// Other suites run in the same process at the same time, so the leak checks count only
/// what this test owns: sockets connected to its nginx port and its fetcher's loop thread. The benchmark (`scripts/bench-fetch`) also counts every fd, thread and
/// the RSS of a process that runs nothing else.
@Suite("Load check", .timeLimit(.minutes(5)))
struct FetchLoadTests {
  @Test func tenThousandRequestsWith256InFlight() async throws {
    let nginx = try await LoopbackNginx()
    for index in 0..<100 { try nginx.write("p\(index).html", "<html><title>\(index)</title></html>") }
    var fetcher: CurlFetcher? = try makeTestFetcher {
      $0.maxConcurrentTransfers = 256
      $0.maxTransfersPerHost = 256
    }
    let total = 3_000
    let failures = try await withThrowingTaskGroup(of: Int.self) { group in
      var failures = 0
      var next = 0
      func add() {
        let url = nginx.url("/p\(next % 100).html")
        let client = fetcher
        group.addTask {
          do {
            let response = try await client?.fetch(FetchRequest(url: url, kind: .page))
            return response?.status == 200 ? 0 : 1
          } catch {
            return 1
          }
        }
        next += 1
      }
      while next < 512 { add() }
      while let failed = try await group.next() {
        failures += failed
        if next < total { add() }
      }
      return failures
    }
    #expect(failures == 0)
    let loopThread = "/proc/self/task/\(fetcher?.loopThreadID ?? 0)"
    #expect(FileManager.default.fileExists(atPath: loopThread))
    #expect((try? String(contentsOfFile: "\(loopThread)/comm", encoding: .utf8)) == "thumbify-curl\n")
    let openDuringRun = Self.socketsConnected(toPort: nginx.port)
    #expect(openDuringRun > 0 && openDuringRun <= 256, "connections are reused and bounded")
    fetcher = nil  // deinit shuts the loop down and joins its thread
    #expect(Self.socketsConnected(toPort: nginx.port) == 0, "every connection closed")
    #expect(!FileManager.default.fileExists(atPath: loopThread), "the loop thread exited")
    let requests = nginx.accessLog()
    #expect(requests.count == total)
    #expect(Set(requests.map { $0.split(separator: " ")[3] }).count <= 256)
  }

  /// This process's file descriptors that are TCP sockets connected to 127.0.0.1:`port`.
  static func socketsConnected(toPort port: Int) -> Int {
    // procfs files report size 0; read them to the end rather than by their size.
    let data = FileHandle(forReadingAtPath: "/proc/self/net/tcp")?.readDataToEndOfFile() ?? Data()
    let table = String(decoding: data, as: UTF8.self)
    let hex = String(port, radix: 16, uppercase: true)
    let remote = "0100007F:" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    let inodes = Set(
      table.split(separator: "\n").dropFirst().compactMap { line -> Substring? in
        let fields = line.split(separator: " ")
        return fields.count > 9 && fields[2] == remote ? fields[9] : nil
      })
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return fds.filter { fd in
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
        target.hasPrefix("socket:[")
      else { return false }
      return inodes.contains(target.dropFirst(8).dropLast())
    }.count
  }
}
