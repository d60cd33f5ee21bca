import Foundation
import Testing
import ThumbifyFetchingTestSupport
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

/// The validator the output tests rely on, held to documents that must fail: a validator that
/// accepted everything would pass every output test.
@Suite("JSON Schema validator (the subset docs/*.schema.json use)")
struct JSONSchemaValidatorTests {
  static let schema = #"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "required": ["id", "kind"],
      "properties": {
        "id": { "type": "integer", "minimum": 1 },
        "kind": { "enum": ["a", "b"] },
        "version": { "const": 2 },
        "name": { "type": "string", "pattern": "^[a-z]+$", "minLength": 2, "maxLength": 4 },
        "when": { "type": "string", "format": "date-time" },
        "link": { "type": "string", "format": "uri" },
        "tags": { "type": "array", "items": { "$ref": "#/$defs/tag" } },
        "other": { "$ref": "other.schema.json#/$defs/flag" },
        "ratio": { "type": ["number", "null"] }
      },
      "additionalProperties": false,
      "$defs": { "tag": { "type": "object", "required": ["t"], "properties": { "t": { "type": "string" } } } }
    }
    """#
  static let other = #"{ "$defs": { "flag": { "type": "boolean" } } }"#

  let validator: JSONSchemaValidator

  init() throws {
    validator = try JSONSchemaValidator(schemas: [
      "main.schema.json": Self.schema, "other.schema.json": Self.other,
    ])
  }

  @Test func aValidDocumentPasses() {
    let document = #"""
      {"id": 3, "kind": "a", "version": 2, "name": "abc", "when": "2026-12-03T09:40:00Z",
       "link": "https://example.com/a", "tags": [{"t": "x"}], "other": true, "ratio": null}
      """#
    #expect(validator.errors(ofText: document, against: "main.schema.json") == [])
    #expect(
      validator.errors(ofText: #"{"id": 1, "kind": "b", "ratio": 0.5}"#, against: "main.schema.json") == [])
  }

  @Test(arguments: [
    (#"[]"#, "is not of type object"),
    (#"{"kind": "a"}"#, "the required member 'id' is missing"),
    (#"{"id": "1", "kind": "a"}"#, "is not of type integer"),
    (#"{"id": true, "kind": "a"}"#, "is not of type integer"),
    (#"{"id": 1.5, "kind": "a"}"#, "is not of type integer"),
    (#"{"id": 0, "kind": "a"}"#, "0 < 1"),
    (#"{"id": 1, "kind": "c"}"#, "is not one of"),
    (#"{"id": 1, "kind": "a", "version": 1}"#, "is not 2"),
    (#"{"id": 1, "kind": "a", "name": "ABC"}"#, "does not match"),
    (#"{"id": 1, "kind": "a", "name": "a"}"#, "shorter than 2"),
    (#"{"id": 1, "kind": "a", "name": "abcde"}"#, "longer than 4"),
    (#"{"id": 1, "kind": "a", "when": "yesterday"}"#, "is not a date-time"),
    (#"{"id": 1, "kind": "a", "when": "2026-12-03 09:40:00"}"#, "is not a date-time"),
    (#"{"id": 1, "kind": "a", "link": "no scheme here"}"#, "is not a URI"),
    (#"{"id": 1, "kind": "a", "tags": [{"t": "x"}, {}]}"#, "$.tags[1]: the required member 't' is missing"),
    (#"{"id": 1, "kind": "a", "other": 1}"#, "$.other: 1 is not of type boolean"),
    (#"{"id": 1, "kind": "a", "ratio": "1"}"#, "is not of type number or null"),
    (#"{"id": 1, "kind": "a", "extra": 1}"#, "the member 'extra' is not allowed"),
    (#"{"id": 1, "kind": "a""#, "not JSON"),
  ])
  func invalidDocumentsFail(_ document: String, expected: String) {
    let errors = validator.errors(ofText: document, against: "main.schema.json")
    #expect(errors.contains { $0.contains(expected) }, "\(errors)")
  }

  @Test func aSchemaSayingMoreThanTheValidatorChecksFails() throws {
    let unknown = try JSONSchemaValidator(schemas: [
      "s.schema.json": #"{"type": "object", "properties": {"a": {"type": "string", "oneOf": []}}}"#,
      "f.schema.json": #"{"type": "string", "format": "email"}"#,
      "r.schema.json": ##"{"$ref": "#/$defs/missing"}"##,
    ])
    #expect(
      unknown.errors(ofText: #"{"a": "x"}"#, against: "s.schema.json").contains { $0.contains("'oneOf'") })
    #expect(unknown.errors(ofText: #""a@b""#, against: "f.schema.json").contains { $0.contains("'email'") })
    #expect(unknown.errors(ofText: "1", against: "r.schema.json").contains { $0.contains("cannot resolve") })
    #expect(unknown.errors(ofText: "1", against: "nothing.schema.json") == ["no schema nothing.schema.json"])
  }

  /// The repository's schemas reject the shapes issue 21 replaced.
  @Test func theDocsSchemasRejectTheOldShapes() throws {
    let docs = try JSONSchemaValidator(directory: TestPaths.repository + "/docs")
    let version1 =
      #"{"metadata":{"originalURL":"https://a.test/","title":"A","url":"https://a.test/"},"normalizedURL":"https://a.test/","outcome":"ok","schema":1,"url":"https://a.test/"}"#
    let errors = docs.errors(ofText: version1, against: "manifest.schema.json")
    #expect(errors.contains("$: the required member 'originalURL' is missing"), "\(errors)")
    #expect(errors.contains("$.schema: 1 is not 2"))
    #expect(errors.contains("$.metadata: the member 'url' is not allowed"))
    let flatExtract = #"{"originalURL":"https://a.test/","title":"A","url":"https://a.test/"}"#
    #expect(docs.errors(ofText: flatExtract, against: "extract.schema.json").count >= 3)
    let problem = #"{"event":"problem","line":0,"originalURL":"x","outcome":"gone","code":"c"}"#
    #expect(docs.errors(ofText: problem, against: "log.schema.json#/$defs/problem").count == 3)
  }
}

/// Every JSON-printing command run for real (in process, against nginx on loopback), its output
/// validated against the schemas in docs/, and the URL vocabulary checked across commands.
@Suite("Every command's JSON output against docs/*.schema.json")
struct OutputSchemaTests {
  let docs: JSONSchemaValidator

  init() throws {
    docs = try JSONSchemaValidator(directory: TestPaths.repository + "/docs")
  }

  func expectValid(_ text: String, _ schema: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let errors = docs.errors(ofText: text, against: schema)
    #expect(errors.isEmpty, "\(schema): \(errors)\n\(text)", sourceLocation: sourceLocation)
  }

  func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// `value` as JSON with sorted keys: two objects compared member by member.
  static func canonical(_ value: Any?) throws -> String {
    let value = try #require(value)
    return String(
      decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
  }

  static func lines(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
  }

  @Test func extractCrawlCardsThumbAndLogLinesMatchTheirSchemas() async throws {
    let nginx = try await LoopbackNginx()
    defer { nginx.stop() }
    let photos = TestPaths.repository + "/samples/photos"
    try FileManager.default.copyItem(atPath: photos + "/storm.jpg", toPath: nginx.docroot.path + "/photo.jpg")
    try FileManager.default.copyItem(
      atPath: photos + "/freshflower-alpha.png", toPath: nginx.docroot.path + "/icon.png")
    // `/article` is a directory: nginx redirects it to `/article/` (a redirect to follow), and the page
    // declares a canonical URL elsewhere on its host.
    try FileManager.default.createDirectory(
      at: nginx.docroot.appendingPathComponent("article"), withIntermediateDirectories: true)
    let article = """
      <html lang=en><head><title>Storms</title><link rel=canonical href=/canonical/storms>
      <meta property=og:image content=/photo.jpg><meta property=og:image:alt content="Clouds">
      <meta name=description content="Dark clouds."><link rel=icon href=/icon.png sizes=32x32>
      <meta property=og:video content=/v.mp4><meta property=og:video:type content=video/mp4>
      <meta property=article:published_time content=2026-12-01></head></html>
      """
    try nginx.write("article/index.html", article)
    try nginx.write("plain.html", "<title>Plain</title><meta property=og:image content=/nothing.jpg>")
    let directory = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }

    // extract <url>: through the redirect.
    let asked = nginx.url("/article")
    let live = await runCLI(["extract", asked, "--allow-private-network", "--compact"])
    #expect(live.status == 0, "\(live.err)")
    expectValid(live.out, "extract.schema.json")
    let preview = try object(live.out)
    #expect(preview["originalURL"] as? String == asked)
    #expect(preview["url"] as? String == nginx.url("/canonical/storms"))
    #expect((preview["fetch"] as? [String: Any])?["finalURL"] as? String == nginx.url("/article/"))

    // extract --html, indented.
    let saved = directory + "/article.html"
    try article.write(toFile: saved, atomically: true, encoding: .utf8)
    let offline = await runCLI(["extract", "--html", saved, "--url", nginx.url("/article/")])
    #expect(offline.status == 0, "\(offline.err)")
    expectValid(offline.out, "extract.schema.json")
    #expect(try object(offline.out)["fetch"] == nil)
    #expect(try object(offline.out)["url"] as? String == nginx.url("/canonical/storms"))

    // crawl, JSON log: problems on stderr, the summary on stdout.
    let out = directory + "/out"
    let list = directory + "/urls.txt"
    try [asked, nginx.url("/plain.html"), nginx.url("/missing.html"), "not a url"].joined(separator: "\n")
      .write(toFile: list, atomically: true, encoding: .utf8)
    let crawl = await runCLI(["crawl", list, "--out", out, "--allow-private-network", "--log-format", "json"])
    #expect(crawl.status == 1, "one URL fails: \(crawl.err)")
    let logLines = Self.lines(crawl.err) + Self.lines(crawl.out)
    #expect(logLines.count >= 3, "two problems and the summary: \(logLines)")
    for line in logLines {
      expectValid(line, "log.schema.json")
      let event = try object(line)["event"] as? String ?? ""
      if ["problem", "summary"].contains(event) { expectValid(line, "log.schema.json#/$defs/\(event)") }
    }
    #expect(Self.lines(crawl.out).contains { $0.contains(#""event":"summary""#) })

    let manifest = Self.lines(try String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8))
    #expect(manifest.count == 3)
    for line in manifest { expectValid(line, "manifest.schema.json") }
    // One vocabulary: the crawl's record of the URL says what `extract` said of it.
    let record = try object(manifest[0])
    #expect(record["originalURL"] as? String == asked)
    #expect(record["url"] as? String == preview["url"] as? String)
    #expect(
      (record["fetch"] as? [String: Any])?["finalURL"] as? String
        == (preview["fetch"] as? [String: Any])?["finalURL"] as? String)
    #expect(try Self.canonical(record["metadata"]) == Self.canonical(preview["metadata"]))
    #expect((record["image"] as? [String: Any]) != nil, "the image was made: \(manifest[0])")

    let cards = try FileManager.default.contentsOfDirectory(atPath: out + "/cards").filter {
      $0.hasSuffix(".json")
    }
    #expect(cards.count == 3)
    for name in cards {
      let text = try String(contentsOfFile: out + "/cards/" + name, encoding: .utf8)
      expectValid(text, "cards.schema.json")
      let card = try object(text)
      if card["normalizedURL"] as? String == asked {
        #expect(
          card["url"] as? String == record["url"] as? String, "a card links where its record's url leads")
      }
    }

    // thumb: a crawl's record per input.
    let thumbs = directory + "/thumbs"
    let thumb = await runCLI([
      "thumb", photos + "/storm.jpg", photos + "/ladybird.webp", directory + "/missing.png", "--out", thumbs,
      "--variant", "a=120x120,cover,jpeg", "--variant", "b=60x60,png",
    ])
    #expect(thumb.status == 1)
    let thumbManifest = Self.lines(try String(contentsOfFile: thumbs + "/manifest.jsonl", encoding: .utf8))
    #expect(thumbManifest.count == 3)
    for line in thumbManifest { expectValid(line, "manifest.schema.json") }
  }

  /// Issue 19: a page declaring a canonical URL on another host (credentials and all) and an audio
  /// file gets the same answer from `extract <url>`, `extract --html`, the crawl's manifest record and
  /// its card: the canonical URL as declared, credentials removed, in `canonicalURL`; the link (`url`)
  /// where the page was read; `audio` with its https URL and type.
  @Test func aCanonicalURLOnAnotherHostAndAudioReadTheSameEverywhere() async throws {
    let nginx = try await LoopbackNginx()
    defer { nginx.stop() }
    let page = """
      <html lang=en><head><title>Syndicated storms</title>
      <link rel=canonical href="https://editor:secret@origin.example/stories/storms?ref=feed">
      <meta property=og:url content=/syndicated.html>
      <meta property=og:audio content=/audio/storms.mp3><meta property=og:audio:type content=audio/mpeg>
      </head></html>
      """
    try nginx.write("syndicated.html", page)
    let directory = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let pageURL = nginx.url("/syndicated.html")
    let canonical = "https://origin.example/stories/storms?ref=feed"
    let audio = ["type": "audio/mpeg", "url": nginx.url("/audio/storms.mp3"), "kind": "file"]

    let live = await runCLI(["extract", pageURL, "--allow-private-network", "--compact"])
    #expect(live.status == 0, "\(live.err)")
    expectValid(live.out, "extract.schema.json")
    let preview = try object(live.out)
    #expect(preview["url"] as? String == pageURL)
    #expect((preview["metadata"] as? [String: Any])?["canonicalURL"] as? String == canonical)
    #expect((preview["metadata"] as? [String: Any])?["audio"] as? [String: String] == audio)

    let saved = directory + "/syndicated.html"
    try page.write(toFile: saved, atomically: true, encoding: .utf8)
    let offline = await runCLI(["extract", "--html", saved, "--url", pageURL, "--compact"])
    #expect(offline.status == 0, "\(offline.err)")
    expectValid(offline.out, "extract.schema.json")
    let offlinePreview = try object(offline.out)
    #expect(offlinePreview["url"] as? String == pageURL)
    #expect(try Self.canonical(offlinePreview["metadata"]) == Self.canonical(preview["metadata"]))

    let out = directory + "/out"
    let list = directory + "/urls.txt"
    try pageURL.write(toFile: list, atomically: true, encoding: .utf8)
    let crawl = await runCLI(["crawl", list, "--out", out, "--allow-private-network", "--quiet"])
    #expect(crawl.status == 0, "\(crawl.err)")
    let manifest = Self.lines(try String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8))
    #expect(manifest.count == 1)
    for line in manifest { expectValid(line, "manifest.schema.json") }
    let record = try object(try #require(manifest.first))
    #expect(record["url"] as? String == pageURL)
    #expect(try Self.canonical(record["metadata"]) == Self.canonical(preview["metadata"]))

    let cards = try FileManager.default.contentsOfDirectory(atPath: out + "/cards").filter {
      $0.hasSuffix(".json")
    }
    #expect(cards.count == 1)
    let cardText = try String(contentsOfFile: out + "/cards/" + (try #require(cards.first)), encoding: .utf8)
    expectValid(cardText, "cards.schema.json")
    let card = try object(cardText)
    #expect(card["url"] as? String == pageURL)
    #expect(card["canonicalURL"] as? String == canonical)
    #expect(card["audio"] as? [String: String] == audio)
  }
}
