import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyExtracting

@Suite("Charset detection and decoding", .offThePool)
struct CharsetTests {
  private typealias Support = ExtractingTestSupport

  private func decode(_ bytes: [UInt8], contentType: String? = nil) -> DocumentDecoder.Decoded {
    bytes.withUnsafeBufferPointer { DocumentDecoder.decode($0, contentType: contentType) }
  }

  private func page(_ charsetMeta: String, title: String) -> String {
    "<!DOCTYPE html><html><head>\(charsetMeta)<title>\(title)</title></head><body></body></html>"
  }

  @Test(arguments: [
    ("shift_jis.html", "Shift_JIS", "東京の天気予報：週末は晴れ"),
    ("euc-jp.html", "EUC-JP", "東京の天気予報：週末は晴れ"),
    ("gbk.html", "GBK", "北京今日新闻：地铁新线路开通"),
  ])
  func legacyFixturePagesDecode(_ file: String, _ encoding: String, _ title: String) throws {
    let bytes = try Support.fixture(file)
    #expect(!UTF8Validator.validate(bytes.withUnsafeBufferPointer { $0 }).isValid)
    #expect(decode(bytes).encoding.name == encoding)
    #expect(decode(bytes).source == .metaPrescan)
    let metadata = MetadataExtractor().extract(html: bytes, pageURL: Support.pageURL, contentType: nil)
    #expect(metadata.title == title)
    #expect(metadata.description?.hasSuffix("。") == true)
  }

  @Test func declaredCharsetThatFailsButIsValidUTF8IsReadAsUTF8() throws {
    let bytes = try Support.fixture("wrong-charset.html")
    let decoded = decode(bytes)
    #expect(decoded.encoding == .utf8)
    #expect(decoded.source == .mislabelled)
    let metadata = MetadataExtractor().extract(html: bytes, pageURL: Support.pageURL, contentType: nil)
    #expect(metadata.title == "Ünïcödé café — 東京")
  }

  @Test(arguments: [
    ("ISO-2022-JP", "iso-2022-jp", "ニュース速報"), ("BIG5-HKSCS", "big5", "台北新聞"), ("CP949", "euc-kr", "서울 뉴스"),
    ("KOI8-R", "koi8-r", "Новости Москвы"), ("CP1251", "windows-1251", "Новости"),
    ("GB18030", "gb18030", "新闻𠀀"),
    ("ISO-8859-7", "iso-8859-7", "Ειδήσεις"), ("CP1250", "cp1250", "Zprávy ČR"),
  ])
  func moreLegacyEncodingsDecodeThroughIconv(_ iconvName: String, _ label: String, _ title: String) throws {
    let bytes = try #require(Support.encode(page("<meta charset=\"\(label)\">", title: title), to: iconvName))
    let metadata = MetadataExtractor().extract(html: bytes, pageURL: Support.pageURL, contentType: nil)
    #expect(metadata.title == title)
  }

  @Test func httpHeaderCharsetWinsOverMeta() throws {
    let bytes = try #require(Support.encode(page("<meta charset=\"utf-8\">", title: "Новости"), to: "KOI8-R"))
    let decoded = decode(bytes, contentType: "text/html; charset=\"KOI8-R\"")
    #expect(decoded.source == .httpHeader)
    #expect(String(decoding: decoded.converted ?? [], as: UTF8.self).contains("Новости"))
  }

