import Foundation
import Testing
import ThumbifyExtracting
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// Issue 34, "Stops and guards that act first": after the first signal no request leaves the
/// process, counted at the server.
extension CrawlStopTests {
  /// Waits (polling, up to `limit` seconds: a bound for hangs, not a race) until `condition` holds;
  /// false, with an issue recorded, when it never did.
  func eventually(
    _ what: String, limit: Double = 120, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () throws -> Bool
  ) async throws -> Bool {
    do {
      try await waitUntil(what, limit: .seconds(limit), condition)
      return true
    } catch let error as WaitUntilError {
      Issue.record("\(error)", sourceLocation: sourceLocation)
      return false
    }
  }

  /// Whether the crawl writing to `out` logged its stop (`"event":"stopping"`): its stop has been
  /// asked for, the fetcher stopped before that line is written.
  func hasLoggedItsStop(_ out: String) -> Bool {
    ((try? String(contentsOfFile: out + ".log", encoding: .utf8)) ?? "").contains("\"event\":\"stopping\"")
  }

  @Test func noRequestIsSentAfterTheFirstSignal() async throws {
    // Given 20 pages of one host, held by the server until the test opens their gate, crawled by 8
    // workers and --per-host 2: two pages in flight, six waiting in the host's queue
    let prefix = "after-"
    let count = 20
    let list = root + "/after.txt"
    let lines = (0..<count).map { server.url("/hold?gate=after&bucket=\(prefix)\($0)") }
    try (lines.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
    let out = root + "/after"
    let victim = try start(list, out, concurrency: 8)
    guard await whenSignalsAreHandled(victim) else { return }
    // Both slots are taken. What the server has when the signal goes is what was sent before it: two
    // pages, or more on a machine so loaded that a held request met curl's 10 s low-speed abort first
    // and the next page went out (seen once in a fresh-clone CI run: 6).
    guard try await eventually("two requests at the server", { try server.stats(bucket: "all").count >= 2 })
    else {
      kill(victim.processIdentifier, SIGKILL)
      return
    }
    let sentBeforeTheSignal = try server.stats(bucket: "all").count
    let pagesBeforeTheSignal = try requestCounts(prefix: prefix, count: count).reduce(0, +)

    // When the crawl gets SIGINT, and then the pages in flight are answered (within the grace or after
    // it: either way nothing new may be sent)
    kill(victim.processIdentifier, SIGINT)
    guard try await eventually("the crawl logs its stop", { hasLoggedItsStop(out) }) else {
      kill(victim.processIdentifier, SIGKILL)
      return
    }
    try server.open(gate: "after")
    let status = await victim.exitStatus()

    // Then the server saw no request after the signal: not the queued pages, not the favicon of the
    // pages that finished
    let log = (try? String(contentsOfFile: out + ".log", encoding: .utf8)) ?? ""
    #expect(status == 130, "\(log)")
    #expect(try server.stats(bucket: "all").count == sentBeforeTheSignal, "\(log)")
    let stopped = try requestCounts(prefix: prefix, count: count)
    #expect(stopped.reduce(0, +) == pagesBeforeTheSignal)
    #expect(try readManifest(out).count <= pagesBeforeTheSignal)

    // And the rerun crawls the rest, each page once more at most
    #expect(try await start(list, out).exitStatus() == 0)
    #expect(try readManifest(out).count == count)
    let counts = try requestCounts(prefix: prefix, count: count)
    #expect(zip(stopped, counts).allSatisfy { before, after in after >= 1 && after - before <= 1 })
  }

  /// The card file of `url` in `out`, decoded, and its text.
  func card(of url: String, in out: String) throws -> (card: Card, text: String) {
    let path = out + "/cards/" + CardKey(normalizedURL: try URLNormalization.normalize(url)).fileName
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return (try JSONDecoder().decode(Card.self, from: Data(text.utf8)), text)
  }

  /// A page fetched before the stop, whose image and icon are still held by the server (in flight, or
  /// waiting behind `--per-host 1`), is kept as a card marked incomplete when the second signal or the
  /// end of the grace cancels them ("Stopped after 0 URLs" before); the next run completes it without
  /// fetching the page again.
  @Test(arguments: [(perHost: 1, signals: 2), (perHost: 2, signals: 2), (perHost: 2, signals: 1)])
  func aStopKeepsThePagesFetchedAsIncompleteCards(perHost: Int, signals: Int) async throws {
    // Given a page served at once whose image and icon the server holds until their gate opens
    let gate = "pictures-\(perHost)-\(signals)"
    let url = server.url("/gated-page?gate=\(gate)")
    let list = root + "/\(gate).txt"
    try (url + "\n").write(toFile: list, atomically: true, encoding: .utf8)
    let out = root + "/" + gate
    let victim = try start(list, out, perHost: perHost)
    guard await whenSignalsAreHandled(victim) else { return }
    let pictures = { () throws -> Int in
      try self.server.stats(bucket: "gated:\(gate):og").count
        + self.server.stats(bucket: "gated:\(gate):icon").count
    }
    guard try await eventually("the pictures asked for", { try pictures() >= perHost }) else {
      kill(victim.processIdentifier, SIGKILL)
      return
    }
    // What was sent before the signal (a loaded machine may have retried a held picture by now).
    let picturesAtTheSignal = try pictures()

    // When the crawl gets SIGINT, and a second one (or the 2 s grace ends)
    kill(victim.processIdentifier, SIGINT)
    if signals == 2 {
      guard try await eventually("the crawl logs its stop", { hasLoggedItsStop(out) }) else {
        kill(victim.processIdentifier, SIGKILL)
        return
      }
      kill(victim.processIdentifier, SIGINT)
    }
    let status = await victim.exitStatus()

    // Then the page is in the manifest and has its card, both marked incomplete, valid by their schemas
    let log = (try? String(contentsOfFile: out + ".log", encoding: .utf8)) ?? ""
    #expect(status == 130, "\(log)")
    #expect(try pictures() == picturesAtTheSignal, "a picture was sent after the signal")
    let stopped = try readManifest(out)
    #expect(stopped.count == 1, "\(log)")
    let record = try #require(stopped.first)
    #expect(record.outcome == .ok)
    #expect(record.metadata?.title == "Gated pictures")
    #expect(record.incomplete == ["image", "icon"])
    #expect(record.image == nil && record.icon == nil)
    #expect(record.imageError == nil && record.iconError == nil, "nothing failed: the stop cut them off")
    let stoppedCard = try card(of: url, in: out)
    #expect(stoppedCard.card.incomplete == ["image", "icon"])
    #expect(stoppedCard.card.title == "Gated pictures")
    let schemas = try JSONSchemaValidator(directory: TestPaths.repository + "/docs")
    let line = try String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8)
    #expect(schemas.errors(ofText: line, against: "manifest.schema.json") == [])
    #expect(schemas.errors(ofText: stoppedCard.text, against: "cards.schema.json") == [])
    let summary = try summary(out)
    #expect(summary["records"] as? Int == 1)
    #expect(summary["incomplete"] as? Int == 1)
    // It is not the URL's last good record, which a later run would take as fresh
    do {
      let state = try StateStore(path: OutputLayout(out, stateDirectory: out + ".state").stateDatabase)
      let page = try state.page(URLNormalization.normalize(url))
      #expect(page.good == nil)
      #expect(page.current?.incomplete == ["image", "icon"])
    }

    // When the pictures are served again and the crawl runs again
    try server.open(gate: gate)
    #expect(try await start(list, out, perHost: perHost).exitStatus() == 0)

    // Then the card is complete, made without fetching the page again
    let completed = try #require(try readManifest(out).first)
    #expect(completed.incomplete == nil)
    #expect(completed.image != nil && completed.icon != nil)
    #expect(completed.metadata?.title == "Gated pictures")
    let card = try card(of: url, in: out).card
    #expect(card.incomplete == nil)
    #expect(card.image != nil && card.icon != nil)
    #expect(try server.stats(bucket: "gated-page:\(gate)").count == 1)
    #expect(try pictures() == picturesAtTheSignal + 2)
    let rerun = try self.summary(out)
    #expect(rerun["resumed"] as? Bool == true)
    #expect(rerun["incomplete"] as? Int == 0)
    #expect(rerun["interrupted"] as? Bool == false)
  }

