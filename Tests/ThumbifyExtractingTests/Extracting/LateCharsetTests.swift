import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyExtracting

@Suite("Charset declarations past the prescan (change the encoding)", .offThePool)
struct LateCharsetTests {
  private typealias Support = ExtractingTestSupport
  private typealias Text = CharsetFixtureText

  /// What the page decodes to and the title and description it yields, from the bytes alone.
  private func extract(_ bytes: [UInt8], contentType: String? = nil) -> (
    DocumentDecoder.Decoded, PageMetadata
  ) {
    let (decoded, _) = bytes.withUnsafeBufferPointer {
      MetadataExtractor.collect($0, contentType: contentType)
    }
    return (
      decoded, MetadataExtractor().extract(html: bytes, pageURL: Support.pageURL, contentType: contentType)
    )
  }

  /// The decoding and the collected title after a given first decoding (as if detection had
  /// guessed `initial`).
  private func collect(_ bytes: [UInt8], from initial: DocumentDecoder.Decoded)
    -> (DocumentDecoder.Decoded, String?)
  {
    let (decoded, collector) = bytes.withUnsafeBufferPointer { MetadataExtractor.collect($0, from: initial) }
    return (decoded, collector.titleBytes.map { String(decoding: $0, as: UTF8.self) })
  }

  /// The windows-1252 fallback, which is what every undeclared non-UTF-8 page got before detection.
  private func fallback(_ bytes: [UInt8]) -> DocumentDecoder.Decoded {
    DocumentDecoder.Decoded(
      converted: bytes.withUnsafeBufferPointer(Windows1252.decode), encoding: .windows1252, source: .fallback,
      tentative: .windows1252)
  }

  /// A `<head>` that opens with more than 1024 bytes of script, so what follows is past the prescan.
  private let longScript =
    "<script>" + String(repeating: "window.dataLayer.push({event: 'view'});\n", count: 30)
    + "</script>"

  private func russianPage(head: String = "", body: String = "") -> String {
    "<!DOCTYPE html><html lang=ru><head>\(longScript)\(head)<title>\(Text.russian.title)</title>"
      + "<meta name=description content=\"\(Text.russian.description)\"></head><body>\(body)<p>"
      + "По данным Гидрометцентра, температура воздуха днём составит около пятнадцати градусов, а ночью "
      + "опустится до семи. Жителям столицы рекомендуют взять с собой зонт и одеться теплее.</p></body></html>"
  }

  @Test(arguments: [
    ("late-euc-jp.html", "EUC-JP", Text.japanese.title, Text.japanese.description),
    ("late-shift_jis.html", "Shift_JIS", Text.japanese.title, Text.japanese.description),
    ("late-gbk.html", "GBK", Text.chinese.title, Text.chinese.description),
  ])
  func lateDeclarationPageComesOutRight(
    _ file: String, _ encoding: String, _ title: String, _ description: String
  )
    throws
  {
    let bytes = try Support.fixture(file)
    // The fixture is what it claims: not UTF-8, and its declaration past the prescan's window.
    #expect(!UTF8Validator.validate(bytes.withUnsafeBufferPointer { $0 }).isValid)
    #expect(bytes.withUnsafeBufferPointer { CharsetPrescan.encoding(in: $0) } == nil)
    let declaration = try #require(bytes.firstRange(of: Array("charset".utf8)))
    #expect(declaration.lowerBound > CharsetPrescan.limit)

    let (decoded, metadata) = extract(bytes)
    #expect(decoded.encoding.name == encoding)
    #expect(metadata.title == title)
    #expect(metadata.description == description)
  }

  @Test(arguments: [
    ("late-euc-jp.html", "EUC-JP", Text.japanese.title),
    ("late-shift_jis.html", "Shift_JIS", Text.japanese.title),
    ("late-gbk.html", "GBK", Text.chinese.title),
  ])
  func lateDeclarationDecodesAgainFromTheStart(_ file: String, _ encoding: String, _ title: String) throws {
    let bytes = try Support.fixture(file)
    let (decoded, collectedTitle) = collect(bytes, from: fallback(bytes))
    #expect(decoded.source == .lateDeclaration)
    #expect(decoded.encoding.name == encoding)
    #expect(decoded.tentative == nil)
    #expect(collectedTitle == title)
  }

