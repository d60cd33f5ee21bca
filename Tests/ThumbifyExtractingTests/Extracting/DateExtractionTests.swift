import Testing
import ThumbifyExtracting
import ThumbifySystemTestSupport

/// `publishedTime` / `modifiedTime` from every source a page states them in, and their precedence
/// (docs/metadata.md, Dates). The clock is fixed at `dateTestNow` (2026-12-03T09:45:00Z).
@Suite("Date extraction", .offThePool)
struct DateExtractionTests {
  private func extract(_ body: String, head: String = "", url: String = ExtractingTestSupport.pageURL)
    -> PageMetadata
  {
    let html = "<!doctype html><html><head><title>T</title>\(head)</head><body>\(body)</body></html>"
    return MetadataExtractor(now: { dateTestNow }).extract(
      html: Array(html.utf8), pageURL: url, contentType: nil)
  }

  private func jsonLD(_ json: String) -> String { #"<script type="application/ld+json">\#(json)</script>"# }

  // MARK: - Sources

  @Test func openGraphMetas() {
    let metadata = extract(
      "",
      head: #"""
        <meta property="article:published_time" content="Thu, May 13 2021 14:01:31 EDT">
        <meta property="article:modified_time" content="2021-05-14T09:00:00+02:00">
        """#)
    #expect(metadata.publishedTime == "2021-05-13T14:01:31-04:00")
    #expect(metadata.publishedTimeText == nil)
    #expect(metadata.modifiedTime == "2021-05-14T09:00:00+02:00")
  }

  @Test func otherMetas() {
    #expect(
      extract("", head: #"<meta name="pubdate" content="June 04, 2020 1:32 pm PDT">"#).publishedTime
        == "2020-06-04T13:32:00-07:00")
    #expect(
      extract("", head: #"<meta name="DC.date.issued" content="24.05.2016">"#).publishedTime == "2016-05-24")
    #expect(
      extract("", head: #"<meta name="citation_publication_date" content="2016/05/24">"#).publishedTime
        == "2016-05-24")
    #expect(
      extract("", head: #"<meta name="parsely-pub-date" content="1620928891">"#).publishedTime
        == "2021-05-13T18:01:31Z")
    #expect(
      extract("", head: #"<meta itemprop="dateModified" content="2016-05-25">"#).modifiedTime == "2016-05-25")
    #expect(
      extract("", head: #"<meta http-equiv="last-modified" content="Tue, 24 May 2016 05:55:00 GMT">"#)
        .modifiedTime
        == "2016-05-24T05:55:00Z")
  }

  @Test func jsonLDPrimaryNode() {
    let metadata = extract(
      jsonLD(
        #"{"@context":"https://schema.org","@type":"NewsArticle","datePublished":"2021-05-13T14:01:31-04:00","dateModified":"2021-05-13T20:00:00Z"}"#
      ))
    #expect(metadata.publishedTime == "2021-05-13T14:01:31-04:00")
    #expect(metadata.modifiedTime == "2021-05-13T20:00:00Z")
  }

  @Test func jsonLDGraphAndNestedMainEntity() {
    let graph = extract(
      jsonLD(
        #"{"@graph":[{"@type":"WebSite","name":"S"},{"@type":"WebPage","dateModified":"2020-01-02"},{"@type":"BlogPosting","datePublished":"2020-01-01T08:00:00+01:00"}]}"#
      ))
    #expect(graph.publishedTime == "2020-01-01T08:00:00+01:00")
    #expect(graph.modifiedTime == "2020-01-02")
    let main = extract(
      jsonLD(#"{"@type":"WebPage","mainEntity":{"@type":"Question","dateCreated":"2019-03-04T05:06:07Z"}}"#))
    #expect(main.publishedTime == "2019-03-04T05:06:07Z")
  }

  @Test func jsonLDUploadDateAndUnixNumbers() {
    #expect(
      extract(jsonLD(#"{"@type":"VideoObject","uploadDate":"2018-07-01"}"#)).publishedTime == "2018-07-01")
    #expect(
      extract(jsonLD(#"{"@type":"Article","datePublished":1620928891}"#)).publishedTime
        == "2021-05-13T18:01:31Z")
    #expect(
      extract(jsonLD(#"{"@type":"Article","datePublished":1620928891000}"#)).publishedTime
        == "2021-05-13T18:01:31Z")
    #expect(
      extract(jsonLD(#"{"@type":"Article","datePublished":["2017-01-01","2018-01-01"]}"#)).publishedTime
        == "2017-01-01")
  }

  @Test func microdataOnTimeSpanAndText() {
    #expect(
      extract(
        #"<div itemscope><time itemprop="datePublished" datetime="2021-05-13T18:01:31Z">May 13</time></div>"#
      )
      .publishedTime == "2021-05-13T18:01:31Z")
    #expect(
      extract(#"<span ITEMPROP="datePublished" content="2016-05-24">Tuesday</span>"#).publishedTime
        == "2016-05-24")
    #expect(
      extract(#"<p>By X, <span itemprop="datePublished">June 4, 2020 &nbsp;1:32&nbsp;pm EDT</span></p>"#)
        .publishedTime == "2020-06-04T13:32:00-04:00")
    let modified = extract(#"<span class=d itemprop="dateModified">Updated 2 Mar 2020</span>"#)
    #expect(modified.modifiedTime == "2020-03-02")
    #expect(modified.publishedTime == nil)
  }

  /// `<time pubdate>` is no structured source of its own (sidebars mark their teasers so): the
  /// date search reads it as any `<time>`, by where it stands.
  @Test func timePubdate() {
    let metadata = extract(#"<p>Intro</p><time pubdate datetime="2016-05-24T10:00Z">May</time>"#)
    #expect(metadata.publishedTime == "2016-05-24T10:00:00Z")
    #expect(metadata.publishedTimeSource == "time-element")
    #expect(extract(#"<time pubdate>4 June 2020</time>"#).publishedTime == "2020-06-04")
  }

  @Test func firstTimeInArticleOrHeader() {
    #expect(
      extract(
        #"<time datetime="2001-01-01">nav</time><article><h1>A</h1><time datetime="2016-05-24">x</time><time datetime="2016-06-01">y</time></article>"#
      ).publishedTime == "2016-05-24")
    #expect(extract(#"<header><time datetime="2015-02-03">x</time></header>"#).publishedTime == "2015-02-03")
    // Outside any article or header a bare <time> is no structured source: the whole-page search
    // finds it (DateSearchTests).
    let outside = extract(#"<article></article><time datetime="2016-05-24">x</time>"#)
    #expect(outside.publishedTime == "2016-05-24")
    #expect(outside.publishedTimeSource == "time-element")
  }

  @Test(arguments: [
    ("https://news.example.com/2016/05/24/story.html", "2016-05-24"),
    ("https://news.example.com/news/2016-05-24-story", "2016-05-24"),
    ("https://news.example.com/2016/05/24", "2016-05-24"),
    ("https://news.example.com/a/2016/05/24_story", "2016-05-24"),
    ("https://news.example.com/a/20160524/story", "2016-05-24"),
    ("https://news.example.com/x?date=2016/05/24/", "2016-05-24"),
    ("https://news.example.com/x?id=3&pubdate=2016-05-24", "2016-05-24"),
  ])
  func dateInTheURLPath(_ url: String, _ expected: String) {
    let metadata = extract("", url: url)
    #expect(metadata.publishedTime == expected)
    #expect(metadata.publishedTimeText == nil)
    #expect(metadata.publishedTimeSource == "url")
  }

  @Test(arguments: [
    "https://news.example.com/2016/05/story", "https://news.example.com/2016/13/24/story",
    "https://news.example.com/12016/05/24/x", "https://news.example.com/2016/05/245/x",
    "https://news.example.com/a/20161324/story", "https://news.example.com/2099/01/01/x",
    "https://news.example.com/1994/05/24/x",
  ])
  func noDateInTheURLPath(_ url: String) {
    #expect(extract("", url: url).publishedTime == nil)
  }

  // MARK: - Left out, text kept

  @Test(arguments: [
    "4/6/2016", "2016-13-01", "2016-04-31", "0001-01-01", "1989-06-01", "2026-12-05", "yesterday",
    "Wed, 24 May 2016 05:55:00 GMT",
  ])
  func ambiguousOrImpossibleIsLeftOutWithItsText(_ text: String) {
    let metadata = extract(
      "",
      head:
        #"<meta property="article:published_time" content="\#(text)"><meta property="og:updated_time" content="\#(text)">"#
    )
    #expect(metadata.publishedTime == nil)
    #expect(metadata.publishedTimeText == text)
    #expect(metadata.modifiedTime == nil)
    #expect(metadata.modifiedTimeText == text)
  }

  @Test func aTimeWithoutAZoneKeepsItsDateAndText() {
    let metadata = extract(
      "", head: #"<meta property="article:published_time" content="2021-05-13T14:01:31">"#)
    #expect(metadata.publishedTime == "2021-05-13")
    #expect(metadata.publishedTimeText == "2021-05-13T14:01:31")
  }

  @Test func anUnreadableFirstSourceYieldsToTheNextAndKeepsItsText() {
    let metadata = extract(
      jsonLD(#"{"@type":"Article","datePublished":"2016-05-24T05:55:00Z"}"#),
      head: #"<meta property="article:published_time" content="4/6/2016">"#)
    #expect(metadata.publishedTime == "2016-05-24T05:55:00Z")
    #expect(metadata.publishedTimeText == "4/6/2016")
  }

  @Test func theFutureIsJudgedByTheInjectedClock() {
    let html = Array(#"<meta property="article:published_time" content="2030-01-01">"#.utf8)
    let later = MetadataExtractor(now: { 1_900_000_000 }).extract(
      html: html, pageURL: "https://a.example/", contentType: nil)
    #expect(later.publishedTime == "2030-01-01")
    let today = MetadataExtractor(now: { dateTestNow }).extract(
      html: html, pageURL: "https://a.example/", contentType: nil)
    #expect(today.publishedTime == nil)
    #expect(today.publishedTimeText == "2030-01-01")
  }

  // MARK: - Precedence

  /// Every source on one page: each is removed in turn and the next one wins.
  @Test func precedence() {
    let sources = [
      ("og", #"<meta property="article:published_time" content="2020-01-01">"#, "2020-01-01"),
      ("jsonld", jsonLD(#"{"@type":"Article","datePublished":"2020-01-02"}"#), "2020-01-02"),
      ("meta", #"<meta name="dcterms.issued" content="2020-01-03">"#, "2020-01-03"),
      ("microdata", #"<span itemprop="datePublished" content="2020-01-04"></span>"#, "2020-01-04"),
      ("created", jsonLD(#"{"@type":"VideoObject","uploadDate":"2020-01-05"}"#), "2020-01-05"),
    ]
    let url = "https://news.example.com/2020/01/07/story"
    for skipped in 0...sources.count {
      // The sources in reverse document order, so the winner is never just the first one written.
      let body = sources.enumerated().filter { $0.offset >= skipped }.map(\.element.1).reversed().joined()
      let expected = skipped < sources.count ? sources[skipped].2 : "2020-01-07"
      #expect(extract(body, url: url).publishedTime == expected, "without the first \(skipped) sources")
    }
  }

  @Test func primaryJSONLDNodeComesFirst() {
    let metadata = extract(
      jsonLD(
        #"[{"@type":"WebPage","datePublished":"2019-01-01"},{"@type":"Article","datePublished":"2019-02-02"}]"#
      ))
    #expect(metadata.publishedTime == "2019-02-02")
  }

  @Test func templatesAreIgnored() {
    #expect(
      extract(#"<template><span itemprop="datePublished" content="2016-05-24"></span></template>"#)
        .publishedTime
        == nil)
  }
}
