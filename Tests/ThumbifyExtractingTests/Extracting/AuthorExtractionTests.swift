import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyExtracting

/// `author` from every source a page names its authors in, bylines cleaned, and the precedence
/// (docs/metadata.md, Authors).
@Suite("Author extraction", .offThePool)
struct AuthorExtractionTests {
  private func extract(_ body: String, head: String = "", url: String = ExtractingTestSupport.pageURL)
    -> PageMetadata
  {
    ExtractingTestSupport.extract(
      "<!doctype html><html><head><title>T</title>\(head)</head><body>\(body)</body></html>", url: url)
  }

  private func jsonLD(_ json: String) -> String { #"<script type="application/ld+json">\#(json)</script>"# }

  private func metaAuthor(_ content: String) -> String? {
    extract("", head: #"<meta name="author" content="\#(content)">"#).author
  }

  // MARK: - Bylines

  @Test(arguments: [
    ("By Will Smale", "Will Smale"), ("by: Will Smale", "Will Smale"), ("BY WILL SMALE", "WILL SMALE"),
    ("By:Will Smale", "Will Smale"), ("Von Anna Schmidt", "Anna Schmidt"), ("par Jean Dupont", "Jean Dupont"),
    ("Por María López", "María López"), ("Written by Jane Doe", "Jane Doe"),
    ("Posted by: Jane Doe", "Jane Doe"),
    ("by  &nbsp;Jane\n Doe", "Jane Doe"),
  ])
  func bylinePrefixesAreDropped(_ byline: String, _ name: String) {
    #expect(metaAuthor(byline) == name)
  }

  @Test(arguments: [
    // Names that start like a prefix keep it: no space or colon after it, or a lone name after it.
    "Byron Smith", "Von Miller", "Parker Posey", "Porter Wagoner", "von der Leyen",
  ])
  func namesThatStartLikeAPrefixAreKept(_ name: String) {
    #expect(metaAuthor(name) == name)
  }

  @Test(arguments: [
    ("Jane Doe, Staff Writer", "Jane Doe"), ("Jane Doe | Reporter", "Jane Doe"),
    ("Jane Doe - Senior Editor", "Jane Doe"), ("Jane Doe — Correspondent", "Jane Doe"),
    ("By Jane Doe, John Roe, Staff Writers", "Jane Doe, John Roe"),
    ("Anna Schmidt, Redakteurin", "Anna Schmidt"),
  ])
  func trailingRolesAreDropped(_ byline: String, _ name: String) {
    #expect(metaAuthor(byline) == name)
  }

  @Test(arguments: [
    // Hyphenated names, a list of names and last-name-first keep everything: no role word follows.
    "Mary-Jane Smith-Jones", "Jean-Luc Picard - Smith", "Jane Doe, John Roe", "Doe, Jane",
  ])
  func textWithoutARoleIsKept(_ name: String) {
    #expect(metaAuthor(name) == name)
  }

  @Test func urlsAndEmailAddressesAreNoNames() {
    #expect(metaAuthor("https://www.example.com/about") == nil)
    #expect(metaAuthor("www.example.com") == nil)
    #expect(metaAuthor("jane@example.com") == nil)
    #expect(metaAuthor("mailto:jane@example.com") == nil)
    // RSS-style `address (name)`: the name without the address.
    #expect(metaAuthor("jane@example.com (Jane Doe)") == "Jane Doe")
    #expect(metaAuthor("Jane Doe &lt;jane@example.com&gt;") == "Jane Doe")
    #expect(metaAuthor("12345") == nil)
    // A URL in a higher source does not hide a name in a lower one.
    #expect(
      extract(
        "",
        head: #"<meta name="author" content="https://x.example/jane"><meta name="byl" content="By Jo Ng">"#
      )
      .author == "Jo Ng")
  }

  @Test func profileURLIsTheLastResort() {
    #expect(
      extract(
        "", head: #"<meta property="article:author" content="https://www.example.com/author/jane-doe/">"#
      )
      .author == "Jane Doe")
    #expect(
      extract(#"<a rel="author" href="/authors/mary_ann_lee.html"><img src=a.png></a>"#).author
        == "Mary Ann Lee")
    #expect(extract("", head: #"<link rel="author" href="/people/john-roe">"#).author == "John Roe")
    #expect(
      extract(jsonLD(#"{"@type":"Article","author":{"@type":"Person","url":"/profile/ana-lima"}}"#)).author
        == "Ana Lima")
    // Handles and slugs with digits are not names.
    #expect(
      extract("", head: #"<meta name="author" content="https://www.example.com/author/admin/">"#).author
        == nil)
    #expect(
      extract("", head: #"<meta name="author" content="https://www.example.com/author/jdoe-42/">"#).author
        == nil)
    #expect(
      extract("", head: #"<meta name="author" content="https://www.facebook.com/jane.doe">"#).author == nil)
    // Any name on the page wins over a profile URL, even one from a higher source.
    #expect(
      extract(
        #"<a rel="author" href="/author/jane-doe/">J. Doe</a>"#,
        head: #"<meta property="article:author" content="https://www.example.com/author/jane-doe/">"#
      ).author == "J. Doe")
  }

  // MARK: - Sources

  @Test func relAuthorLinkText() {
    #expect(extract(#"<p>Story by <a rel="author" href="/u/1">Jane Doe</a>.</p>"#).author == "Jane Doe")
    #expect(
      extract(#"<a href="/u/1" class=x REL="nofollow Author"><span>By Jane Doe</span></a>"#).author
        == "Jane Doe")
    #expect(extract(#"<a rel="noopener" href="/u/1">Not An Author</a>"#).author == nil)
  }

  @Test func microdataAuthor() {
    let nested = #"""
      <article itemscope itemtype="https://schema.org/Article">
      <div itemprop="author" itemscope itemtype="https://schema.org/Person">
        <img itemprop="image" src="j.jpg"><a itemprop="url" href="/u/1"><span itemprop="name">Jane Doe</span></a>
      </div><h1 itemprop="name">Headline</h1></article>
      """#
    #expect(extract(nested).author == "Jane Doe")
    #expect(
      extract(#"<span itemprop="author" itemscope><meta itemprop="name" content="Jo Ng"></span>"#).author
        == "Jo Ng")
    #expect(extract(#"<span itemprop="author">By Jane Doe</span>"#).author == "Jane Doe")
    #expect(extract(#"<span itemprop="author" content="Jane Doe"></span>"#).author == "Jane Doe")
    #expect(extract("", head: #"<meta itemprop="author" content="Jane Doe">"#).author == "Jane Doe")
    // A Person without a name ends with its element: the article's name after it is no author.
    #expect(
      extract(#"<div itemprop="author" itemscope><span>x</span></div><h1 itemprop="name">Headline</h1>"#)
        .author
        == nil)
  }

  @Test func jsonLDAuthorArrayIsJoinedInOrderWithoutDuplicates() {
    let page = jsonLD(
      #"""
      {"@type":"NewsArticle","author":[{"@type":"Person","name":"Jane Doe"},"By John Roe",
       {"@type":"Person","givenName":"Ana","familyName":"Lima"},{"@type":"Person","name":"jane doe"}]}
      """#)
    #expect(extract(page).author == "Jane Doe, John Roe, Ana Lima")
  }

  @Test func jsonLDAuthorReferencesResolveInTheGraph() {
    let page = jsonLD(
      #"""
      {"@context":"https://schema.org","@graph":[
        {"@type":"Article","@id":"#article","headline":"H","author":[{"@id":"#jane"},{"@id":"#john"}]},
        {"@type":"Person","@id":"#jane","name":"Jane Doe","url":"https://www.example.com/author/jane-doe/"},
        {"@type":"Person","@id":"#john","name":"John Roe, Staff Writer"}]}
      """#)
    #expect(extract(page).author == "Jane Doe, John Roe")
  }

  @Test func precedence() {
    let ld = jsonLD(#"{"@type":"Article","author":{"@type":"Person","name":"From JSON-LD"}}"#)
    let meta = #"<meta name="author" content="From Meta">"#
    let articleAuthor = #"<meta property="article:author" content="From Article Author">"#
    let other = #"<meta name="parsely-author" content="From Parsely">"#
    let microdata = #"<span itemprop="author">From Microdata</span>"#
    let rel = #"<a rel="author" href="/x">From Rel</a>"#
    #expect(extract(ld + rel + microdata, head: meta + articleAuthor + other).author == "From JSON-LD")
    #expect(extract(rel + microdata, head: articleAuthor + other + meta).author == "From Meta")
    #expect(extract(rel + microdata, head: other + articleAuthor).author == "From Article Author")
    #expect(extract(rel + microdata, head: other).author == "From Parsely")
    #expect(extract(rel + microdata).author == "From Microdata")
    #expect(extract(rel).author == "From Rel")
  }

  // MARK: - Garbage

  @Test func hostileJSONLDAuthorsAreBounded() {
    #expect(extract(jsonLD(#"{"@type":"Article","author":[1, 2.5, true, null, {"name": 7}]}"#)).author == nil)
    #expect(extract(jsonLD(#"{"@type":"Article","author":[[["Deep"]], ["Jane Doe"]]}"#)).author == "Jane Doe")
    let cycle = jsonLD(
      #"""
      {"@graph":[{"@type":"Article","author":{"@id":"#a"}},
        {"@id":"#a","@type":"Person","author":{"@id":"#b"},"knows":{"@id":"#b"}},
        {"@id":"#b","@type":"Person","author":{"@id":"#a"},"name":{"@id":"#a"}}]}
      """#)
    #expect(extract(cycle).author == nil)
    let many = (0..<10_000).map { #"{"@type":"Person","name":"Author Number \#($0)"}"# }.joined(
      separator: ",")
    var author: String?
    let cpu = threadCPUSeconds {
      author = extract(jsonLD(#"{"@type":"Article","author":[\#(many)]}"#)).author
    }
    #expect(cpu < 5, "\(cpu) s of CPU")
    #expect(author?.hasPrefix("Author Number 0, Author Number 1, ") == true)
    #expect((author?.count ?? 0) <= AuthorRules.maximumLength)
    #expect(author?.hasSuffix(",") == false)
    // One name longer than the cap is cut at it.
    let long = String(repeating: "Longname ", count: 100)
    #expect(metaAuthor(long)?.count == AuthorRules.maximumLength)
  }
}
