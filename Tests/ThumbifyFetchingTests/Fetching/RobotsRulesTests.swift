import Testing

@testable import ThumbifyFetching

@Suite("robots.txt rules (RFC 9309)")
struct RobotsRulesTests {
  static let text = """
    # comment
    User-agent: otherbot
    Disallow: /

    User-agent: Thumbify/1.0
    User-agent: friend
    Allow: /private/open   # more specific, wins
    Disallow: /private
    Disallow: /*.pdf$
    Disallow: /search*q=
    Crawl-delay: 2.5

    User-agent: *
    Disallow: /
    """

  @Test(arguments: [
    ("/", true), ("/private", false), ("/private/x", false), ("/private/open", true),
    ("/private/open/more", true), ("/doc.pdf", false), ("/doc.pdf?x=1", true), ("/search?a=1&q=x", false),
    ("/search?a=1", true), ("/robots.txt", true),
  ])
  func thumbifyGroupLongestMatchWins(path: String, allowed: Bool) {
    let rules = RobotsRules(parsing: Self.text)
    #expect(rules.allows(path) == allowed, "\(path)")
    #expect(rules.crawlDelay == 2.5)
  }

  @Test func otherCrawlersFallBackToStar() {
    let rules = RobotsRules(parsing: Self.text, userAgent: "somebot")
    #expect(!rules.allows("/anything"))
    #expect(rules.allows("/robots.txt"))
  }

  @Test func groupsForTheSameAgentMerge() {
    let rules = RobotsRules(
      parsing: "User-agent: thumbify\nDisallow: /a\n\nUser-agent: thumbify\nDisallow: /b\n")
    #expect(!rules.allows("/a"))
    #expect(!rules.allows("/b"))
    #expect(rules.allows("/c"))
  }

  @Test func equalLengthTieGoesToAllowAndEmptyDisallowAllowsAll() {
    #expect(RobotsRules(parsing: "User-agent: *\nDisallow: /page\nAllow: /page\n").allows("/page"))
    #expect(RobotsRules(parsing: "User-agent: *\nDisallow:\n").allows("/x"))
    #expect(
      RobotsRules(parsing: "Disallow: /orphan-rule-without-group\n").allows("/orphan-rule-without-group"))
  }

  @Test(arguments: [
    ("/*.php$", "/index.php", true), ("/*.php$", "/index.php5", false), ("/fish*", "/fish.html", true),
    ("/fish", "/Fish", false), ("/*/b/*/d", "/a/b/c/d", true), ("/a$", "/a", true), ("/a$", "/ab", false),
    ("*", "/anything", true), ("/x**y", "/xzzy", true),
  ])
  func wildcardsAndAnchors(pattern: String, path: String, matches: Bool) {
    #expect(RobotsRules.matches(Array(pattern.utf8), Array(path.utf8)) == matches)
  }

  @Test func truncatedBodyKeepsOnlyWholeLines() {
    let body = Array("User-agent: *\nDisallow: /a\nDisallow: /".utf8)
    #expect(RobotsCache.wholeLines(body, isTruncated: true) == "User-agent: *\nDisallow: /a\n")
    #expect(RobotsCache.wholeLines(body, isTruncated: false).hasSuffix("Disallow: /"))
  }
}
