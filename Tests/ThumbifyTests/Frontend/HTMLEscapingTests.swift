import Foundation
import Testing
import Thumbify
import ThumbifyTestSupport

@Suite("HTML escaping")
struct HTMLEscapingTests {
  @Test func textEscapesMarkupAndQuotes() {
    #expect(
      HTMLEscaping.text(#"<a href="x" title='y'>&amp;</a>"#)
        == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;")
    #expect(HTMLEscaping.text("plain ü \u{202E}text") == "plain ü \u{202E}text")
  }

  @Test(arguments: FrontendFixtures.hostileStrings)
  func textNeverLeavesAnAngleBracketOrQuote(_ hostile: String) {
    let escaped = HTMLEscaping.attribute(hostile)
    #expect(!escaped.contains("<"))
    #expect(!escaped.contains(">"))
    #expect(!escaped.contains("\""))
    #expect(!escaped.contains("'"))
  }

  @Test(arguments: FrontendFixtures.hostileStrings)
  func scriptJSONHasNoMarkupOrLineSeparatorsAndDecodesToTheSameString(_ hostile: String) throws {
    let json = try JSONEncoder().encode(["title": hostile])
    let escaped = HTMLEscaping.scriptJSON([UInt8](json))
    let text = String(decoding: escaped, as: UTF8.self)
    for forbidden in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
      #expect(!text.contains(forbidden), "\(forbidden.debugDescription) left in \(text)")
    }
    let decoded = try JSONDecoder().decode([String: String].self, from: Data(escaped))
    #expect(decoded["title"] == hostile)
  }

  @Test func scriptJSONKeepsOtherMultibyteCharacters() {
    let input = Array("\"é — 🙂 \u{2027}\u{202A}\"".utf8)
    #expect(HTMLEscaping.scriptJSON(input) == input)
  }

  @Test func scriptJSONEscapesATruncatedSequenceSafely() {
    // A lone 0xE2 0x80 at the end is not U+2028: copied as is, no out-of-bounds read.
    #expect(HTMLEscaping.scriptJSON([0x22, 0xE2, 0x80]) == [0x22, 0xE2, 0x80])
  }
}
