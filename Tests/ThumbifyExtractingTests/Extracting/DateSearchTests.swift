import Testing
import ThumbifyExtracting
import ThumbifySystemTestSupport

/// The whole-page date search (`DateSearch`, docs/metadata.md, Dates): what it reads when no
/// structured source gives a publication date, how it scores, and what it leaves out. The clock is
/// `dateTestNow` (2026-12-03T09:45:00Z).
@Suite("Date search", .offThePool)
struct DateSearchTests {
  private func extract(
    _ body: String, lang: String? = nil, head: String = "", url: String = ExtractingTestSupport.pageURL
  ) -> PageMetadata {
    let langAttribute = lang.map { #" lang="\#($0)""# } ?? ""
    let html =
      "<!doctype html><html\(langAttribute)><head><title>T</title>\(head)</head><body>\(body)</body></html>"
    return MetadataExtractor(now: { dateTestNow }).extract(
      html: Array(html.utf8), pageURL: url, contentType: nil)
  }

  // MARK: - Sources

  @Test func timeElementAnywhere() {
    let metadata = extract(
      #"<div><p>Intro</p><time datetime="2019-04-03T10:00:00+02:00">3 April</time></div>"#)
    #expect(metadata.publishedTime == "2019-04-03T10:00:00+02:00")
    #expect(metadata.publishedTimeSource == "time-element")
  }

  @Test func timeElementText() {
    let metadata = extract(#"<p>By Jane</p><time>June 4, 2020</time><p>Body</p>"#)
    #expect(metadata.publishedTime == "2020-06-04")
    #expect(metadata.publishedTimeSource == "text")
  }

  @Test(arguments: [
    #"<span class="entry-date">June 4, 2020</span>"#,
    #"<div class="post-meta"><span>By Jane</span> <span>04.06.2020</span></div>"#,
    #"<p id="dateline">4 June 2020 &middot; London</p>"#,
    #"<div class="byline">Jane Doe <b>|</b> Jun. 4th, 2020</div>"#,
    #"<div class="article-date"><span>4</span> <span>June</span> <span>2020</span></div>"#,
  ])
  func elementsWhoseClassNamesADate(_ body: String) {
    let metadata = extract("<p>Some text with 12 numbers and 2019 in it.</p>" + body)
    #expect(metadata.publishedTime == "2020-06-04")
    #expect(metadata.publishedTimeSource == "text")
  }

  @Test func abbrPublished() {
    let metadata = extract(#"<abbr class="published" title="2020-06-04T10:00:00Z">June 4</abbr>"#)
    #expect(metadata.publishedTime == "2020-06-04T10:00:00Z")
    #expect(metadata.publishedTimeSource == "abbr")
  }

  @Test func theURLOutranksTheText() {
    let metadata = extract(
      "<p>Posted on June 9, 2020</p>", url: "https://news.example.com/2020/06/04/story/")
    #expect(metadata.publishedTime == "2020-06-04")
    #expect(metadata.publishedTimeSource == "url")
  }

  /// The URL says a day, whatever form its `date=` value takes: a Unix time in milliseconds or an
  /// ISO date-time there (a link builder's stamp) gives its calendar day, as a path's `/2009/06/08/`
  /// does (found by the `dates` fuzzer).
  @Test(arguments: [
    ("https://news.example.com/story?date=1244447442744", "2009-06-08"),
    ("https://news.example.com/story?pubdate=2009-06-08T07:50:42Z", "2009-06-08"),
    ("https://news.example.com/story?date=2009-06-08T23:50:00-05:00", "2009-06-08"),
  ])
  func aDateInTheQueryIsADay(_ url: String, _ day: String) {
    let metadata = extract("<p>Posted on June 9, 2020</p>", url: url)
    #expect(metadata.publishedTime == day)
    #expect(metadata.publishedTimeSource == "url")
  }

  @Test func structuredSourcesComeFirst() {
    let metadata = extract(
      #"<p>Posted on June 9, 2020</p><time datetime="2020-06-08">x</time>"#,
      head: #"<meta property="article:published_time" content="2020-06-04">"#,
      url: "https://news.example.com/2020/06/07/story/")
    #expect(metadata.publishedTime == "2020-06-04")
    #expect(metadata.publishedTimeSource == "meta")
  }

  // MARK: - Languages

  @Test(arguments: [
    ("en", "Posted on June 4, 2020 by Jane"),
    ("en", "Published: 4th June 2020"),
    ("de", "Veröffentlicht am 4. Juni 2020"),
    ("de", "Veröffentlicht am 04.06.2020, 10:12 Uhr"),
    ("fr", "Publié le 4 juin 2020 à 10h12"),
    ("es", "Publicado el 4 de junio de 2020"),
    ("it", "Pubblicato il 4 giugno 2020"),
    ("pt", "Publicado em 4 de junho de 2020"),
    ("nl", "Gepubliceerd op 4 juni 2020"),
    ("pl", "Opublikowano dnia 4 czerwca 2020"),
    ("ru", "Опубликовано от 4 июня 2020"),
    ("tr", "Yayınlanma: 4 Haziran 2020"),
    ("sv", "Publicerad 4 juni 2020"),
    ("da", "Publiceret 4. juni 2020"),
    ("no", "Publisert 4. juni 2020"),
    ("fi", "Julkaistu 4. kesäkuuta 2020"),
    ("cs", "Publikováno 4. června 2020"),
    ("de", "Veröffentlicht am 4/6/2020"),
    ("en-GB", "Posted 04/06/2020"),
    ("en-US", "Posted 06/04/2020"),
    (nil, "Posted 13/06/2020 and 2020-06-04"),
  ])
  func visibleTextInEachLanguage(_ lang: String?, _ text: String) {
    let metadata = extract("<p>Menu 2 3 4</p><p>\(text)</p><p>The story.</p>", lang: lang)
    let expected = text.contains("13/06") ? "2020-06-13" : "2020-06-04"
    #expect(metadata.publishedTime == expected, "\(lang ?? "-"): \(text)")
    #expect(metadata.publishedTimeSource == "text")
  }

  // MARK: - Left out

  @Test(arguments: [
    (nil, "Posted 4/6/2020"),  // Day or month first: unknown without a language.
    ("en", "Posted 4/6/2020"),  // `en` alone: US or not.
    ("de", "Veröffentlicht am 31. April 2019"),
    ("ru", "Опубликовано 30 февраля 2019"),
    ("en", "Posted on December 24, 2030"),  // After the clock.
    ("en", "Published on May 3, 1994"),  // Before 1995.
    ("en", "Posted 2020-13-04"),
    ("en", "Version 1.2.3, build 20200604x, call 555-1234-5678"),
  ])
  func ambiguousImpossibleAndImplausibleAreLeftOut(_ lang: String?, _ text: String) {
    let metadata = extract("<p>\(text)</p>", lang: lang)
    #expect(metadata.publishedTime == nil, "\(text)")
    #expect(metadata.publishedTimeSource == nil)
  }

  @Test func theOriginalPublicationWinsOverAnUpdate() {
    let metadata = extract("<p>Updated: June 10, 2020</p><p>Published: June 4, 2020</p>", lang: "en")
    #expect(metadata.publishedTime == "2020-06-04")
    let classes = extract(
      #"<span class="updated">June 10, 2020</span> <span class="published">June 4, 2020</span>"#, lang: "en")
    #expect(classes.publishedTime == "2020-06-04")
  }

  /// A page that says only when it was updated, in plain text, states no publication date (as a
  /// structured `dateModified` alone does not: DateExtractionTests); an update in an element that a
  /// date class or `<time>` vouches for still scores above zero and may be taken.
  @Test func anUpdateAloneInPlainTextIsNoPublicationDate() {
    #expect(extract("<p>Last updated on June 10, 2020</p>", lang: "en").publishedTime == nil)
  }

  @Test func otherPagesDatesInAsidesAndFootersLose() {
    let metadata = extract(
      "<aside><p>Posted on May 1, 2020</p></aside><article><p>May 3, 2020</p></article>"
        + "<footer>Posted on May 2, 2020</footer>")
    #expect(metadata.publishedTime == "2020-05-03")
  }

  @Test func theCopyrightYearBoundsTheDates() {
    let metadata = extract("<p>January 5, 2021</p><p>May 3, 2018</p><footer>© 2005–2019 Example</footer>")
    #expect(metadata.publishedTime == "2018-05-03")
    // Without the copyright line the first wins.
    #expect(extract("<p>January 5, 2021</p><p>May 3, 2018</p>").publishedTime == "2021-01-05")
  }

  @Test func theFutureIsJudgedByTheInjectedClock() {
    let html = Array("<p>Posted on June 4, 2030</p>".utf8)
    let later = MetadataExtractor(now: { 1_950_000_000 }).extract(
      html: html, pageURL: "https://a.example/", contentType: nil)
    #expect(later.publishedTime == "2030-06-04")
    let today = MetadataExtractor(now: { dateTestNow }).extract(
      html: html, pageURL: "https://a.example/", contentType: nil)
    #expect(today.publishedTime == nil)
  }

  @Test func scriptsStylesAndCommentsAreNotText() {
    let metadata = extract(
      "<script>var d = 'June 4, 2020';</script><style>/* June 4, 2020 */</style><!-- Posted June 4, 2020 -->"
        + "<p>Nothing here</p>")
    #expect(metadata.publishedTime == nil)
  }

  // MARK: - Text forms

  @Test(arguments: [
    ("Mittwoch, 3. April 2019", "2019-04-03"),
    ("Wednesday, April 3rd, 2019 at 10:00", "2019-04-03"),
    ("3&nbsp;avril&nbsp;2019", "2019-04-03"),
    ("2019/04/03", "2019-04-03"),
    ("Apr. 3, 2019", "2019-04-03"),
    ("03.04.2019 | 12:00", "2019-04-03"),
    ("3 ŞUBAT 2019", "2019-02-03"),
    ("3 Февраля 2019", "2019-02-03"),
    ("3 März 2019", "2019-03-03"),
  ])
  func textForms(_ text: String, _ expected: String) {
    #expect(extract(#"<p class="date">\#(text)</p>"#, lang: "de").publishedTime == expected, "\(text)")
  }

  @Test func hugeAndHostileTextStaysBounded() {
    let digits = String(repeating: "12.12.", count: 50_000) + String(repeating: "June ", count: 20_000)
    let metadata = extract(#"<p class="date">\#(digits)</p><p>\#(digits)</p>"#)
    #expect(metadata.publishedTime == nil)
  }

  // MARK: - Structured dates checked against the page

  @Test func aUTCDateTakesTheURLsLocalDay() {
    let metadata = extract(
      "<p>Text</p>", head: #"<meta property="article:published_time" content="2018-12-31T23:11:59+00:00">"#,
      url: "https://blog.example.com/2019/01/01/new-year/")
    #expect(metadata.publishedTime == "2019-01-01")
    #expect(metadata.publishedTimeSource == "url")
    #expect(metadata.publishedTimeText == "2018-12-31T23:11:59Z")
  }

  @Test func aUTCDateTakesTheSameInstantWithThePagesOffset() {
    let head = #"<meta property="article:published_time" content="2023-11-09T02:11:03+00:00">"#
    let offset = extract(
      #"<p>Related <time datetime="2023-11-07T12:00:00-05:00">x</time></p><time datetime="2023-11-08T21:11:03-05:00">Nov 8</time>"#,
      head: head)
    #expect(offset.publishedTime == "2023-11-08T21:11:03-05:00")
    #expect(offset.publishedTimeSource == "time-element")
    // A zoneless clock a whole number of hours off the same instant gives the offset.
    let zoneless = extract(#"<time datetime="2023-11-08 20:11:03">Nov 8</time>"#, head: head)
    #expect(zoneless.publishedTime == "2023-11-08T20:11:03-06:00")
    // Another structured source restating it with the page's offset.
    let restated = extract(
      "<p>Text</p>",
      head: head
        + #"<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2023-11-09T04:11:03+02:00"}</script>"#
    )
    #expect(restated.publishedTime == "2023-11-09T04:11:03+02:00")
  }

  @Test func aUTCDateStaysWhenNothingLocalContradictsIt() {
    // A teaser list's plain stamps (score below 40) are not the page's own date.
    let teasers = extract(
      "<ul><li>Other story</li><li>19.08.2020</li></ul>",
      lang: "de", head: #"<meta property="article:published_time" content="2020-08-18T19:35:33Z">"#)
    #expect(teasers.publishedTime == "2020-08-18T19:35:33Z")
    #expect(teasers.publishedTimeSource == "meta")
    // At 10:04 UTC the day before is west of -10:00: the URL's day is when the slug was made.
    let morning = extract(
      "<p>Text</p>", head: #"<meta property="article:published_time" content="2020-07-09T10:04:04Z">"#,
      url: "https://news.example.com/2020/07/08/story/")
    #expect(morning.publishedTime == "2020-07-09T10:04:04Z")
  }

  @Test func datePublishedAnywhereComesBeforeAVideosUploadDate() {
    let metadata = extract(
      #"<meta itemprop="datePublished" content="2020-09-30T02:00:07-07:00">"#,
      head:
        #"<script type="application/ld+json">{"@type":"VideoObject","uploadDate":"2020-09-29T22:40:00-07:00"}</script>"#
    )
    #expect(metadata.publishedTime == "2020-09-30T02:00:07-07:00")
  }

  @Test func aGenericDateMetaLosesToTheBylinesDate() {
    let head = #"<meta name="date" content="2020-02-12">"#
    let byline = extract(
      #"<article><div class="news-date"><time datetime="2020-02-05">05.02.2020</time></div></article>"#,
      lang: "de", head: head)
    #expect(byline.publishedTime == "2020-02-05")
    #expect(byline.publishedTimeSource == "time-element")
    // A date in running text does not outrank it.
    let prose = extract("<p>Die Regel vom 3. März 2019 gilt.</p>", lang: "de", head: head)
    #expect(prose.publishedTime == "2020-02-12")
    #expect(prose.publishedTimeSource == "meta")
  }

  // MARK: - Where a date stands

  @Test func aDateStandingAloneBeatsOneInASentence() {
    let metadata = extract(
      "<p>The law of 3 March 2019 changed it all.</p><p><em>4 June 2020</em></p>", lang: "en-GB")
    #expect(metadata.publishedTime == "2020-06-04")
  }

  @Test func aDateInTheTitleCounts() {
    let metadata = extract(
      "<h1>Zuschauer kehren zurück<br><small>02.02.2022</small></h1>"
        + "<p>Laut der am 28.01.2022 in Kraft getretenen Verordnung</p>", lang: "de")
    #expect(metadata.publishedTime == "2022-02-02")
  }

  @Test func readersCommentsDatesLose() {
    let metadata = extract(
      #"<article><p>Jane, on December 14, 2015</p></article><div class="comment-meta">December 15, 2015 at 11:21</div>"#,
      lang: "en")
    #expect(metadata.publishedTime == "2015-12-14")
  }

  @Test func aTwoDigitYearIsReadOnlyAsAStamp() {
    let stamp = extract(#"<div class="article-meta">Von: Jane <span>31.10.23</span></div>"#, lang: "de")
    #expect(stamp.publishedTime == "2023-10-31")
    #expect(
      extract("<p>Die Version 10.12.19 ist erschienen und läuft gut.</p>", lang: "de").publishedTime == nil)
    #expect(extract("<p>Stand: <b>10.12.99</b></p>", lang: "de").publishedTime == "1999-12-10")
  }

  @Test(arguments: [
    ("ja", "2020年07月12日", "2020-07-12"),
    ("zh", "发布于 2020年7月3日 10:00", "2020-07-03"),
    ("ko", "2020년 7월 3일", "2020-07-03"),
    ("ja", "2020年13月1日", nil),
    ("ja", "2020年7月32日", nil),
    ("ja", "2020年7月", nil),
    ("ko", "2020년 7월 3", nil),
    ("ja", "12020年7月3日", nil),
  ])
  func chineseJapaneseAndKoreanDates(_ lang: String, _ text: String, _ expected: String?) {
    let metadata = extract(#"<span class="entry-date">\#(text)</span>"#, lang: lang)
    #expect(metadata.publishedTime == expected, "\(text)")
  }

  @Test(arguments: [
    ("ar", "الأربعاء، 07 أكتوبر 2020 - 12:09 م", "2020-10-07"),
    ("ar", "نشر في 3 اكتوبر 2019", "2019-10-03"),
    ("ar", "3 حزيران 2019", "2019-06-03"),
    ("ar", "15 آب 2018", "2018-08-15"),
    ("ar", "1 يونيه 2017", "2017-06-01"),
    ("ar", "07 أكتوبرر 2020", nil),
    ("ar", "32 أكتوبر 2020", nil),
    ("ar", "أكتوبر", nil),
  ])
  func arabicDates(_ lang: String, _ text: String, _ expected: String?) {
    let metadata = extract(#"<span class="entry-date">\#(text)</span>"#, lang: lang)
    #expect(metadata.publishedTime == expected, "\(text)")
  }

  /// Found by `scripts/fuzz datesearch`: a copyright line's digit run longer than an Int trapped.
  @Test func aCopyrightLinesEndlessNumberIsNoYear() {
    let digits = String(repeating: "5", count: 40)
    let metadata = extract("<p>May 3, 2018</p><footer>© 2005\(digits)–2019 Example</footer>", lang: "en")
    #expect(metadata.publishedTime == "2018-05-03")
  }

  @Test func theHTTPLastModifiedBoundsTheDates() {
    let html = Array(
      "<!doctype html><html lang=en><head><title>T</title></head><body><p>Posted on June 4, 2020</p></body></html>"
        .utf8)
    let extractor = MetadataExtractor(now: { dateTestNow })
    func published(_ lastModified: String?) -> String? {
      extractor.extract(
        html: html, pageURL: ExtractingTestSupport.pageURL, contentType: nil, lastModified: lastModified
      ).publishedTime
    }
    #expect(published("Mon, 01 Jun 2020 10:00:00 GMT") == nil)
    #expect(published("Fri, 05 Jun 2020 10:00:00 GMT") == "2020-06-04")
    #expect(published("Wed, 03 Jun 2020 10:00:00 GMT") == "2020-06-04")  // Within the day's allowance.
    #expect(published("not a date") == "2020-06-04")
    #expect(published(nil) == "2020-06-04")
    // A structured date after it is left out too, its text kept.
    let structured = extractor.extract(
      html: Array(#"<meta property="article:published_time" content="2020-06-04T10:00:00Z">"#.utf8),
      pageURL: ExtractingTestSupport.pageURL, contentType: nil, lastModified: "Mon, 01 Jun 2020 10:00:00 GMT")
    #expect(structured.publishedTime == nil)
    #expect(structured.publishedTimeText == "2020-06-04T10:00:00Z")
  }

  /// Found by `scripts/fuzz datesearch`: an impossible zoneless clock (hour 25) an hour off a UTC date
  /// was taken as its local form, and written out as `2020-06-03T25:30:00-01:00`.
  @Test func anImpossibleClockIsNoLocalForm() {
    let metadata = extract(
      #"<time datetime="2020-06-03 25:30:00">x</time>"#,
      head: #"<meta property="article:published_time" content="2020-06-04T02:30:00Z">"#)
    #expect(metadata.publishedTime == "2020-06-04T02:30:00Z")
  }
}
