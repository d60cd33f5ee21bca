import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyExtracting

@Suite("HTML tokenizer", .offThePool)
struct HTMLTokenizerTests {
  @Test(arguments: [
    "<!--><meta content=a>",
    "<!---><meta content=a>",
    "<!-- x --!><meta content=a>",
    "<!-- <meta content=no> --><meta content=a>",
    "<!-- a -- b --><meta content=a>",
    "<!DOCTYPE html><meta content=a>",
    "<?xml version=\"1.0\"?><meta content=a>",
    "<!bogus <meta content=no>><meta content=a>",
    "</ bogus <meta content=no>><meta content=a>",
  ])
  func commentsAndBogusCommentsEndWhereBrowsersEndThem(_ html: String) {
    #expect(RecordingSink.run(html).contents == ["a"])
  }

  @Test func unterminatedCommentHidesTheRest() {
    #expect(RecordingSink.run("<meta content=a><!-- <meta content=b>").contents == ["a"])
  }

  @Test(arguments: ["script", "style", "textarea", "xmp", "noembed", "noframes", "iframe", "title"])
  func rawTextElementsHideMarkup(_ tag: String) {
    let html = "<\(tag)><meta content=no></div></\(tag)x></\(tag)><meta content=a>"
    #expect(RecordingSink.run(html).contents == ["a"])
  }

  @Test func rawTextEndTagMatchesAnyCaseAndTrailingAttributes() {
    let sink = RecordingSink.run("<SCRIPT>var a = '<meta content=no>'</ScRiPt foo=\"bar\"><meta content=a>")
    #expect(sink.contents == ["a"])
    #expect(sink.scripts == ["var a = '<meta content=no>'"])
  }

  @Test func titleIsRCDATAAndSVGTitleIsNot() {
    let sink = RecordingSink.run("<svg><title>icon</title></svg><title>A <b>bold</b> &amp; title</title>")
    #expect(sink.titles == ["A <b>bold</b> &amp; title"])
  }

  @Test func everyAttributeQuotingForm() {
    let sink = RecordingSink.run(
      #"<meta a="double 'q'" b='single "q"' c=unquoted d = spaced e= f g=x>y h=&amp;>"#)
    let values = sink.metas.first?.map { "\($0.name)=\($0.value)" }
    #expect(
      values == [
        "a=double 'q'", "b=single \"q\"", "c=unquoted", "d=spaced", "e=f", "g=x",
      ])
    #expect(sink.events == ["<meta>"])
  }

  @Test func emptyValuesAndValuelessAttributes() {
    let sink = RecordingSink.run("<meta content=\"\" name property=>")
    #expect(sink.metas.first?.map(\.name) == ["content", "name", "property"])
    #expect(sink.metas.first?.allSatisfy { $0.value.isEmpty } == true)
  }

  @Test func duplicateAttributesFirstWinsAndNamesAreLowerCased() {
    let sink = RecordingSink.run("<META CONTENT=first Content=second NAME=x>")
    #expect(
      sink.metas.first == [
        HTMLAttribute(name: "content", value: "first"), HTMLAttribute(name: "name", value: "x"),
      ])
  }

  @Test func slashesBetweenAttributesAndSelfClosing() {
    let sink = RecordingSink.run("<meta/content=a/name=b/><svg/><meta content=c />")
    #expect(sink.contents == ["a/name=b/", "c"])
    #expect(sink.events == ["<meta>", "<svg/>", "<meta/>"])
  }

  @Test func tagCutOffByTheEndIsDropped() {
    #expect(RecordingSink.run("<meta content=a><meta content=\"b").contents == ["a"])
    #expect(RecordingSink.run("<meta content=a><meta content=b").contents == ["a"])
  }

  @Test func plaintextEndsMarkup() {
    #expect(RecordingSink.run("<meta content=a><plaintext><meta content=b>").contents == ["a"])
  }

  @Test func lessThanThatStartsNoTagIsText() {
    #expect(RecordingSink.run("a < b <3 <= <meta content=a>").contents == ["a"])
  }

  @Test func cdataIsSkippedOnlyInForeignContent() {
    #expect(
      RecordingSink.run("<svg><![CDATA[ > <meta content=no> ]]></svg><meta content=a>").contents == ["a"])
    // In HTML content it is a bogus comment that ends at the first '>'.
    #expect(RecordingSink.run("<![CDATA[ > <meta content=b> ]]>").contents == ["b"])
  }

  @Test func nulBytesAreKept() {
    let sink = RecordingSink.run("<meta content=\"a\u{0}b\"><title>x\u{0}y</title>")
    #expect(sink.contents == ["a\u{0}b"])
    #expect(sink.titles == ["x\u{0}y"])
  }
}
