import Foundation
import Testing
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// Issue 34, "Stop means stop": a signal while the URL list is still being read — an endless device,
/// a FIFO whose writer never closes it, a 100 MB line without a newline — stops the crawl with its
/// exit status and a valid manifest of what it finished (none of these lists gives a URL). It spun
/// at 100 % CPU until killed before.
extension CrawlStopTests {
  /// Sends SIGTERM to a crawl of `list` once it handles signals; its exit status, the seconds from
  /// the signal to its exit, and its log.
  func stopReadingWithSIGTERM(_ list: String, name: String) async throws -> (
    status: Int32, seconds: Double, log: String
  )? {
    let out = root + "/" + name
    let victim = try start(list, out)
    guard await whenSignalsAreHandled(victim, after: 0.3, send: SIGTERM) else { return nil }
    let signalled = Date()
    let status = await victim.exitStatus()
    let seconds = Date().timeIntervalSince(signalled) - 0.3
    #expect(try readManifest(out).isEmpty)
    return (status, seconds, (try? String(contentsOfFile: out + ".log", encoding: .utf8)) ?? "")
  }

  // The bound tells a stop from the endless read; measured alone it is 0.02–0.26 s (the 200 ms poll
  // step), and the 2 s of the issue is checked by hand (docs/crawl.md), not raced here.
  static let stopBound = 60.0

  @Test func anEndlessDeviceIsStoppedWhileItIsRead() async throws {
    guard let stopped = try await stopReadingWithSIGTERM("/dev/zero", name: "zero") else { return }
    #expect(stopped.status == 143, "\(stopped.log)")
    #expect(stopped.seconds < Self.stopBound, "\(stopped.seconds) s")
  }

  @Test func aFIFOThatNeverClosesIsStoppedWhileItIsRead() async throws {
    // Given a FIFO with a writer that wrote one line, no newline after it, and keeps it open
    let fifo = root + "/list.fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    let writer = open(fifo, O_RDWR | O_CLOEXEC)  // read-write: opens without waiting for a reader
    #expect(writer >= 0)
    defer { close(writer) }
    let line = Array(server.url("/hold?ms=1&bucket=fifo").utf8)
    #expect(write(writer, line, line.count) == line.count)

    // When the crawl reading it gets SIGTERM
    guard let stopped = try await stopReadingWithSIGTERM(fifo, name: "fifo") else { return }

    // Then it stops with 143 and asked the server for nothing
    #expect(stopped.status == 143, "\(stopped.log)")
    #expect(stopped.seconds < Self.stopBound, "\(stopped.seconds) s")
    #expect(try server.stats(bucket: "fifo").count == 0)
  }

  @Test func aHundredMegabyteLineIsAnInvalidLineNotAnEndlessRead() async throws {
    // Given a list that is one 100 MB line
    let path = root + "/one-line.txt"
    #expect(
      FileManager.default.createFile(
        atPath: path, contents: Data(repeating: UInt8(ascii: "a"), count: 100 << 20)))

    // When it is crawled and stopped
    guard let stopped = try await stopReadingWithSIGTERM(path, name: "one-line") else { return }

    // Then it ended: by the signal (143), or by itself before it came, having reported the invalid
    // line (1) — or so, and the signal came while it was exiting, its handlers already given back
    // (`StopSignals.cancel`, after the last file is written): killed by it, which the runner reports
    // as the signal's number and a shell as 143 (seen once in a `scripts/test --stress` run)
    #expect([143, 1, SIGTERM].contains(stopped.status), "\(stopped.log)")
    #expect(stopped.seconds < Self.stopBound, "\(stopped.seconds) s")
    if stopped.status != 143 { #expect(stopped.log.contains("line too long"), "\(stopped.log)") }
  }
}
