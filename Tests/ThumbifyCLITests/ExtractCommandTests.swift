import Foundation
import Testing
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

@Suite("thumbify extract")
struct ExtractCommandTests {
  private func writePage(_ html: [UInt8]) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "extract-\(UUID().uuidString).html"
    ).path
    try Data(html).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func printsSortedPrettyJSONForASavedPage() async throws {
    let path = try writePage(
      Array("<title>Hello &amp; welcome</title><meta property=og:image content=/a.png>".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = await runCLI(["extract", "--html", path, "--url", "https://example.com/post"])
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    #expect(
      result.out == """
        {
          "metadata" : {
            "icon" : {
              "url" : "https://example.com/favicon.ico"
            },
            "icons" : [
              {
                "url" : "https://example.com/favicon.ico"
              }
            ],
            "image" : {
              "url" : "https://example.com/a.png"
            },
            "images" : [
              {
                "url" : "https://example.com/a.png"
              }
            ],
            "title" : "Hello & welcome"
          },
          "originalURL" : "https://example.com/post",
          "schema" : 2,
          "url" : "https://example.com/post"
        }

        """)
  }

  /// Issue 21: both forms print one envelope, and `url` is the canonical URL while `originalURL` is
  /// the URL given.
  @Test func savedPageEnvelopeHasTheCanonicalURLAndTheURLGiven() async throws {
    let path = try writePage(Array("<link rel=canonical href=/canonical><title>T</title>".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = await runCLI([
      "extract", "--compact", "--html", path, "--url", "HTTPS://Example.com/post?a=1",
    ])
    #expect(result.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    #expect(Set(object.keys) == ["schema", "url", "originalURL", "metadata"])
    #expect(object["url"] as? String == "https://example.com/canonical")
    #expect(object["originalURL"] as? String == "HTTPS://Example.com/post?a=1")
    let metadata = try #require(object["metadata"] as? [String: Any])
    #expect(metadata["canonicalURL"] as? String == "https://example.com/canonical")
    #expect(metadata["url"] == nil && metadata["originalURL"] == nil)
  }

  @Test func compactReadsStandardInputAndHonoursTheContentTypeCharset() async {
    let html: [UInt8] =
      Array("<title>".utf8) + [0xEE, 0xCF, 0xD7, 0xCF, 0xD3, 0xD4, 0xC9] + Array("</title>".utf8)
    let result = await runCLI(
      [
        "extract", "--compact", "--html", "-", "--url", "https://example.ru/", "--content-type",
        "text/html; charset=koi8-r",
      ],
      input: html)
    #expect(result.status == 0)
    #expect(
      result.out
        == #"{"metadata":{"icon":{"url":"https://example.ru/favicon.ico"},"icons":[{"url":"https://example.ru/favicon.ico"}],"title":"Новости"},"originalURL":"https://example.ru/","schema":2,"url":"https://example.ru/"}"#
        + "\n")
  }

  @Test func liveFormValidatesItsOptionsBeforeFetching() async {
    let timeout = await runCLI(["extract", "https://example.com/", "--timeout", "0"])
    #expect(timeout.status == 64)
    #expect(timeout.err.hasPrefix("Error: The value '0' is invalid for '--timeout <duration>'\n"))
    let contact = await runCLI(["extract", "https://example.com/", "--contact", "me"])
    #expect(contact.err.hasPrefix("Error: The value 'me' is invalid for '--contact <url>'\n"))
    let cacert = await runCLI(["extract", "https://example.com/", "--cacert", "/nonexistent.pem"])
    #expect(cacert.status == 64)
    let both = await runCLI(["extract", "https://example.com/", "--url", "https://example.com/"])
    #expect(both.status == 64)
  }

  /// `--render` runs a page's scripts against its server: not for a saved page, and not without Chromium
  /// (the missing browser is said before anything is fetched).
  @Test func renderNeedsTheLiveFormAndChromium() async {
    let saved = await runCLI(["extract", "--html", "/dev/null", "--url", "https://x/", "--render", "auto"])
    #expect(saved.status == 64)
    #expect(saved.err.hasPrefix("Error: '--render' needs the live form (extract <url>)"))
    let mode = await runCLI(["extract", "https://example.com/", "--render", "yes"])
    #expect(mode.status == 64)
    #expect(mode.err.hasPrefix("Error: The value 'yes' is invalid for '--render <mode>'"))
    var environment = TestState.environment
    environment["THUMBIFY_CHROMIUM"] = "/nonexistent/chromium"
    let missing = await runCLI(
      ["extract", "https://example.com/", "--render", "always"], environment: environment)
    #expect(missing.status == 70)
    #expect(
      missing.err.hasPrefix(
        "Error: Chromium is not installed: /nonexistent/chromium is not an executable file.\n"),
      "\(missing.err)")
    #expect(missing.out.isEmpty)
    // Without --render, no Chromium is looked for.
    let never = await runCLI(
      ["extract", "ftp://example.com/", "--render", "never"], environment: environment)
    #expect(never.status == 1)
  }

  @Test func liveFormRefusesOtherSchemesWithoutNetwork() async {
    let result = await runCLI(["extract", "ftp://example.com/"])
    #expect(result.status == 1)
    #expect(result.out.isEmpty)
    #expect(result.err == "Error: The scheme 'ftp' is not supported; only http and https are.\n")
  }

  @Test func missingURLAndBadValuesAreUsageErrors() async {
    let noURL = await runCLI(["extract", "--html", "/dev/null"])
    #expect(noURL.status == 64)
    #expect(noURL.err.hasPrefix("Error: Missing expected argument '--url <page-url>'\n"))
    let badURL = await runCLI(["extract", "--html", "/dev/null", "--url", "ftp://x/"])
    #expect(badURL.status == 64)
    #expect(badURL.err.hasPrefix("Error: The value 'ftp://x/' is invalid for '--url <page-url>'"))
    let badSize = await runCLI(["extract", "--html", "/dev/null", "--url", "https://x/", "--icon-size", "0"])
    #expect(badSize.err.hasPrefix("Error: The value '0' is invalid for '--icon-size <px>'\n"))
    let nothing = await runCLI(["extract"])
    #expect(nothing.status == 64)
    #expect(nothing.err.hasPrefix("Error: Missing expected argument '--html <file>'\n"))
  }

  @Test func unreadableFileFails() async {
    let result = await runCLI([
      "extract", "--html", "/nonexistent/page.html", "--url", "https://example.com/",
    ])
    #expect(result.status == 1)
    #expect(result.err == "Error: Cannot read '/nonexistent/page.html': No such file or directory.\n")
  }

  /// Issue 17: `--html /dev/zero` read until memory ran out, then said "Cannot read … Success.";
  /// a directory said the same.
  @Test(arguments: [("/dev/zero", "File too large"), ("/tmp", "Is a directory")])
  func anEndlessOrNonFileInputIsAnErrorWithItsReason(path: String, reason: String) async {
    let result = await runCLI(["extract", "--html", path, "--url", "https://example.com/"])
    #expect(result.status == 1)
    #expect(result.err == "Error: Cannot read '\(path)': \(reason).\n")
  }

  @Test func helpDescribesTheCommand() async {
    let result = await runCLI(["extract", "--help"])
    #expect(result.status == 0)
    #expect(
      result.out.contains(
        "USAGE: thumbify extract [<url>] [--html <file>] [--url <page-url>] [--content-type <value>] [--icon-size <px>] [--compact] [--timeout <duration>] [--cacert <file>] [--allow-private-network] [--ignore-robots] [--contact <url>] [--render <mode>] [--render-timeout <duration>] [--oembed <mode>] [--log-format <format>]\n"
      ))
  }

  /// Issue 35: the live form fetches the page's oEmbed endpoint (unless `--oembed never`) and prints
  /// the embed; `--html` only names the endpoint.
  @Test func theLiveFormFillsFromOEmbedAndNeverTurnsItOff() async throws {
    let server = try await FaultServer()
    let page = server.url("/oembed-page?format=xml")
    let live = await runCLI(["extract", page, "--allow-private-network", "--ignore-robots", "--compact"])
    #expect(live.status == 0, "\(live.err)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(live.out.utf8)) as? [String: Any])
    let metadata = try #require(json["metadata"] as? [String: Any])
    let embed = try #require(metadata["embed"] as? [String: Any])
    #expect(embed["iframeURL"] as? String == "https://127.0.0.1/embed/42")
    #expect(embed["provider"] as? String == "Loopback Video")
    #expect(metadata["author"] as? String == "A. Author")
    #expect(try server.stats(bucket: "oembed:xml").count == 1)

    let never = await runCLI([
      "extract", page, "--allow-private-network", "--ignore-robots", "--compact", "--oembed", "never",
    ])
    #expect(never.status == 0)
    #expect(!never.out.contains("\"embed\"") && never.out.contains("\"oembed\""))
    #expect(try server.stats(bucket: "oembed:xml").count == 1)

    let bad = await runCLI(["extract", page, "--oembed", "sometimes"])
    #expect(bad.status == 64)
    #expect(bad.err.hasPrefix("Error: The value 'sometimes' is invalid for '--oembed <mode>'"))
  }
}
