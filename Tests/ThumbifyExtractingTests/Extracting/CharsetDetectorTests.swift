import CUchardet
import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyExtracting

/// The text of the pages `scripts/generate-charset-fixtures` writes with Python's codecs.
enum CharsetFixtureText {
  static let japanese = (
    title: "楽天市場：季節の野菜と果物を産地から直送",
    description: "全国の農家から届いた旬の野菜や果物を、毎日お得な価格でお届けします。"
  )
  static let chinese = (
    title: "上海天气预报：本周末将迎来降雨", description: "市气象台预计，本周六起本市将出现明显降雨，气温也会随之下降。"
  )
  static let korean = (
    title: "서울 날씨: 이번 주말 전국에 비 소식", description: "기상청은 토요일 오후부터 전국 대부분 지역에 비가 내릴 것으로 예보했다."
  )
  static let russian = (
    title: "Погода в Москве: на выходных ожидаются дожди",
    description: "Синоптики обещают пасмурную погоду и небольшие осадки в субботу и воскресенье."
  )
}

@Suite("Statistical detection of undeclared charsets (uchardet)", .offThePool)
struct CharsetDetectorTests {
  private typealias Support = ExtractingTestSupport
  private typealias Text = CharsetFixtureText

  private func decode(_ bytes: [UInt8]) -> DocumentDecoder.Decoded {
    bytes.withUnsafeBufferPointer { DocumentDecoder.decode($0, contentType: nil) }
  }

  @Test(arguments: [
    ("undeclared-shift_jis.html", "Shift_JIS", Text.japanese.title, Text.japanese.description),
    ("undeclared-euc-kr.html", "EUC-KR", Text.korean.title, Text.korean.description),
    ("undeclared-windows-1251.html", "windows-1251", Text.russian.title, Text.russian.description),
    ("undeclared-gbk.html", "gb18030", Text.chinese.title, Text.chinese.description),
  ])
  func undeclaredPageComesOutRight(_ file: String, _ encoding: String, _ title: String, _ description: String)
    throws
  {
    let bytes = try Support.fixture(file)
    // Nothing declares the encoding and the bytes are not UTF-8: only detection can find it.
    #expect(!UTF8Validator.validate(bytes.withUnsafeBufferPointer { $0 }).isValid)
    #expect(bytes.withUnsafeBufferPointer { CharsetPrescan.encoding(in: $0) } == nil)
    #expect(bytes.firstRange(of: Array("charset".utf8)) == nil)

    let decoded = decode(bytes)
    #expect(decoded.source == .detected)
    #expect(decoded.encoding.name == encoding)
    #expect(decoded.tentative?.name == encoding)
    let metadata = MetadataExtractor().extract(html: bytes, pageURL: Support.pageURL, contentType: nil)
    #expect(metadata.title == title)
    #expect(metadata.description == description)
  }

