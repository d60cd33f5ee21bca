// libFuzzer entry point for the robots.txt parser and matcher. Built by `scripts/fuzz robots`
// with ThumbifySystem and ThumbifyFetching as modules.
@testable import ThumbifyFetching

/// Parses one input as robots.txt, as the fetcher does with a body it got, and matches paths.
///
/// The body goes through `RobotsCache.wholeLines` (cut at the cap, when the input's first byte
/// is odd) and `RobotsRules(parsing:)` for the thumbify product token and for `*`-only crawlers;
/// the rules then match fixed paths and paths cut from the input itself, so the wildcard and `$`
/// matcher sees the patterns' own bytes. `Crawl-delay` goes through the fetcher's conversion to a
/// Duration, the one that trapped on `1e308` (issue 17, item 2).
@_cdecl("LLVMFuzzerTestOneInput")
public func robotsFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let text = RobotsCache.wholeLines(bytes, isTruncated: size > 0 && bytes[0] & 1 == 1)
  let paths = [
    "/", "/index.html", "/private/a", "/a/b.php?x=1", "/%7Euser/", "/page$", "/*", "",
  ]
  // Paths made of the input: its lines' values (what follows a colon), up to 256 bytes each.
  let derived = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).prefix(32).compactMap { line in
    line.firstIndex(of: ":").map { String(line[line.index(after: $0)...].prefix(256)) }
  }
  for userAgent in ["thumbify", "OtherBot"] {
    let rules = RobotsRules(parsing: text, userAgent: userAgent)
    check(rules.allows("/robots.txt"), "robots.txt itself is always allowed")
    if let delay = rules.crawlDelay {
      check(delay.isFinite && delay >= 0, "Crawl-delay \(delay) is kept only when finite and ≥ 0")
      let capped = CurlFetcher.crawlDelay(seconds: delay, cappedAt: .seconds(60))
      check(capped >= .zero && capped <= .seconds(60), "Crawl-delay \(delay) became \(capped)")
    }
    for path in paths + derived { _ = rules.allows(path) }
    // The same text parsed twice gives the same rules (the cache re-parses seeded bodies).
    check(RobotsRules(parsing: text, userAgent: userAgent) == rules, "parsing is not deterministic")
  }
  return 0
}

/// Traps (a crash libFuzzer reports with this input) when a promise is broken; unlike
/// `precondition`, `fatalError` keeps its message in an `-O` build.
private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("broken promise: \(message())") }
}