  /// An oEmbed endpoint waiting behind its host's limit at the signal is never sent: the page is kept
  /// with `oembed` incomplete, and the next run fetches the endpoint to complete it.
  @Test func anOEmbedEndpointQueuedAtTheSignalIsNotSent() async throws {
    // Given a page on another host declaring an endpoint on "localhost", whose only slot (--per-host 1)
    // a page held at the server takes
    let held = "http://localhost:\(server.port)/hold?gate=endpoint-host&bucket=endpoint-host"
    let endpoint = "http://localhost:\(server.port)/oembed?format=json"
    let escaped = try #require(endpoint.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
    let page = server.url("/oembed-page?endpoint=\(escaped)")
    let list = root + "/oembed.txt"
    try "\(held)\n\(page)\n".write(toFile: list, atomically: true, encoding: .utf8)
    let out = root + "/oembed"
    let victim = try start(list, out, perHost: 1)
    guard await whenSignalsAreHandled(victim) else { return }
    guard try await eventually("both pages asked", { try server.stats(bucket: "all").count >= 2 }) else {
      kill(victim.processIdentifier, SIGKILL)
      return
    }

    // When the crawl gets SIGINT, and the held page is answered once the crawl logged its stop
    kill(victim.processIdentifier, SIGINT)
    guard try await eventually("the crawl logs its stop", { hasLoggedItsStop(out) }) else {
      kill(victim.processIdentifier, SIGKILL)
      return
    }
    try server.open(gate: "endpoint-host")
    let log = (try? String(contentsOfFile: out + ".log", encoding: .utf8)) ?? ""
    #expect(await victim.exitStatus() == 130, "\(log)")

    // Then the endpoint was never asked, and the page (kept when it was read within the grace) lacks it
    #expect(try server.stats(bucket: "oembed:json").count == 0)
    let normalized = try URLNormalization.normalize(page)
    if let record = try readManifest(out).first(where: { $0.normalizedURL == normalized }) {
      #expect(record.incomplete?.contains("oembed") == true, "\(record)")
      #expect(record.oembedError == nil)
    }

    // When it runs again, the endpoint is fetched and the card is complete with what it gave
    #expect(try await start(list, out, perHost: 1).exitStatus() == 0)
    #expect(try server.stats(bucket: "oembed:json").count == 1)
    let record = try #require(try readManifest(out).first { $0.normalizedURL == normalized })
    #expect(record.incomplete == nil)
    #expect(record.oembedError == nil)
    #expect(record.metadata?.title == "A video page")
    #expect(record.metadata?.siteName == "Loopback Video")
  }
}
