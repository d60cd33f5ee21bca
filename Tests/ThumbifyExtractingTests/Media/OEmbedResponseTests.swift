import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyExtracting

/// Issue 35: oEmbed responses, JSON and XML, and what of them reaches a card: never the raw `html`,
/// only one https iframe on the endpoint's or the provider's site (docs/metadata.md, "oEmbed").
@Suite("oEmbed responses", .offThePool)
struct OEmbedResponseTests {
  static let endpoint = "https://www.provider.example/oembed?url=x"

  /// The fields of a typical video response, and the same as JSON and as XML.
  static let fields: [(String, String)] = [
    ("type", "video"), ("version", "1.0"), ("title", "Clip & <friends>"), ("author_name", "Ann \"A\" Author"),
    ("provider_name", "Provider"), ("provider_url", "https://provider.example/"),
    ("thumbnail_url", "https://i.provider.example/t.jpg"), ("thumbnail_width", "480"),
    ("thumbnail_height", "270"), ("width", "640"), ("height", "360"),
    ("html", #"<iframe src="https://player.provider.example/e/1" allowfullscreen></iframe>"#),
  ]

  static func json(_ fields: [(String, String)]) -> [UInt8] {
    let numeric: Set<String> = ["thumbnail_width", "thumbnail_height", "width", "height"]
    let members = fields.map { key, value in
      let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
        of: "\"", with: "\\\"")
      return "\"\(key)\": " + (numeric.contains(key) ? value : "\"\(escaped)\"")
    }
    return Array(("{" + members.joined(separator: ", ") + "}").utf8)
  }

