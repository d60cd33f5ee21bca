import Testing
import ThumbifyExtracting
import ThumbifyExtractingTestSupport
import ThumbifyRendering

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

  @Test func renderingFillsEveryGap() {
    let unset = Mirror(reflecting: PageMetadata.complete).children.filter {
      if case Optional<Any>.none = $0.value { return true }
      return false
    }
    #expect(unset.isEmpty, "\(unset.map(\.label))")
    let (merged, fields) = PageMetadata().filledIn(from: PageMetadata.complete)
    #expect(merged == PageMetadata.complete)
    // 21 properties, the image, icon and date pairs named once each.
    #expect(fields.count == 17)
  }

  @Test func theServedHTMLWinsWhereBothHaveAField() {
    var served = PageMetadata()
    served.title = "Served title"
    served.image = ImageCandidate(url: "https://app.example/served.jpg")
    let (merged, fields) = served.filledIn(from: PageMetadata.complete)
    #expect(merged.title == "Served title")
    #expect(merged.image?.url == "https://app.example/served.jpg")
    #expect(merged.description == PageMetadata.complete.description)
    #expect(!fields.contains("title") && !fields.contains("image") && fields.contains("description"))
    // A placeholder title is no title.
    served.title = "React App"
    #expect(served.filledIn(from: PageMetadata.complete).metadata.title == PageMetadata.complete.title)
    #expect(served.filledIn(from: PageMetadata.complete).renderedFields.first == "title")
  }
}
