import Testing
import ThumbifyExtracting
import ThumbifySystemTestSupport

/// Pages shaped like real sites' heads (Tests/Fixtures/pages), checked field by field.
@Suite("Real-world page shapes", .offThePool)
struct RealWorldPageTests {
  private func extract(_ file: String, url: String) throws -> PageMetadata {
    MetadataExtractor().extract(
      html: try ExtractingTestSupport.fixture(file), pageURL: url, contentType: "text/html")
  }

  @Test func newsArticle() throws {
    let page = "https://www.dailyplanet.example/world/2024/mar/05/storm-batters-coast?CMP=share"
    let metadata = try extract("news-article.html", url: page)
    #expect(metadata.title == "Storm batters coast as thousands lose power")
    #expect(
      metadata.description == "Gusts of up to 90mph brought down trees & power lines across the region.")
    #expect(metadata.canonicalURL == "https://www.dailyplanet.example/world/2024/mar/05/storm-batters-coast")
    #expect(metadata.siteName == "The Daily Planet")
    #expect(metadata.type == "article")
    #expect(metadata.lang == "en")
    #expect(metadata.author == "Lois Lane")
    #expect(metadata.publishedTime == "2024-03-05T07:30:12.000Z")
    #expect(metadata.modifiedTime == "2024-03-05T11:02:45.000Z")
    #expect(metadata.themeColor == "#052962")
    #expect(metadata.twitterCard == "summary_large_image")
    let imageURL =
      "https://i.dailyplanet.example/img/media/3f2a/master/4000.jpg?width=1200&height=630&quality=85&auto=format&fit=crop&s=abc123"
    #expect(
      metadata.image
        == ImageCandidate(url: imageURL, width: 1200, height: 630, alt: "Waves crash over the sea wall"))
    #expect(metadata.images?.count == 2)
    #expect(
      metadata.icon
        == IconCandidate(
          url: "https://www.dailyplanet.example/icons/apple-touch-icon-120.png", sizes: "120x120"))
    #expect(
      metadata.icons?.map(\.url) == [
        "https://www.dailyplanet.example/icons/apple-touch-icon-120.png",
        "https://www.dailyplanet.example/icons/apple-touch-icon-152.png",
        // The SVG (rendered at 64 px) before the 32 px favicon.ico.
        "https://www.dailyplanet.example/icons/icon.svg",
        "https://www.dailyplanet.example/favicon.ico",
        "https://uploads.dailyplanet.example/logo.png",
      ])
    #expect(metadata.icons?[3].sizes == "32x32")
  }

  @Test func productPage() throws {
    let metadata = try extract(
      "product-page.html",
      url: "https://shop.summit.example/products/trailrunner-3-waterproof-hiking-boot?variant=1")
    #expect(metadata.title == "Trailrunner 3 Waterproof Hiking Boot - Men's")
    #expect(metadata.description == "A waterproof, breathable boot for long days on rough trails.")
    #expect(
      metadata.canonicalURL == "https://shop.summit.example/products/trailrunner-3-waterproof-hiking-boot")
    #expect(metadata.type == "product")
    #expect(metadata.siteName == "Summit Outfitters")
    #expect(
      metadata.images?.prefix(2).map(\.url) == [
        "https://shop.summit.example/cdn/shop/products/trailrunner3_black.jpg?v=1699",
        "https://shop.summit.example/cdn/shop/products/trailrunner3_side.jpg?v=1699",
      ])
    #expect(metadata.image?.width == 2048)
    #expect(metadata.icon?.url == "https://shop.summit.example/apple-touch-icon-precomposed.png")
    #expect(
      metadata.icons?.contains {
        $0.url == "https://shop.summit.example/cdn/shop/files/favicon_32x32.png?v=1"
      } == true)
  }

  @Test func wordPressBlogWithYoastGraph() throws {
    let metadata = try extract("blog-post.html", url: "https://brotzeit.example/sauerteigbrot-backen/")
    #expect(metadata.title == "Sauerteigbrot backen: eine Anleitung für Anfänger")
    #expect(
      metadata.description
        == "Schritt für Schritt zum ersten Sauerteigbrot – mit Zeitplan, Rezept und den häufigsten Fehlern.")
    #expect(metadata.lang == "de-DE")
    #expect(metadata.author == "Marie Bäcker")
    #expect(metadata.siteName == "Brotzeit Blog")
    #expect(metadata.image?.url == "https://brotzeit.example/wp-content/uploads/2023/10/sauerteig.jpg")
    #expect(metadata.image?.type == "image/jpeg")
    #expect(metadata.image?.alt == "Ein frisch gebackenes Sauerteigbrot")
    #expect(metadata.images?.count == 1)
    #expect(metadata.oembed?.hasPrefix("https://brotzeit.example/wp-json/oembed/1.0/embed?url=") == true)
    #expect(
      metadata.icon?.url == "https://brotzeit.example/wp-content/uploads/2021/01/cropped-icon-180x180.png")
    #expect(metadata.publishedTime == "2023-10-14T08:00:00Z")
  }

  @Test func youTubeWatchPage() throws {
    let metadata = try extract("youtube-watch.html", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ")
    #expect(metadata.title == "Rick Astley - Never Gonna Give You Up (Official Music Video)")
    #expect(metadata.siteName == "YouTube")
    #expect(metadata.type == "video.other")
    #expect(
      metadata.video
        == VideoCandidate(
          url: "https://www.youtube.com/embed/dQw4w9WgXcQ", type: "text/html", width: 1280, height: 720,
          kind: .player, duration: 213))
    #expect(
      metadata.image
        == ImageCandidate(
          url: "https://i.ytimg.com/vi/dQw4w9WgXcQ/maxresdefault.jpg", width: 1280, height: 720))
    #expect(
      metadata.oembed
        == "https://www.youtube.com/oembed?format=json&url=https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3DdQw4w9WgXcQ"
    )
    #expect(metadata.twitterCard == "player")
    #expect(metadata.icon?.url == "https://www.youtube.com/s/desktop/4feff1e2/img/favicon_96x96.png")
    #expect(metadata.canonicalURL == "https://www.youtube.com/watch?v=dQw4w9WgXcQ")
    #expect(metadata.publishedTime == "2009-10-24T23:57:33-07:00")
  }

  @Test func gitHubRepository() throws {
    let metadata = try extract("github-repo.html", url: "https://github.com/swiftlang/swift")
    #expect(metadata.title == "GitHub - swiftlang/swift: The Swift Programming Language")
    #expect(metadata.siteName == "GitHub")
    #expect(metadata.type == "object")
    #expect(metadata.lang == "en")
    #expect(metadata.themeColor == "#1e2327")
    #expect(metadata.image?.url == "https://opengraph.githubassets.com/5c7e1a9b0a8f/swiftlang/swift")
    #expect(metadata.image?.height == 600)
    #expect(
      metadata.icon
        // The SVG, rendered at the target size, before the PNG of unknown size.
        == IconCandidate(url: "https://github.githubassets.com/favicons/favicon.svg", type: "image/svg+xml"))
    #expect(metadata.icons?.map(\.url).last == "https://github.com/favicon.ico")
    #expect(metadata.canonicalURL == "https://github.com/swiftlang/swift")
  }

  @Test func wikipediaArticle() throws {
    let metadata = try extract(
      "wikipedia.html", url: "https://en.wikipedia.org/wiki/Swift_(programming_language)")
    #expect(metadata.title == "Swift (programming language) - Wikipedia")
    #expect(metadata.description == nil)
    #expect(metadata.lang == "en")
    #expect(
      metadata.image?.url
        == "https://upload.wikimedia.org/wikipedia/commons/thumb/9/9d/Swift_logo.svg/1200px-Swift_logo.svg.png"
    )
    #expect(metadata.images?.count == 4)
    #expect(metadata.icon?.url == "https://en.wikipedia.org/static/apple-touch/wikipedia.png")
    #expect(
      metadata.icons?.contains { $0.url == "https://en.wikipedia.org/static/favicon/wikipedia.ico" } == true)
    #expect(metadata.canonicalURL == "https://en.wikipedia.org/wiki/Swift_(programming_language)")
    #expect(metadata.modifiedTime == "2023-11-20T10:16:26Z")
  }
}
