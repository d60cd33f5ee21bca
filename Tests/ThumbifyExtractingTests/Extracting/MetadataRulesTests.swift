import Testing
import ThumbifyExtracting
import ThumbifySystemTestSupport

/// One test per documented precedence rule (docs/metadata.md).
@Suite("Metadata rules", .offThePool)
struct MetadataRulesTests {
  private func extract(_ html: String, url: String = ExtractingTestSupport.pageURL) -> PageMetadata {
    ExtractingTestSupport.extract(html, url: url)
  }

  private let jsonLD = """
    <script type="application/ld+json">{"@type":"Article","headline":"LD title","description":"LD description"}</script>
    """

  @Test func titlePrecedenceIsOpenGraphTwitterJSONLDThenTitleElement() {
    let all =
      "<title>Element</title><meta name=twitter:title content=Twitter>\(jsonLD)<meta property=og:title content=OG>"
    #expect(extract(all).title == "OG")
    #expect(
      extract("<title>Element</title><meta name=twitter:title content=Twitter>\(jsonLD)").title == "Twitter")
    #expect(extract("<title>Element</title>\(jsonLD)").title == "LD title")
    #expect(extract("<title>Element &amp; more</title>").title == "Element & more")
  }

  @Test func descriptionPrecedenceIsOpenGraphTwitterJSONLDThenMetaDescription() {
    let base = "<meta name=description content=Meta>"
    #expect(
      extract(base + "<meta name=twitter:description content=T><meta property=og:description content=O>")
        .description == "O")
    #expect(extract(base + "<meta name=twitter:description content=T>\(jsonLD)").description == "T")
    #expect(extract(base + jsonLD).description == "LD description")
    #expect(extract(base).description == "Meta")
  }

  @Test func valueAttributeStandsInForAMissingContent() {
    #expect(extract("<meta name=twitter:image value=/t.png>").image?.url == "https://www.example.com/t.png")
    #expect(extract("<meta property=og:title value=V content=C>").title == "C")
  }

  @Test func emptyValuesDoNotCount() {
    #expect(extract("<meta property=og:title content=\"  \"><title>Real</title>").title == "Real")
  }

  @Test func textIsDecodedCollapsedTrimmedAndCapped() {
    #expect(extract("<title>\n  A&nbsp;&nbsp;b \t&amp;\u{2003}c  </title>").title == "A b & c")
    let long = String(repeating: "é", count: 400)
    #expect(extract("<title>\(long)</title>").title?.count == 300)
    let flags = String(repeating: "🇩🇪", count: 1200)
    let description = extract("<meta name=description content=\"\(flags)\">").description
    #expect(description?.count == 1000)
    #expect(description?.unicodeScalars.count == 2000)
    #expect(extract("<meta property=og:title content=\"Site | Page\">").title == "Site | Page")
  }

  @Test func imageGroupsTakeSecureURLThenURLThenPlainWithTheirAttributes() {
    let page = """
      <meta property="og:image" content="http://example.com/a.jpg">
      <meta property="og:image:secure_url" content="https://example.com/a-secure.jpg">
      <meta property="og:image:width" content="800"><meta property="og:image:height" content="600px">
      <meta property="og:image:alt" content="An  apple"><meta property="og:image:type" content="image/jpeg">
      <meta property="og:image:url" content="http://example.com/a.jpg">
      <meta property="og:image:url" content="/b.jpg"><meta property="og:image:width" content="100">
      <meta property="og:image" content="/c.png">
      """
    let images = extract(page).images ?? []
    #expect(
      images == [
        ImageCandidate(
          url: "https://example.com/a-secure.jpg", width: 800, height: 600, alt: "An apple",
          type: "image/jpeg"),
        ImageCandidate(url: "https://www.example.com/b.jpg", width: 100),
        ImageCandidate(url: "https://www.example.com/c.png"),
      ])
  }

  @Test func imageSourcesInPrecedenceOrder() {
    let page = """
      <link rel="image_src" href="/linked.jpg">
      <script type="application/ld+json">{"@type":"NewsArticle","image":{"@type":"ImageObject","url":"/ld.jpg","width":1200,"height":675}}</script>
      <meta name="twitter:image:src" content="/twitter-src.jpg"><meta name="twitter:image" content="/twitter.jpg">
      <meta name="twitter:image:alt" content="Alt">
      <meta property="og:image" content="/og.jpg">
      """
    let urls = extract(page).images?.map(\.url)
    #expect(
      urls == [
        "https://www.example.com/og.jpg", "https://www.example.com/twitter-src.jpg",
        "https://www.example.com/twitter.jpg",
        "https://www.example.com/ld.jpg", "https://www.example.com/linked.jpg",
      ])
    #expect(extract(page).images?[1].alt == "Alt")
    #expect(extract(page).images?[3].width == 1200)
  }

  @Test func nonHTTPImagesAreRejectedAndDuplicatesMerge() {
    let page = """
      <meta property="og:image" content="data:image/png;base64,iVBORw0KGgo=">
      <meta property="og:image" content="javascript:alert(1)"><meta property="og:image" content="ftp://x/y.png">
      <meta property="og:image" content="/same.jpg"><meta name="twitter:image" content="https://www.example.com/same.jpg">
      <meta name="twitter:image:width" content="640">
      """
    #expect(extract(page).images == [ImageCandidate(url: "https://www.example.com/same.jpg", width: 640)])
    #expect(extract(page).image?.url == "https://www.example.com/same.jpg")
  }

  @Test func iconsAreRankedForTheTargetSize() {
    let page = """
      <link rel="icon" type="image/svg+xml" href="/icon.svg">
      <link rel="mask-icon" href="/mask.svg" color="#000">
      <link rel="shortcut icon" href="/favicon-16.png" sizes="16x16">
      <link rel="icon" href="/favicon-32.png" sizes="32x32">
      <link rel="icon" href="/unknown.png">
      <link rel="apple-touch-icon" href="/apple.png">
      <link rel="icon" href="/favicon-96.png" sizes="96x96">
      <link rel="apple-touch-icon-precomposed" href="/apple-152.png" sizes="152x152">
      """
    let urls = extract(page).icons?.map {
      $0.url.replacingOccurrences(of: "https://www.example.com", with: "")
    }
    #expect(
      urls == [
        // Raster icons that reach 64 px, then the SVG (rendered at any size), then raster icons
        // of unknown or smaller size, the monochrome mask icon, and the origin's favicon.
        "/favicon-96.png", "/apple-152.png", "/apple.png", "/icon.svg", "/unknown.png", "/favicon-32.png",
        "/favicon-16.png", "/mask.svg", "/favicon.ico",
      ])
    let small = ExtractingTestSupport.extract(page, iconSize: 16).icons?.first?.url
    #expect(small == "https://www.example.com/favicon-16.png")
    // No raster icon reaches 512 px: the SVG does.
    let huge = ExtractingTestSupport.extract(page, iconSize: 512).icons?.first?.url
    #expect(huge == "https://www.example.com/icon.svg")
    #expect(extract(page).icon?.sizes == "96x96")
  }

  @Test func withoutIconsTheFaviconAtTheOriginIsTheCandidate() {
    #expect(
      extract("<title>x</title>", url: "https://sub.example.org:8443/a/b").icons == [
        IconCandidate(url: "https://sub.example.org:8443/favicon.ico")
      ])
  }

  @Test func jsonLDLogosAreIconCandidatesAfterLinkIcons() {
    let page = """
      <script type="application/ld+json">{"@type":"Article","publisher":{"@type":"Organization","name":"P","logo":{"@type":"ImageObject","url":"/logo.png","width":60,"height":60}}}</script>
      <link rel="icon" href="/i.png">
      """
    #expect(
      extract(page).icons?.map(\.url) == [
        "https://www.example.com/i.png", "https://www.example.com/logo.png",
        "https://www.example.com/favicon.ico",
      ])
  }

  /// Issue 19: the declared canonical URL is kept on any host (de-duplication and analytics need it);
  /// only the link (`canonicalURL(onHostOf:)`, the envelope's `url`) stays on the page's host.
  @Test func canonicalURLIsTheDeclaredOneOnAnyHost() {
    let page = ExtractingTestSupport.pageURL
    let sameHost = extract("<link rel=canonical href=/canonical?a=1>")
    #expect(sameHost.canonicalURL == "https://www.example.com/canonical?a=1")
    #expect(sameHost.canonicalURL(onHostOf: page) == "https://www.example.com/canonical?a=1")
    // A leading `www.` is ignored on both sides.
    let bare = extract("<link rel=canonical href=https://example.com/c>")
    #expect(bare.canonicalURL(onHostOf: page) == "https://example.com/c")

    // An AMP page naming the article on the publisher's host: the canonical URL, but not the link.
    let amp = extract(
      "<link rel=canonical href=https://news.example.net/story><meta property=og:url content=/og>",
      url: "https://amp.example.org/news.example.net/story")
    #expect(amp.canonicalURL == "https://news.example.net/story")
    #expect(amp.canonicalURL(onHostOf: "https://amp.example.org/news.example.net/story") == nil)
    // rel=canonical wins over og:url whatever their hosts.
    #expect(
      extract("<link rel=canonical href=https://x.com/a/status/1><meta property=og:url content=/og>")
        .canonicalURL == "https://x.com/a/status/1")
    #expect(extract("").canonicalURL == nil)
  }

  @Test func ogURLOnAnotherHostIsTheCanonicalURLWhenThereIsNoLinkRelCanonical() {
    let metadata = extract("<meta property=og:url content=https://www.example.co.uk/story>")
    #expect(metadata.canonicalURL == "https://www.example.co.uk/story")
    #expect(metadata.canonicalURL(onHostOf: ExtractingTestSupport.pageURL) == nil)
    #expect(
      extract("<meta property=og:url content=https://www.example.com/og>").canonicalURL
        == "https://www.example.com/og")
  }

  @Test func aRelativeCanonicalURLResolvesAgainstTheBaseHref() {
    let page = "<base href=https://static.example.net/en/><link rel=canonical href=../story?id=1#top>"
    #expect(extract(page).canonicalURL == "https://static.example.net/story?id=1#top")
    #expect(
      extract("<base href=/sub/><meta property=og:url content=page.html>").canonicalURL
        == "https://www.example.com/sub/page.html")
  }

  /// What is not an http(s) URL is no canonical URL; the next source (og:url) is read instead.
  @Test(arguments: [
    "javascript:alert(1)", "data:text/html,<script>x</script>", "mailto:a@example.com", "ftp://example.com/",
    "http://", "https://exa mple.com/", "http://[::1/", "https://example.com:99999/", "   ", "",
  ])
  func aCanonicalURLThatIsNoHTTPURLIsRejected(_ garbage: String) {
    #expect(extract("<link rel=canonical href=\"\(garbage)\">").canonicalURL == nil)
    #expect(extract("<meta property=og:url content=\"\(garbage)\">").canonicalURL == nil)
    #expect(
      extract("<link rel=canonical href=\"\(garbage)\"><meta property=og:url content=/og>").canonicalURL
        == "https://www.example.com/og")
  }

  /// A user name or password is not part of what the page is: dropped, the rest kept. The host that
  /// decides the link is the real one, not the user name that looks like a host.
  @Test func credentialsAreRemovedFromTheCanonicalURL() {
    #expect(
      extract("<link rel=canonical href=https://user:secret@www.example.com/a>").canonicalURL
        == "https://www.example.com/a")
    #expect(
      extract("<meta property=og:url content=http://token@news.example.net:8080/b?c>").canonicalURL
        == "http://news.example.net:8080/b?c")
    let disguised = extract("<link rel=canonical href=https://www.example.com@evil.example/>")
    #expect(disguised.canonicalURL == "https://evil.example/")
    #expect(disguised.canonicalURL(onHostOf: ExtractingTestSupport.pageURL) == nil)
  }

  /// Issue 19: `og:audio` groups like `og:video` — the https `secure_url` first, then `:url`, then
  /// `og:audio` — with its `:type`.
  @Test func audioFromOpenGraphPrefersAnHTTPSSecureURL() {
    let og = """
      <meta property="og:audio" content="http://cdn.example.net/ep1.mp3">
      <meta property="og:audio:secure_url" content="https://cdn.example.net/ep1.mp3">
      <meta property="og:audio:type" content="audio/mpeg">
      """
    #expect(
      extract(og).audio
        == AudioCandidate(url: "https://cdn.example.net/ep1.mp3", type: "audio/mpeg", kind: .file))
    // A secure_url that is not https does not beat og:audio:url.
    let insecure = """
      <meta property="og:audio:url" content="https://cdn.example.net/ep2.ogg">
      <meta property="og:audio:secure_url" content="http://cdn.example.net/ep2.ogg">
      <meta property="og:audio:type" content="  audio/ogg ">
      """
    #expect(
      extract(insecure).audio
        == AudioCandidate(url: "https://cdn.example.net/ep2.ogg", type: "audio/ogg", kind: .file))
    // Without a type, the extension names it.
    #expect(extract("<meta property=og:audio content=https://a.example/x.m4a>").audio?.type == "audio/mp4")
    #expect(extract("<meta property=og:audio content=https://a.example/listen>").audio?.type == nil)
    // Video and audio are separate groups.
    let both = "<meta property=og:video content=/v.mp4><meta property=og:audio content=/a.mp3>"
    #expect(extract(both).video?.url == "https://www.example.com/v.mp4")
    #expect(extract(both).audio?.url == "https://www.example.com/a.mp3")
  }

  @Test func aRelativeAudioURLResolvesAgainstTheBase() {
    #expect(
      extract("<meta property=og:audio content=../audio/ep.mp3>").audio?.url
        == "https://www.example.com/audio/ep.mp3")
    #expect(
      extract("<base href=https://media.example.net/pod/><meta property=og:audio:url content=ep.mp3>").audio?
        .url
        == "https://media.example.net/pod/ep.mp3")
    #expect(
      extract("<meta property=og:audio:secure_url content=//media.example.net/ep.mp3>").audio?.url
        == "https://media.example.net/ep.mp3")
  }

  /// A group whose URLs are no http(s) URL is skipped; the next group is read instead.
  @Test(arguments: [
    "javascript:alert(1)", "data:audio/mpeg;base64,AAAA", "ftp://example.com/a.mp3", "http://",
    "https://a b/",
    "   ",
  ])
  func anAudioURLThatIsNoHTTPURLIsDropped(_ garbage: String) {
    #expect(extract("<meta property=og:audio content=\"\(garbage)\">").audio == nil)
    #expect(
      extract(
        "<meta property=og:audio:secure_url content=\"\(garbage)\"><meta property=og:audio:type content=audio/mpeg>"
      ).audio == nil)
    let next = """
      <meta property=og:audio content="\(garbage)"><meta property=og:audio:type content=audio/wav>
      <meta property=og:audio content=/second.mp3><meta property=og:audio:type content=audio/mpeg>
      """
    #expect(
      extract(next).audio
        == AudioCandidate(url: "https://www.example.com/second.mp3", type: "audio/mpeg", kind: .file))
    // A type alone makes no audio.
    #expect(extract("<meta property=og:audio:type content=audio/mpeg>").audio == nil)
  }

  @Test func siteNamePrecedence() {
    let ld =
      #"<script type="application/ld+json">{"@type":"Article","publisher":{"@type":"Organization","name":"Publisher"}}</script>"#
    #expect(
      extract("<meta name=application-name content=App>\(ld)<meta property=og:site_name content=OG>").siteName
        == "OG")
    #expect(extract("<meta name=application-name content=App>\(ld)").siteName == "Publisher")
    #expect(extract("<meta name=application-name content=App>").siteName == "App")
  }

  @Test func videoFromOpenGraphThenTwitterPlayerThenRecognisedPages() {
    let og = """
      <meta property="og:video" content="http://example.com/v.mp4"><meta property="og:video:secure_url" content="https://example.com/v.mp4">
      <meta property="og:video:type" content="video/mp4"><meta property="og:video:width" content="1920"><meta property="og:video:height" content="1080">
      """
    #expect(
      extract(og).video
        == VideoCandidate(
          url: "https://example.com/v.mp4", type: "video/mp4", width: 1920, height: 1080, kind: .file))
    let twitter =
      "<meta name=twitter:player content=https://player.example/e/1><meta name=twitter:player:width content=480>"
    #expect(
      extract(twitter).video
        == VideoCandidate(url: "https://player.example/e/1", type: "text/html", width: 480, kind: .player))
    let youTube = extract("<title>x</title>", url: "https://youtu.be/dQw4w9WgXcQ?t=3")
    #expect(
      youTube.video
        == VideoCandidate(url: "https://www.youtube.com/embed/dQw4w9WgXcQ", type: "text/html", kind: .player))
    #expect(youTube.image?.url == "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg")
    let watch = extract("", url: "https://m.youtube.com/watch?feature=share&v=dQw4w9WgXcQ")
    #expect(watch.video?.url == "https://www.youtube.com/embed/dQw4w9WgXcQ")
    #expect(
      extract("", url: "https://www.youtube.com/shorts/abcdefghijk").video?.url
        == "https://www.youtube.com/embed/abcdefghijk")
    #expect(
      extract("", url: "https://vimeo.com/76979871").video?.url == "https://player.vimeo.com/video/76979871")
    #expect(extract("", url: "https://vimeo.com/channels/staffpicks").video == nil)
    #expect(extract("", url: "https://www.youtube.com/watch?v=short").video == nil)
  }

  @Test func oEmbedDiscovery() {
    let page = """
      <link rel="alternate" type="text/xml+oembed" href="/oembed.xml">
      <link rel="alternate" type="application/json+oembed" href="/oembed?url=a&amp;format=json">
      """
    #expect(extract(page).oembed == "https://www.example.com/oembed?url=a&format=json")
    #expect(
      extract("<link rel=alternate type=text/xml+oembed href=/o.xml>").oembed
        == "https://www.example.com/o.xml")
  }

  @Test func jsonLDGraphArraysNestingAndReferences() {
    let page = """
      <script type="application/ld+json">[{"@type":"BreadcrumbList","name":"Crumbs"},{"@context":"https://schema.org","@graph":[
        {"@type":"WebSite","name":"Site"},{"@type":["Thing","BlogPosting"],"headline":"Graph headline",
         "author":[{"@id":"#jane"}],"image":{"@id":"#img"},"datePublished":"2020-01-01"},
        {"@type":"Person","@id":"#jane","name":"Jane"},{"@type":"ImageObject","@id":"#img","contentUrl":"/img.jpg"}]}]</script>
      """
    let metadata = extract(page)
    #expect(metadata.title == "Graph headline")
    #expect(metadata.author == "Jane")
    #expect(metadata.image?.url == "https://www.example.com/img.jpg")
    #expect(metadata.publishedTime == "2020-01-01")
  }

  @Test func malformedJSONLDIsSkipped() {
    let page = """
      <script type="application/ld+json">{"@type":"Article","headline":"Broken",</script>
      <script type="application/ld+json">  <!-- {"@type":"Article","headline":"Lenient", "x": "tab\there",} --> </script>
      <title>Fallback</title>
      """
    #expect(extract(page).title == "Lenient")
    #expect(extract("<script type=application/ld+json>{{{{</script><title>T</title>").title == "T")
  }

  @Test func firstOccurrenceWins() {
    let page = """
      <meta property=og:title content=First><meta property=og:title content=Second>
      <title>One</title><title>Two</title><base href=/first/><base href=/second/>
      <meta property=og:image content=i.png><link rel=canonical href=/c1><link rel=canonical href=/c2>
      """
    let metadata = extract(page)
    #expect(metadata.title == "First")
    #expect(metadata.image?.url == "https://www.example.com/first/i.png")
    #expect(metadata.canonicalURL == "https://www.example.com/c1")
    #expect(extract("<title>One</title><title>Two</title>").title == "One")
  }

  @Test func baseHrefResolvesEveryURL() {
    let page = """
      <base href="https://static.example.com/assets/">
      <meta property="og:image" content="img/card.png"><link rel="icon" href="../icon.png" sizes="64x64">
      <link rel="alternate" type="application/json+oembed" href="oembed.json">
      """
    let metadata = extract(page)
    #expect(metadata.image?.url == "https://static.example.com/assets/img/card.png")
    #expect(metadata.icon?.url == "https://static.example.com/icon.png")
    #expect(metadata.oembed == "https://static.example.com/assets/oembed.json")
    #expect(metadata.icons?.last?.url == "https://www.example.com/favicon.ico")
    #expect(
      extract("<base href=/sub/><meta property=og:image content=a.png>").image?.url
        == "https://www.example.com/sub/a.png")
  }

  @Test func metasAndJSONLDInTheBodyCount() {
    let page = """
      <html><head><title>Head</title></head><body><div><p>text</p>
      <meta property="og:description" content="From the body">
      <script type="application/ld+json">{"@type":"Article","author":{"@type":"Person","name":"Body Author"}}</script>
      </div></body></html>
      """
    #expect(extract(page).description == "From the body")
    #expect(extract(page).author == "Body Author")
  }

  @Test func metasInsideTemplatesAndScriptsDoNotCount() {
    let page =
      "<template><meta property=og:title content=T></template><script>'<meta property=og:title content=S>'</script><title>R</title>"
    #expect(extract(page).title == "R")
  }

  @Test func authorTimesThemeColorTwitterCardTypeAndLang() {
    let page = """
      <html lang="fr-CA"><meta name="author" content="Ana"><meta property="article:published_time" content="2024-01-01T00:00:00Z">
      <meta property="article:modified_time" content="2024-02-01T00:00:00Z"><meta name="theme-color" content="#ff0000" media="(prefers-color-scheme: light)">
      <meta name="theme-color" content="#000000"><meta name="twitter:card" content="summary"><meta property="og:type" content="article">
      """
    let metadata = extract(page)
    #expect(metadata.author == "Ana")
    #expect(metadata.publishedTime == "2024-01-01T00:00:00Z")
    #expect(metadata.modifiedTime == "2024-02-01T00:00:00Z")
    #expect(metadata.themeColor == "#ff0000")
    #expect(metadata.twitterCard == "summary")
    #expect(metadata.type == "article")
    #expect(metadata.lang == "fr-CA")
    #expect(
      extract(
        "<meta property=article:author content=https://x.example/a><meta name=parsely-author content=Bo>"
      ).author == "Bo")
    #expect(extract("<meta property=og:locale content=pt_BR>").lang == "pt-BR")
  }

  @Test func unknownFieldsAreOmitted() {
    let metadata = extract("<p>nothing here</p>")
    #expect(metadata.title == nil)
    #expect(metadata.description == nil)
    #expect(metadata.image == nil)
    #expect(metadata.images == nil)
    #expect(metadata.video == nil)
    #expect(metadata.audio == nil)
    #expect(metadata.canonicalURL == nil)
  }
}