  @Test func byteOrderMarkWinsOverEverything() throws {
    let utf16 = try #require(
      Support.encode(page("<meta charset=\"shift_jis\">", title: "Straße"), to: "UTF-16LE"))
    let bytes: [UInt8] = [0xFF, 0xFE] + utf16
    let decoded = decode(bytes, contentType: "text/html; charset=iso-8859-1")
    #expect(decoded.source == .byteOrderMark)
    #expect(
      MetadataExtractor().extract(html: bytes, pageURL: Support.pageURL, contentType: nil).title == "Straße")
    let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(page("", title: "Ü").utf8)
    #expect(
      MetadataExtractor().extract(
        html: utf8BOM, pageURL: Support.pageURL, contentType: "text/html; charset=koi8-r"
      ).title == "Ü")
  }

  @Test func undeclaredInvalidUTF8InALatinEncodingReadsRight() {
    // Detection may name windows-1252 or a sibling (windows-1250 for these few bytes) that reads them alike.
    let bytes = Array("<title>".utf8) + [0x93, 0x43, 0x61, 0x66, 0xE9, 0x94, 0x80] + Array("</title>".utf8)
    #expect(decode(bytes).source == .detected)
    #expect(
      MetadataExtractor().extract(html: bytes, pageURL: Support.pageURL, contentType: nil).title == "“Café”€")
  }

  @Test func undeclaredValidUTF8IsUTF8() {
    let decoded = decode(Array(page("", title: "naïve").utf8))
    #expect(decoded.encoding == .utf8)
    #expect(decoded.source == .utf8Validity)
  }

  @Test func latin1LabelIsWindows1252AndValidUTF8OverridesASingleByteLabel() {
    let latin = Array("<meta charset=latin1><title>".utf8) + [0x80, 0xE9] + Array("</title>".utf8)
    #expect(
      MetadataExtractor().extract(html: latin, pageURL: Support.pageURL, contentType: nil).title == "€é")
    let utf8 = Array(page("<meta charset=\"iso-8859-1\">", title: "café").utf8)
    #expect(decode(utf8).source == .mislabelled)
    #expect(
      MetadataExtractor().extract(html: utf8, pageURL: Support.pageURL, contentType: nil).title == "café")
  }

  @Test(arguments: [
    ("latin1", "windows-1252"), ("ISO-8859-1", "windows-1252"), ("ascii", "windows-1252"), ("gb2312", "GBK"),
    ("sjis", "Shift_JIS"), (" Shift_JIS ", "Shift_JIS"), ("x-sjis", "Shift_JIS"), ("euc-kr", "EUC-KR"),
    ("utf8", "UTF-8"), ("unicode-1-1-utf-8", "UTF-8"), ("koi8", "KOI8-R"), ("tis-620", "windows-874"),
    ("iso-8859-9", "windows-1254"), ("big5-hkscs", "Big5"), ("x-user-defined", "windows-1252"),
  ])
  func whatwgLabels(_ label: String, _ name: String) {
    #expect(TextEncoding(label: label)?.name == name)
  }

  @Test func unknownLabelIsNil() {
    #expect(TextEncoding(label: "klingon") == nil)
    #expect(TextEncoding(label: "") == nil)
  }

  @Test(arguments: [
    ("<meta charset=\"gbk\">", "GBK"),
    ("<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=EUC-JP\">", "EUC-JP"),
    ("<meta content=\"text/html; charset='koi8-r'\" http-equiv=\"content-type\">", "KOI8-R"),
    ("<meta charset=utf-16le>", "UTF-8"),
    ("<!-- <meta charset=\"gbk\"> --><meta charset=\"big5\">", "Big5"),
    ("<script>var x='<meta charset=\"gbk\">'</script>", "GBK"),
    ("<div title='<meta charset=\"gbk\">'><meta charset=euc-kr>", "EUC-KR"),
  ])
  func prescanFindsTheDeclaration(_ head: String, _ name: String) {
    let bytes = Array(head.utf8)
    #expect(bytes.withUnsafeBufferPointer { CharsetPrescan.encoding(in: $0) }?.name == name)
  }

  @Test func prescanIgnoresContentWithoutPragmaAndDeclarationsPast1024Bytes() {
    let noPragma = Array("<meta content=\"text/html; charset=gbk\">".utf8)
    #expect(noPragma.withUnsafeBufferPointer { CharsetPrescan.encoding(in: $0) } == nil)
    let late = Array((String(repeating: " ", count: 1030) + "<meta charset=gbk>").utf8)
    #expect(late.withUnsafeBufferPointer { CharsetPrescan.encoding(in: $0) } == nil)
  }

  @Test func invalidBytesInADeclaredEncodingBecomeReplacementCharacters() throws {
    var bytes = try #require(Support.encode(page("<meta charset=shift_jis>", title: "東京"), to: "CP932"))
    let titleIndex = try #require(bytes.firstIndex(of: UInt8(ascii: "<")).map { _ in bytes.count - 30 })
    bytes.insert(0xFF, at: titleIndex)
    let decoded = decode(bytes)
    #expect(decoded.encoding.name == "Shift_JIS")
    #expect(String(decoding: decoded.converted ?? [], as: UTF8.self).contains("\u{FFFD}"))
  }
}
