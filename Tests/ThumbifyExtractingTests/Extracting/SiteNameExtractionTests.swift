import Testing
import ThumbifyExtracting
import ThumbifySystemTestSupport

/// `siteName` from every source a page names its site in, and the precedence (docs/metadata.md,
/// Site names).
@Suite("Site name extraction", .offThePool)
struct SiteNameExtractionTests {
  private func extract(
    _ body: String = "", head: String = "", title: String = "T", url: String = ExtractingTestSupport.pageURL
  ) -> PageMetadata {
    ExtractingTestSupport.extract(
      "<!doctype html><html><head><title>\(title)</title>\(head)</head><body>\(body)</body></html>", url: url)
  }

  private func jsonLD(_ json: String) -> String { #"<script type="application/ld+json">\#(json)</script>"# }

  // MARK: - Sources

  @Test func jsonLDWebSite() {
    let page = jsonLD(
      #"""
      {"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"Owner Media Inc."},
        {"@type":"WebSite","@id":"#site","name":"The Site","url":"https://www.example.com/"},
        {"@type":"WebPage","name":"Page"}]}
      """#)
    #expect(extract(page).siteName == "The Site")
  }

  @Test func jsonLDOrganizationPublisherInTheGraph() {
    let page = jsonLD(
      #"""
      {"@context":"https://schema.org","@graph":[
        {"@type":"Article","headline":"H","publisher":{"@id":"https://www.example.com/#org"}},
        {"@type":"Organization","@id":"https://www.example.com/#org","name":"Example Daily",
         "logo":{"@type":"ImageObject","url":"/logo.png"}},
        {"@type":"Person","name":"Jane Doe"}]}
      """#)
    #expect(extract(page).siteName == "Example Daily")
  }

  @Test func jsonLDNewsMediaOrganizationNested() {
    let nested = jsonLD(
      #"""
      {"@type":"NewsArticle","headline":"H",
       "isPartOf":{"@type":"CreativeWork","publisher":{"@type":"NewsMediaOrganization","name":"The Gazette"}}}
      """#)
    #expect(extract(nested).siteName == "The Gazette")
    #expect(
      extract(jsonLD(#"{"@type":"NewsMediaOrganization","name":"Channel Nine"}"#)).siteName == "Channel Nine")
    // A Person is no site, whatever it is called.
    #expect(extract(jsonLD(#"{"@type":"Person","name":"Jane Doe"}"#)).siteName == nil)
  }

  @Test func microdataPublisher() {
    let page = #"""
      <article itemscope itemtype="https://schema.org/Article"><h1 itemprop="headline">H</h1>
      <div itemprop="publisher" itemscope itemtype="https://schema.org/Organization">
        <div itemprop="logo" itemscope itemtype="https://schema.org/ImageObject"><img src=l.png itemprop=url></div>
        <meta itemprop="name" content="Micro Times"></div></article>
      """#
    #expect(extract(page).siteName == "Micro Times")
  }

  @Test func openGraphAndApplicationName() {
    #expect(extract(head: #"<meta property="og:site_name" content="OG Site">"#).siteName == "OG Site")
    #expect(extract(head: #"<meta name="application-name" content="App Site">"#).siteName == "App Site")
    #expect(
      extract(head: #"<meta name="apple-mobile-web-app-title" content="Apple Site">"#).siteName
        == "Apple Site")
  }

  @Test func precedence() {
    let og = #"<meta property="og:site_name" content="From OG">"#
    let ld = jsonLD(#"{"@type":"WebSite","name":"From JSON-LD"}"#)
    let microdata = #"<div itemprop="publisher" itemscope><span itemprop="name">From Microdata</span></div>"#
    let app = #"<meta name="application-name" content="From App">"#
    let title = "Story | Example"
    #expect(extract(ld + microdata, head: app + og, title: title).siteName == "From OG")
    #expect(extract(microdata + ld, head: app, title: title).siteName == "From JSON-LD")
    #expect(extract(microdata, head: app, title: title).siteName == "From Microdata")
    #expect(extract(head: app, title: title).siteName == "From App")
    #expect(extract(title: title).siteName == "Example")
  }

  // MARK: - Title suffix

  @Test(arguments: [
    ("Apple’s new thing | The Verge", "https://www.theverge.com/2024/1/1/story", "The Verge"),
    ("Why cats purr - BBC News", "https://www.bbc.co.uk/news/science-123", "BBC News"),
    ("A post · Example.com", "https://example.com/post", "Example.com"),
    ("Kurzmeldung — heise online", "https://www.heise.de/news/a.html", "heise online"),
  ])
  func titleSuffixThatNamesTheHost(_ title: String, _ url: String, _ siteName: String) {
    #expect(extract(title: title, url: url).siteName == siteName)
  }

  @Test func titleSuffixRepeatedOnOpenGraphTitle() {
    // og:title is the title without the suffix, or carries the same suffix on other words.
    let url = "https://news.example.org/a"
    #expect(
      extract(
        head: #"<meta property="og:title" content="Why cats purr">"#, title: "Why cats purr — Feline Weekly",
        url: url
      )
      .siteName == "Feline Weekly")
    #expect(
      extract(
        head: #"<meta property="og:title" content="Cats purr, explained — Feline Weekly">"#,
        title: "Why cats purr — Feline Weekly", url: url
      ).siteName == "Feline Weekly")
  }

  @Test func titleSuffixWithoutEvidenceIsNotASiteName() {
    let url = "https://games.example.net/rules"
    #expect(extract(title: "Rock - Paper - Scissors", url: url).siteName == nil)
    // og:title a copy of the title is no evidence either.
    #expect(
      extract(
        head: #"<meta property="og:title" content="Rock - Paper - Scissors">"#,
        title: "Rock - Paper - Scissors", url: url
      )
      .siteName == nil)
    // A word that only starts like the host is not its name.
    #expect(extract(title: "Tips | Newsletter signup", url: "https://news.com/a").siteName == nil)
    #expect(extract(title: "No separator here", url: "https://www.theverge.com/").siteName == nil)
    #expect(extract(title: "Hyphen-ated-verge", url: "https://www.verge.com/").siteName == nil)
  }

  @Test func hostileJSONLDSiteNamesAreBounded() {
    let cycle = jsonLD(
      #"""
      {"@graph":[{"@type":"Article","publisher":{"@id":"#a"}},
        {"@id":"#a","@type":"Thing","publisher":{"@id":"#b"},"isPartOf":{"@id":"#a"}},
        {"@id":"#b","@type":"Thing","publisher":{"@id":"#a"},"name":7}]}
      """#)
    #expect(extract(cycle).siteName == nil)
    let many = (0..<10_000).map { #"{"@type":"Thing","publisher":{"name":\#($0)}}"# }.joined(separator: ",")
    var siteName: String?
    let cpu = threadCPUSeconds { siteName = extract(jsonLD("[\(many)]")).siteName }
    #expect(siteName == nil)
    #expect(cpu < 5, "\(cpu) s of CPU")
  }
}
