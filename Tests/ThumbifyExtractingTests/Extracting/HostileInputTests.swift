import Foundation
import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyExtracting

/// Bad input never crashes, hangs or grows memory without bound.
@Suite("Hostile input", .offThePool)
struct HostileInputTests {
  private func extract(_ bytes: [UInt8]) -> PageMetadata {
    MetadataExtractor().extract(html: bytes, pageURL: ExtractingTestSupport.pageURL, contentType: nil)
  }

  @Test(arguments: [
    "<title>a</title><!--", "<title>a</title><!-- <meta", "<title>a</title><meta content=\"",
    "<title>a</title><meta content='x",
    "<title>a</title><meta content=", "<title>a</title><meta", "<title>a</title><", "<title>a</title></",
    "<title>a</title><!",
    "<title>a</title><script>", "<title>a</title><svg><![CDATA[", "<title>a</title>&#", "<title>a</title><?",
  ])
  func truncatedConstructsEndCleanly(_ html: String) {
    #expect(ExtractingTestSupport.extract(html).title == "a")
  }

  @Test func unterminatedTitleUsesTheRestOfTheDocument() {
    #expect(ExtractingTestSupport.extract("<title>open  title").title == "open title")
  }

  @Test func twentyMegabytePageIsBoundedInTime() {
    var page = Array("<html><head><title>Big</title><meta property=og:title content=Big>".utf8)
    let chunk = Array(
      "<div class=\"c\"><p>Some <b>text</b> &amp; more text <a href=\"/x?a=1&b=2\">link</a></p></div>\n".utf8)
    while page.count < 20 * 1024 * 1024 { page += chunk }
    page += Array("<meta property=og:description content=Late></body></html>".utf8)
    var metadata = PageMetadata()
    let elapsed = threadCPUSeconds { metadata = extract(page) }
    #expect(metadata.title == "Big")
    #expect(metadata.description == "Late")
    #expect(elapsed < 20, "20 MB took \(elapsed) s of CPU")
  }

  @Test func deeplyNestedTagsAndJSON() {
    let depth = 200_000
    let page =
      Array(String(repeating: "<div><span>", count: depth).utf8)
      + Array("<meta property=og:title content=Deep>".utf8)
      + Array("<script type=application/ld+json>".utf8) + Array(repeating: UInt8(ascii: "["), count: depth)
      + Array("</script>".utf8)
    #expect(extract(page).title == "Deep")
  }

  @Test func nulBytesAndGarbage() {
    var bytes = Array("<title>a\u{0}b</title><meta property=og:description content=\"x\u{0}y\">".utf8)
    bytes += (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
    let metadata = extract(bytes)
    #expect(metadata.title == "ab")
    #expect(metadata.description == "xy")
  }

  @Test func manyMetasLinksAndHugeAttributesAreCapped() {
    var page = ""
    for index in 0..<10_000 {
      page += "<meta property=og:image content=/i\(index).png><link rel=icon href=/f\(index).png>"
    }
    page += "<meta property=og:title content=\"" + String(repeating: "x", count: 1_000_000) + "\">"
    let metadata = ExtractingTestSupport.extract(page)
    #expect((metadata.images?.count ?? 0) <= MetadataCollector.maximumMetas)
    #expect((metadata.icons?.count ?? 0) <= MetadataCollector.maximumLinks + 1)
    #expect(metadata.images?.first?.url == "https://www.example.com/i0.png")
  }

  @Test func manyCharacterReferencesAndAmpersands() {
    let page = "<title>" + String(repeating: "&amp;&#x41;&bogus;&", count: 100_000) + "</title>"
    let title = ExtractingTestSupport.extract(page).title
    #expect(title?.count == 300)
    #expect(title?.hasPrefix("&A&bogus;&&A") == true)
  }

  @Test func invalidUTF8InAUTF8Page() {
    let bytes = Array("<meta charset=utf-8><title>a".utf8) + [0xC3, 0x28, 0xFF] + Array("b</title>".utf8)
    #expect(extract(bytes).title == "a\u{FFFD}(\u{FFFD}b")
  }

  @Test func emptyInputAndBadPageURL() {
    #expect(extract([]).title == nil)
    let metadata = MetadataExtractor().extract(
      html: Array("<meta property=og:image content=/a.png>".utf8), pageURL: "not a url", contentType: "bogus")
    #expect(metadata.image == nil)
    #expect(metadata.canonicalURL == nil)
  }
}