  static func xml(_ fields: [(String, String)]) -> [UInt8] {
    func escape(_ text: String) -> String {
      text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
    let body = fields.map { "<\($0.0)>\(escape($0.1))</\($0.0)>" }.joined(separator: "\n  ")
    return Array(
      "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<oembed>\n  \(body)\n</oembed>\n".utf8)
  }

  static let expected: OEmbedResponse = {
    var response = OEmbedResponse()
    response.type = "video"
    response.title = "Clip & <friends>"
    response.authorName = "Ann \"A\" Author"
    response.providerName = "Provider"
    response.providerURL = "https://provider.example/"
    response.thumbnailURL = "https://i.provider.example/t.jpg"
    response.thumbnailWidth = 480
    response.thumbnailHeight = 270
    response.width = 640
    response.height = 360
    response.html = #"<iframe src="https://player.provider.example/e/1" allowfullscreen></iframe>"#
    return response
  }()

  @Test func jsonAndXMLGiveTheSameResponse() throws {
    #expect(OEmbedResponse.parse(Self.json(Self.fields), contentType: "application/json") == Self.expected)
    #expect(OEmbedResponse.parse(Self.xml(Self.fields), contentType: "text/xml") == Self.expected)
    // The body decides when the type says nothing useful.
    #expect(OEmbedResponse.parse(Self.json(Self.fields), contentType: "text/plain") == Self.expected)
    #expect(OEmbedResponse.parse(Self.xml(Self.fields), contentType: nil) == Self.expected)
  }

  @Test func xmlWithCDATACommentsAndNestedElements() {
    let body = """
      <?xml version="1.0"?><!DOCTYPE oembed><!-- a comment <title>no</title> --><oembed>
      <type>rich</type><title><![CDATA[Fish & <Chips>]]></title><extra><title>nested</title></extra>
      <html>&lt;iframe src=&quot;https://w.provider.example/x&quot;&gt;&lt;/iframe&gt;</html><width>300</width><empty/>
      </oembed><title>after the root</title>
      """
    let response = OEmbedResponse.parse(Array(body.utf8), contentType: "text/xml+oembed")
    #expect(response?.type == "rich")
    #expect(response?.title == "Fish & <Chips>")
    #expect(response?.width == 300)
    #expect(response?.iframeURL(endpoint: Self.endpoint) == "https://w.provider.example/x")
  }

  @Test func theEmbedKeepsOnlyOneHTTPSIframeOnTheEndpointsOrProvidersSite() {
    func iframe(_ html: String, endpoint: String = Self.endpoint, provider: String? = nil) -> String? {
      var response = OEmbedResponse()
      response.type = "video"
      response.html = html
      response.providerURL = provider
      return response.iframeURL(endpoint: endpoint)
    }
    #expect(
      iframe(#"<iframe src="https://player.provider.example/e/1"></iframe>"#)
        == "https://player.provider.example/e/1")
    // Protocol-relative takes the endpoint's https.
    #expect(
      iframe(#"<iframe src="//www.provider.example/e/2"></iframe>"#) == "https://www.provider.example/e/2")
    // The provider's own site, when it is not the endpoint's.
    #expect(
      iframe(#"<iframe src="https://cdn.video.example/e"></iframe>"#, provider: "https://video.example")
        == "https://cdn.video.example/e")
  }

  /// The hostile `html` of the issue: nothing unsafe survives.
  @Test(arguments: [
    // A script alone, and a script writing an iframe.
    "<script>alert(1)</script>",
    #"<script>document.write('<iframe src="https://player.provider.example/e">')</script>"#,
    // Several iframes, even on the right site.
    #"<iframe src="https://player.provider.example/a"></iframe><iframe src="https://player.provider.example/b"></iframe>"#,
    // An iframe to another host.
    #"<iframe src="https://evil.example/steal"></iframe>"#,
    #"<iframe src="https://provider.example.evil.example/e"></iframe>"#,
    // javascript:, data:, http and credentials.
    #"<iframe src="javascript:alert(document.cookie)"></iframe>"#,
    #"<iframe src=" JaVaScRiPt:alert(1)"></iframe>"#,
    #"<iframe src="data:text/html,<script>alert(1)</script>"></iframe>"#,
    #"<iframe src="http://player.provider.example/e"></iframe>"#,
    #"<iframe src="https://user:pass@player.provider.example/e"></iframe>"#,
    // No src, an empty one, a srcdoc.
    "<iframe></iframe>", #"<iframe src=""></iframe>"#,
    #"<iframe srcdoc="<script>alert(1)</script>"></iframe>"#,
    // A backslash ends the authority as a slash does: the host is evil.example.
    #"<iframe src="https://evil.example\@player.provider.example/e"></iframe>"#,
  ])
  func hostileHTMLKeepsNothingUnsafe(html: String) {
    var response = OEmbedResponse()
    response.type = "rich"
    response.html = html
    response.providerURL = "https://provider.example/"
    let iframe = response.iframeURL(endpoint: Self.endpoint)
    #expect(iframe == nil, "\(html) kept \(iframe ?? "")")
    let merged = ExtractingTestSupport.extract("<title>Page</title>").filledIn(
      fromOEmbed: response, endpoint: Self.endpoint)
    #expect(merged.embed == nil && merged.video == nil)
  }

  @Test func aScriptBesideOneIframeLeavesOnlyTheIframesSource() throws {
    var response = Self.expected
    response.html =
      #"<script src="https://evil.example/x.js"></script><iframe src="https://player.provider.example/e/1"></iframe>"#
    let merged = PageMetadata().filledIn(fromOEmbed: response, endpoint: Self.endpoint)
    let embed = try #require(merged.embed)
    #expect(
      embed
        == Embed(
          provider: "Provider", type: "video", width: 640, height: 360,
          iframeURL: "https://player.provider.example/e/1"))
  }

  @Test func thePagesOwnFieldsWinAndOEmbedFillsTheRest() {
    let page = ExtractingTestSupport.extract(
      """
      <meta property=og:title content="Page title"><meta property=og:image content=https://www.example.com/own.jpg>
      """)
    let merged = page.filledIn(fromOEmbed: Self.expected, endpoint: Self.endpoint)
    #expect(merged.title == "Page title")
    #expect(merged.author == "Ann \"A\" Author")
    #expect(merged.siteName == "Provider")
    #expect(merged.image?.url == "https://www.example.com/own.jpg")
    #expect(
      merged.images?.last == ImageCandidate(url: "https://i.provider.example/t.jpg", width: 480, height: 270))
    #expect(merged.video?.url == "https://player.provider.example/e/1")
    #expect(merged.video?.kind == .player)
    // An empty page takes the title and the thumbnail as its image.
    let empty = PageMetadata().filledIn(fromOEmbed: Self.expected, endpoint: Self.endpoint)
    #expect(empty.title == "Clip & <friends>")
    #expect(empty.image?.url == "https://i.provider.example/t.jpg")
    // A page's own video is kept; the embed is added beside it.
    var withVideo = page
    withVideo.video = VideoCandidate(url: "https://www.example.com/own.mp4", kind: .file)
    let both = withVideo.filledIn(fromOEmbed: Self.expected, endpoint: Self.endpoint)
    #expect(both.video?.url == "https://www.example.com/own.mp4")
    #expect(both.embed?.iframeURL == "https://player.provider.example/e/1")
    // A photo's URL is an image candidate; a link type has no embed.
    var photo = OEmbedResponse()
    photo.type = "photo"
    photo.url = "/photos/1.jpg"
    photo.width = 1024
    #expect(
      PageMetadata().filledIn(fromOEmbed: photo, endpoint: Self.endpoint).image
        == ImageCandidate(url: "https://www.provider.example/photos/1.jpg", width: 1024))
  }

  /// Garbage bodies: no crash, and nothing when nothing is oEmbed.
  @Test(arguments: [
    "", "   ", "null", "[]", "{}", "[{\"type\":\"video\"}]", "<html><body>Not found</body></html>",
    "<oembed></oembed>",
    "{\"type\": ", "<oembed><type>video", "\u{FEFF}", "<<<<>>>>", "<![CDATA[", "<!--",
    "{\"width\": {\"a\": 1}}",
  ])
  func garbageGivesNothing(body: String) {
    let response = OEmbedResponse.parse(Array(body.utf8), contentType: nil)
    #expect(response == nil || response?.type == nil || response?.type == "video", "\(body)")
    #expect(OEmbedResponse.parse(Array(body.utf8), contentType: "application/json")?.html == nil)
  }

  @Test func truncatedResponsesKeepWhatWasComplete() {
    let xml = Self.xml(Self.fields)
    for cut in stride(from: 0, to: xml.count, by: 7) {
      let response = OEmbedResponse.parse(Array(xml[..<cut]), contentType: "text/xml")
      if let title = response?.title { #expect(title == "Clip & <friends>") }
    }
    let json = Self.json(Self.fields)
    for cut in stride(from: 0, to: json.count, by: 7) {
      _ = OEmbedResponse.parse(Array(json[..<cut]), contentType: "application/json")
    }
  }

  @Test func hugeAndDeepBodiesAreBounded() {
    let deep = Array((String(repeating: "<a>", count: 100_000) + "x").utf8)
    #expect(OEmbedResponse.parse(deep, contentType: "text/xml") == nil)
    let manyFields =
      "<oembed>" + (0..<1000).map { "<f\($0)>v</f\($0)>" }.joined() + "<title>late</title></oembed>"
    #expect(OEmbedResponse.parse(Array(manyFields.utf8), contentType: "text/xml")?.title == nil)
    let longTitle = Self.json([("type", "link"), ("title", String(repeating: "t", count: 300_000))])
    let response = OEmbedResponse.parse(longTitle, contentType: "application/json")
    #expect((response?.title?.utf8.count ?? 0) <= OEmbedResponse.maximumTextBytes)
  }
}
