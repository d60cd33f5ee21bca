import Foundation
import Testing
import ThumbifyCLI
import ThumbifyFetchingTestSupport
import ThumbifySystemTestSupport

@Suite("thumbify extract <url> against loopback servers", .timeLimit(.minutes(5)))
struct LiveExtractCommandTests {
  func run(_ arguments: [String]) async -> (status: Int32, out: String, err: String) {
    let captured = CapturedConsole(input: [])
    let status = await ThumbifyCommandLine.run(arguments, console: captured.console)
    return (status, captured.standardOutput, captured.standardError)
  }

  @Test func printsFetchFactsAndMetadata() async throws {
    let server = try await FaultServer()
    let result = await run([
      "extract", server.url("/chain?n=2"), "--allow-private-network", "--compact", "--timeout", "5",
    ])
    #expect(result.status == 0, "\(result.err)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let fetch = try #require(object["fetch"] as? [String: Any])
    #expect(fetch["finalURL"] as? String == server.url("/ok"))
    #expect(fetch["status"] as? Int == 200)
    #expect(fetch["redirects"] as? [String] == [server.url("/chain?n=2"), server.url("/chain?n=1")])
    let metadata = try #require(object["metadata"] as? [String: Any])
    #expect(metadata["title"] as? String == "ok")
    // The URLs sit in the envelope, as in a manifest record: what was asked for, where it led.
    #expect(object["schema"] as? Int == 2)
    #expect(object["url"] as? String == server.url("/ok"))
    #expect(object["originalURL"] as? String == server.url("/chain?n=2"))
    #expect(metadata["url"] == nil && metadata["originalURL"] == nil)
  }

  @Test func printsValidators() async throws {
    let server = try await FaultServer()
    let result = await run(["extract", server.url("/etag"), "--allow-private-network", "--compact"])
    #expect(result.status == 0)
    #expect(result.out.contains(#""etag":"\"v1\"""#))
    #expect(result.out.contains(#""lastModified":"Sun, 01 Nov 2026 10:00:00 GMT""#))
  }

  /// Issue 17: a hostile `Location:` put raw terminal escapes (retitle, clear screen) into the error.
  @Test func terminalEscapesFromTheNetworkAreEscapedInTheError() async throws {
    let server = try await FaultServer()
    let hostile = "http://127.0.0.1:9/\u{1B}]0;pwned\u{07}\u{1B}[2Jx"
    let query = hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    let result = await run(["extract", server.url("/redirect?to=" + query), "--allow-private-network"])
    #expect(result.status == 1)
    #expect(
      !result.err.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(result.err.debugDescription)")
    #expect(!result.err.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
    #expect(result.err.contains(#"\u001b]0;pwned\u0007\u001b[2Jx"#), "named, escaped")
  }

  @Test func controlCharactersPrintAsJSONEscapes() {
    #expect(Console.escapingControls("a\u{1B}[2Jb\tc\u{7F}\u{85}") == "a\\u001b[2Jb\tc\\u007f\\u0085")
    #expect(Console.escapingControls("line one\nline two") == "line one\nline two")
  }

  @Test func privateAddressesAreRefusedByDefault() async throws {
    let server = try await FaultServer()
    for arguments in [["extract", server.url("/ok")], ["extract", server.url("/ok"), "--ignore-robots"]] {
      let result = await run(arguments)
      #expect(result.status == 1)
      #expect(result.out.isEmpty)
      #expect(
        result.err
          == "Error: Refused to connect to the private or reserved address 127.0.0.1 in 127.0.0.0/8 (loopback).\n"
          + "  Pass --allow-private-network to allow loopback and private addresses.\n")
    }
  }

  @Test func httpsWithCacertAndContact() async throws {
    let nginx = try await LoopbackNginx(options: .init(https: true))
    try nginx.write("index.html", "<html><head><meta property=\"og:title\" content=\"Secure\"></head></html>")
    let caFile = try #require(nginx.caFile)
    let result = await run([
      "extract", nginx.url("/index.html"), "--cacert", caFile, "--allow-private-network", "--contact",
      "https://example.org/bot",
    ])
    #expect(result.status == 0, "\(result.err)")
    #expect(result.out.contains(#""title" : "Secure""#))
    #expect(nginx.accessLog().last?.hasSuffix("(+https://example.org/bot)\"") == true)
    let untrusted = await run(["extract", nginx.url("/index.html"), "--allow-private-network"])
    #expect(untrusted.status == 1)
    #expect(untrusted.err.hasPrefix("Error: The TLS handshake failed: "))
  }
}