  @Test func sampleStartsAtTheFirstNonASCIIByte() throws {
    // A head of ASCII script longer than the sample, then the text: still found.
    let bytes = try Support.fixture("undeclared-shift_jis.html")
    let head = try #require(bytes.firstRange(of: Array("<head>".utf8))).upperBound
    let script = Array(
      ("<script>" + String(repeating: "var a = [1, 2, 3];\n", count: CharsetDetector.sampleLimit / 8)
        + "</script>").utf8)
    var padded = bytes
    padded.insert(contentsOf: script, at: head)
    #expect(padded.count > 2 * CharsetDetector.sampleLimit)
    #expect(decode(padded).encoding.name == "Shift_JIS")
    #expect(
      MetadataExtractor().extract(html: padded, pageURL: Support.pageURL, contentType: nil).title
        == Text.japanese.title)
  }

  @Test func answerThumbifyCannotDecodeFallsBackToWindows1252() throws {
    // uchardet knows EUC-TW; the WHATWG Encoding Standard (and so thumbify) does not.
    let text =
      "<html><head><title>臺北市天氣預報：週末將有豪雨</title></head><body><p>中央氣象局表示，受到鋒面影響，"
      + "週六起北部地區將出現明顯降雨，民眾外出請攜帶雨具，並注意交通安全。氣溫也會隨之下降，早晚溫差較大。</p></body></html>"
    let bytes = try #require(Support.encode(text, to: "EUC-TW"))
    #expect(bytes.withUnsafeBufferPointer(CharsetDetector.encoding(of:)) == nil)
    let decoded = decode(bytes)
    #expect(decoded.source == .fallback)
    #expect(decoded.encoding == .windows1252)
  }

  @Test func noAnswerFallsBackToWindows1252() {
    // Two stray bytes are too little to go on (an unterminated title runs to the end).
    let bytes = Array("<title>".utf8) + [0x80, 0x81]
    #expect(uchardetAnswer(bytes) == "")
    #expect(bytes.withUnsafeBufferPointer(CharsetDetector.encoding(of:)) == nil)
    #expect(decode(bytes).source == .fallback)
    #expect(
      MetadataExtractor().extract(html: bytes, pageURL: Support.pageURL, contentType: nil).title == "€\u{81}")
  }

  @Test func utf16AnswerIsRefused() {
    // NUL bytes make uchardet guess UTF-16; without a byte order mark a page is never read so.
    let bytes = Array("<p>".utf8) + [0xFF, 0xFE, 0x00, 0x01, 0x80, 0x81] + Array(" abc".utf8)
    #expect(uchardetAnswer(bytes) == "UTF-16")
    #expect(bytes.withUnsafeBufferPointer(CharsetDetector.encoding(of:)) == nil)
    #expect(decode(bytes).encoding == .windows1252)
  }

  /// What uchardet itself answers for the bytes from the first non-ASCII one, as `CharsetDetector` feeds it.
  private func uchardetAnswer(_ bytes: [UInt8]) -> String? {
    guard let detector = uchardet_new(), let start = bytes.firstIndex(where: { $0 >= 0x80 }) else {
      return nil
    }
    defer { uchardet_delete(detector) }
    let sample = bytes[start...].map { CChar(bitPattern: $0) }
    _ = uchardet_handle_data(detector, sample, sample.count)
    uchardet_data_end(detector)
    return uchardet_get_charset(detector).map { String(cString: $0) }
  }

  @Test func utf8CutInTheMiddleOfACharacterIsDetectedAsUTF8() throws {
    // A page cut at the body limit ends inside a character; the rest is still UTF-8.
    let page = "<title>\(Text.russian.title)</title><p>\(Text.russian.description)</p><p>Дождь"
    let bytes = Array(Array(page.utf8).dropLast())
    #expect(!UTF8Validator.validate(bytes.withUnsafeBufferPointer { $0 }).isValid)
    let decoded = decode(bytes)
    #expect(decoded.encoding == .utf8)
    #expect(decoded.source == .detected)
    #expect(
      MetadataExtractor().extract(html: bytes, pageURL: Support.pageURL, contentType: nil).title
        == Text.russian.title)
  }

  @Test func garbageAndTruncatedSequencesGiveADefinedAnswer() throws {
    var generator = SplitMix(seed: 1024)
    let fixture = try Support.fixture("undeclared-euc-kr.html")
    for round in 0..<300 {
      let bytes: [UInt8]
      if round % 3 == 0 {
        // Truncated multi-byte sequences: the fixture cut anywhere, with a lone lead byte appended.
        bytes = Array(fixture.prefix(Int(generator.next() % UInt64(fixture.count)))) + [0xB0]
      } else {
        bytes = (0..<Int(generator.next() % 8192)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      }
      let detected = bytes.withUnsafeBufferPointer(CharsetDetector.encoding(of:))
      // Whatever the detector says is an encoding thumbify decodes, never UTF-16 without a mark.
      if let detected {
        #expect(TextEncoding(label: detected.name) == detected)
        #expect(detected != .utf16LE && detected != .utf16BE)
      }
      let decoded = decode(bytes)
      #expect(decoded.source == .detected || decoded.source == .fallback || decoded.source == .utf8Validity)
      #expect(decode(bytes).encoding == decoded.encoding)
      _ = MetadataExtractor().extract(html: bytes, pageURL: Support.pageURL, contentType: nil)
    }
  }
}
