import Testing

@testable import ThumbifyExtracting
@testable import ThumbifyRendering

@Suite("When to render, and what rendering adds")
struct RenderRuleTests {
  private func metadata(_ html: String) -> PageMetadata {
    MetadataExtractor().extract(html: Array(html.utf8), pageURL: "https://app.example/", contentType: nil)
  }

  private func reason(_ html: String) -> String? {
    RenderRule.reason(for: metadata(html), html: Array(html.utf8))
  }

  @Test func appShellsAreRendered() {
    #expect(
      reason(#"<title>React App</title><div id="root"></div><script src=/main.js></script>"#) == "appShell")
    #expect(reason("<title>Shop</title><body><DIV ID=\"app\"></div>") == "appShell")
    #expect(
      reason("<title>Dashboard</title><noscript>You need to enable JavaScript to run this app.</noscript>")
        == "appShell")
    #expect(reason("<title>Vite + React + TS</title>") == "appShell")
    #expect(reason("<app-root></app-root>") == "noTitleOrImage")
    #expect(reason("<html><body><p>no title, no image</p>") == "noTitleOrImage")
  }

  @Test func pagesWhoseServedHTMLMakesTheCardAreNot() {
    #expect(reason("<title>An article</title><p>Text</p>") == nil)
    #expect(reason(#"<meta property="og:image" content="/a.jpg"><p>picture only</p>"#) == nil)
    // A server-rendered app: its mount point is filled, and it states its card.
    #expect(
      reason(
        #"<title>React App</title><meta name=description content="A real page"><div id="root"></div>"#) == nil
    )
    #expect(reason("<title>Quiet</title><noscript><img src=/pixel.gif></noscript>") == nil)
  }

  /// A PageMetadata with every property set (the test below fails when one is added and left out).
  static let complete: PageMetadata = {
    var page = PageMetadata()
    page.title = "Rendered"
    page.description = "d"
    page.canonicalURL = "https://app.example/c"
    page.siteName = "s"
    page.type = "article"
    page.lang = "en"
    page.image = ImageCandidate(url: "https://app.example/i.jpg")
    page.images = [ImageCandidate(url: "https://app.example/i.jpg")]
    page.icon = IconCandidate(url: "https://app.example/i.png")
    page.icons = [IconCandidate(url: "https://app.example/i.png")]
    page.video = VideoCandidate(url: "https://app.example/v.mp4")
    page.audio = AudioCandidate(url: "https://app.example/a.mp3")
    page.oembed = "https://app.example/oembed"
    page.author = "a"
    page.publishedTime = "2024-05-01"
    page.publishedTimeText = "May 1"
    page.modifiedTime = "2024-05-02"
    page.modifiedTimeText = "May 2"
    page.themeColor = "#fff"
    page.twitterCard = "summary"
    return page
  }()

  @Test func renderingFillsEveryGap() {
    let unset = Mirror(reflecting: Self.complete).children.filter {
      if case Optional<Any>.none = $0.value { return true }
      return false
    }
    #expect(unset.isEmpty, "\(unset.map(\.label))")
    let (merged, fields) = PageMetadata().filledIn(from: Self.complete)
    #expect(merged == Self.complete)
    // 20 properties, the image, icon and date pairs named once each.
    #expect(fields.count == 16)
  }

  @Test func theServedHTMLWinsWhereBothHaveAField() {
    var served = PageMetadata()
    served.title = "Served title"
    served.image = ImageCandidate(url: "https://app.example/served.jpg")
    let (merged, fields) = served.filledIn(from: Self.complete)
    #expect(merged.title == "Served title")
    #expect(merged.image?.url == "https://app.example/served.jpg")
    #expect(merged.description == "d")
    #expect(!fields.contains("title") && !fields.contains("image") && fields.contains("description"))
    // A placeholder title is no title.
    served.title = "React App"
    #expect(served.filledIn(from: Self.complete).metadata.title == "Rendered")
    #expect(served.filledIn(from: Self.complete).renderedFields.first == "title")
  }
}
