import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyExtracting

@Suite("Public Suffix List", .offThePool)
struct PublicSuffixListTests {
  @Test(arguments: [
    ("www.example.com", "example.com"),
    ("a.b.c.example.com", "example.com"),
    ("example.com", "example.com"),
    ("example.com.", "example.com"),  // a trailing dot is the same name
    ("news.bbc.co.uk", "bbc.co.uk"),
    ("www.city.kobe.jp", "city.kobe.jp"),  // !city.kobe.jp, an exception to *.kobe.jp
    ("kobe.jp", "kobe.jp"),  // *.kobe.jp names what is under it, not kobe.jp (the PSL test vectors)
    ("a.b.kobe.jp", "a.b.kobe.jp"),  // *.kobe.jp: b.kobe.jp is a public suffix
    ("www.ck", "www.ck"),  // !www.ck, an exception to *.ck
    ("xn--bcher-kva.de", "xn--bcher-kva.de"),  // bücher.de, as normalized hosts spell it
    ("shop.xn--bcher-kva.de", "xn--bcher-kva.de"),
    ("www.example.xn--p1ai", "example.xn--p1ai"),  // .рф
    ("mysite.github.io", "github.io"),  // the private section is left out: github.io is one site
    ("x.y.example.test", "example.test"),  // an unknown TLD: the default rule
  ])
  func registrableDomains(host: String, expected: String) {
    #expect(PublicSuffixList.registrableDomain(of: host) == expected)
  }

  @Test(arguments: ["localhost", "co.uk", "uk", "b.kobe.jp", "foo.ck", "", ".", "a..com"])
  func hostsWithoutOne(host: String) {
    #expect(PublicSuffixList.registrableDomain(of: host) == nil)
  }

  /// The generated table has what the generator counted, and only normalized rules.
  @Test func generatedRules() {
    let rules = PublicSuffixRules.packed.split(separator: " ")
    #expect(rules.count == PublicSuffixRules.count)
    #expect(Set(rules).count == rules.count)
    #expect(rules.allSatisfy { $0.allSatisfy { $0.isASCII && !$0.isUppercase } })
    #expect(rules.contains("co.uk") && rules.contains("*.ck") && rules.contains("!www.ck"))
  }
}
