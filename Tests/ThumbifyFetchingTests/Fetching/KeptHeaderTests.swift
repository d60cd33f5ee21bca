import Testing

@testable import ThumbifyFetching

@Suite("Response header names matched as bytes")
struct KeptHeaderTests {
  private func kept(_ name: String) -> String? {
    Array(name.utf8).withUnsafeBytes { CurlTransfer.keptHeader(named: $0) }
  }

  @Test func everyKeptNameIsFoundInAnyCase() {
    for name in CurlTransfer.keptHeaders {
      #expect(kept(name) == name)
      #expect(kept(name.uppercased()) == name)
    }
    #expect(kept("Content-Type") == "content-type")
    #expect(kept("ETag") == "etag")
    #expect(kept("Last-Modified") == "last-modified")
  }

  @Test(arguments: [
    "", "server", "content-typ", "content-types", "etag ", "e-tag", "locatio\u{0}", "Content_Type",
  ])
  func otherNamesAreSkipped(name: String) {
    #expect(kept(name) == nil)
  }
}