  @Test func lateDeclarationCorrectsAWrongGuess() throws {
    let bytes = try Support.fixture("late-euc-jp.html")
    let wrong = try #require(TextEncoding(label: "shift_jis"))
    let guess = DocumentDecoder.Decoded(
      converted: try #require(bytes.withUnsafeBufferPointer { IconvConverter.convert($0, from: "CP932") })
        .bytes,
      encoding: wrong, source: .detected, tentative: wrong)
    let (decoded, title) = collect(bytes, from: guess)
    #expect(decoded.encoding.name == "EUC-JP")
    #expect(title == Text.japanese.title)
  }

  @Test func httpHeaderCharsetIsNotOverriddenByALateDeclaration() throws {
    let bytes = try #require(Support.encode(russianPage(head: "<meta charset=koi8-r>"), to: "CP1251"))
    let (decoded, metadata) = extract(bytes, contentType: "text/html; charset=windows-1251")
    #expect(decoded.source == .httpHeader)
    #expect(decoded.encoding.name == "windows-1251")
    #expect(metadata.title == Text.russian.title)
    // Without the header the same declaration does change the encoding.
    #expect(extract(bytes).0.encoding.name == "KOI8-R")
  }

  @Test func byteOrderMarkIsNotOverriddenByALateDeclaration() {
    let page =
      "<html><head>\(longScript)<meta charset=euc-jp><title>\(Text.japanese.title)</title></head>"
      + "<body><p>\(Text.japanese.description)</p></body></html>"
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(page.utf8)
    let (decoded, metadata) = extract(bytes)
    #expect(decoded.source == .byteOrderMark)
    #expect(decoded.encoding == .utf8)
    #expect(metadata.title == Text.japanese.title)
  }

  @Test func declarationInTheBodyDoesNotChangeTheEncoding() throws {
    let inBody = try #require(Support.encode(russianPage(body: "<meta charset=koi8-r>"), to: "CP1251"))
    let (decoded, metadata) = extract(inBody)
    #expect(decoded.source == .detected)
    #expect(decoded.encoding.name == "windows-1251")
    #expect(metadata.title == Text.russian.title)
    // In <head>, the same declaration does.
    let inHead = try #require(Support.encode(russianPage(head: "<meta charset=koi8-r>"), to: "CP1251"))
    #expect(extract(inHead).0.source == .lateDeclaration)
  }

