import Foundation
import Glibc

@testable import ThumbifyExtracting

/// Helpers shared by the extracting tests.
enum ExtractingTestSupport {
  /// The page URL most tests extract against.
  static let pageURL = "https://www.example.com/articles/story.html"

  /// Extracts metadata from an HTML string (UTF-8).
  static func extract(
    _ html: String, url: String = pageURL, contentType: String? = nil, iconSize: Int = 64
  ) -> PageMetadata {
    MetadataExtractor(iconTargetSize: iconSize).extract(
      html: Array(html.utf8), pageURL: url, contentType: contentType)
  }

  /// The bytes of `Tests/Fixtures/pages/<name>`.
  static func fixture(_ name: String) throws -> [UInt8] {
    let directory = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/pages")
    return [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
  }

  /// Encodes UTF-8 text into a legacy encoding with iconv (the direction the extractor never uses).
  static func encode(_ text: String, to encoding: String) -> [UInt8]? {
    let descriptor = iconv_open(encoding, "UTF-8")
    guard let descriptor, Int(bitPattern: UnsafeRawPointer(descriptor)) != -1 else { return nil }
    defer { iconv_close(descriptor) }
    var input = Array(text.utf8)
    var output = [UInt8](repeating: 0, count: input.count * 4 + 16)
    let produced = input.withUnsafeMutableBytes { inBuffer -> Int? in
      output.withUnsafeMutableBytes { outBuffer -> Int? in
        var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress?.assumingMemoryBound(
          to: CChar.self)
        var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress?.assumingMemoryBound(
          to: CChar.self)
        var inLeft = inBuffer.count
        var outLeft = outBuffer.count
        guard iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft) != -1 else { return nil }
        _ = iconv(descriptor, nil, nil, &outPointer, &outLeft)
        return outBuffer.count - outLeft
      }
    }
    guard let produced else { return nil }
    return Array(output[0..<produced])
  }
}

/// Records what the tokenizer reports.
struct RecordingSink: HTMLTokenSink {
  var events: [String] = []
  var metas: [[HTMLAttribute]] = []
  var titles: [String] = []
  var scripts: [String] = []

  mutating func startTag(_ name: HTMLTagName, attributes: [HTMLAttribute], isSelfClosing: Bool) {
    events.append("<\(name)\(isSelfClosing ? "/" : "")>")
    if name == .meta { metas.append(attributes) }
  }

  mutating func endTag(_ name: HTMLTagName) { events.append("</\(name)>") }

  mutating func rawText(of name: HTMLTagName, _ bytes: UnsafeBufferPointer<UInt8>) {
    let text = String(decoding: bytes, as: UTF8.self)
    if name == .title { titles.append(text) } else { scripts.append(text) }
  }

  /// Tokenizes `html` and returns the sink.
  static func run(_ html: String) -> RecordingSink {
    var sink = RecordingSink()
    Array(html.utf8).withUnsafeBufferPointer { buffer in
      var tokenizer = HTMLTokenizer(buffer)
      tokenizer.run(&sink)
    }
    return sink
  }

  /// The `content` of every meta, in order.
  var contents: [String] { metas.compactMap { $0.first { $0.name == "content" }?.value } }
}