  @Test(arguments: ["<body>", "<article>", "<svg></svg>", "<iframe src=/ad></iframe>"])
  func bodyContentEndsTheWatch(_ element: String) throws {
    let bytes = try #require(
      Support.encode(russianPage(head: element + "<meta charset=koi8-r>"), to: "CP1251"))
    #expect(extract(bytes).0.encoding.name == "windows-1251")
  }

  @Test func firstDeclarationWinsAndDecodingHappensOnce() throws {
    var bytes = try Support.fixture("late-euc-jp.html")
    let meta = Array("<meta charset=\"euc-jp\">".utf8)
    let start = try #require(bytes.firstRange(of: meta))
    bytes.replaceSubrange(start, with: meta + Array("<meta charset=\"shift_jis\">".utf8))
    let (decoded, title) = collect(bytes, from: fallback(bytes))
    #expect(decoded.encoding.name == "EUC-JP")
    #expect(title == Text.japanese.title)
    // The new decoding is certain: nothing changes it again.
    let again = bytes.withUnsafeBufferPointer {
      DocumentDecoder.changingEncoding(of: decoded, to: .windows1252, bytes: $0)
    }
    #expect(again == nil)
  }

  @Test func unknownLabelIsPassedOverAndTheNextDeclarationCounts() throws {
    let bytes = try Support.fixture("late-euc-jp.html")
    var marked = bytes
    let meta = Array("<meta charset=\"euc-jp\">".utf8)
    let start = try #require(marked.firstRange(of: meta))
    marked.replaceSubrange(start, with: Array("<meta charset=\"klingon\">".utf8) + meta)
    let (decoded, title) = collect(marked, from: fallback(marked))
    #expect(decoded.encoding.name == "EUC-JP")
    #expect(title == Text.japanese.title)
    // Only the unknown label: the first decoding stays.
    var unknownOnly = bytes
    unknownOnly.replaceSubrange(start, with: Array("<meta charset=\"klingon\">".utf8))
    #expect(collect(unknownOnly, from: fallback(unknownOnly)).0.source == .fallback)
  }

  @Test func httpEquivDeclarationCounts() throws {
    let bytes = try #require(
      Support.encode(
        russianPage(head: "<meta http-equiv=Content-Type content=\"text/html; charset=koi8-r\">"),
        to: "CP1251"))
    #expect(extract(bytes).0.encoding.name == "KOI8-R")
    let noPragma = try #require(
      Support.encode(russianPage(head: "<meta content=\"text/html; charset=koi8-r\">"), to: "CP1251"))
    #expect(extract(noPragma).0.encoding.name == "windows-1251")
  }

  @Test func declarationNamingTheEncodingInUseChangesNothing() throws {
    let bytes = try #require(Support.encode(russianPage(head: "<meta charset=cp1251>"), to: "CP1251"))
    let (decoded, metadata) = extract(bytes)
    #expect(decoded.source == .detected)
    #expect(metadata.title == Text.russian.title)
    // A UTF-16 declaration means UTF-8, so a UTF-8 page declaring UTF-16 stays as it is.
    let utf8 = Array(russianPage(head: "<meta charset=utf-16le>").utf8)
    #expect(extract(utf8).0.source == .utf8Validity)
    #expect(extract(utf8).1.title == Text.russian.title)
  }

  @Test func utf16AndUserDefinedDeclarationsMeanUTF8AndWindows1252() throws {
    let bytes = try #require(Support.encode(russianPage(head: "<meta charset=utf-16>"), to: "CP1251"))
    #expect(extract(bytes).0.encoding == .utf8)
    let userDefined = try #require(
      Support.encode(russianPage(head: "<meta charset=x-user-defined>"), to: "CP1251"))
    #expect(extract(userDefined).0.encoding == .windows1252)
  }

  @Test func asciiPageIsNotDecodedAgain() {
    let bytes = Array(
      ("<html><head>\(longScript)<meta charset=windows-1251><title>Weather</title></head><body></body></html>")
        .utf8)
    let (decoded, metadata) = extract(bytes)
    #expect(decoded.source == .utf8Validity)
    #expect(metadata.title == "Weather")
  }

  @Test func truncatedPagesAfterTheDeclarationDecodeInTheDeclaredEncoding() throws {
    let bytes = try Support.fixture("late-euc-jp.html")
    let declarationEnd = try #require(bytes.firstRange(of: Array("<meta charset=\"euc-jp\">".utf8)))
      .upperBound
    let firstNonASCII = try #require(bytes.firstIndex { $0 >= 0x80 })
    for length in max(declarationEnd, firstNonASCII + 1)...bytes.count {
      let (decoded, collector) = Array(bytes.prefix(length)).withUnsafeBufferPointer {
        MetadataExtractor.collect($0, contentType: nil)
      }
      #expect(decoded.encoding.name == "EUC-JP", "cut at \(length)")
      // A title cut short is the start of the real one (up to a replaced partial character or
      // the start of a cut end tag).
      let title = String(decoding: collector.titleBytes ?? [], as: UTF8.self)
      let whole = title.prefix { $0 != "\u{FFFD}" && $0 != "<" }
      #expect(Text.japanese.title.hasPrefix(whole), "cut at \(length): \(title)")
    }
  }

  @Test func randomBytesWithAndWithoutLateDeclarationsGiveOneAnswer() {
    var generator = SplitMix(seed: 19)
    for round in 0..<200 {
      var bytes = (0..<Int(generator.next() % 4096)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      if round % 2 == 1 {
        let labels = [
          "euc-jp", "shift_jis", "gbk", "utf-16be", "x-user-defined", "klingon", "", "iso-2022-jp",
        ]
        let label = labels[Int(generator.next() % UInt64(labels.count))]
        let head = Array(("<head>" + longScript + "<meta charset=\"\(label)\">").utf8)
        bytes = head + bytes
      }
      let first = extract(bytes)
      let second = extract(bytes)
      #expect(first.0.encoding == second.0.encoding)
      #expect(first.0.source == second.0.source)
      #expect(first.1.title == second.1.title)
    }
  }
}
