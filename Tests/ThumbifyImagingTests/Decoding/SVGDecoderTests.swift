import Foundation
import Testing
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

/// SVG icons through librsvg: sizes, limits against hostile documents, and no outside access.
@Suite("SVG decoding", .offThePool)
struct SVGDecoderTests {
  let decoder = ImageDecoder()
  let icon = DecodeOptions(target: Size(width: 64, height: 64), fit: .cover)

  /// An SVG document with `attributes` on the root and `body` inside.
  static func svg(_ attributes: String, _ body: String = "") -> [UInt8] {
    Array(
      "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \(attributes)>\(body)</svg>".utf8)
  }

  /// A red left half on a transparent right half, in a 16-unit square.
  let halfRed = #"<rect x="0" y="0" width="8" height="16" fill="rgb(255,0,0)"/>"#

  @Test func viewBoxOnlyRendersCrispAtTheTargetSize() throws {
    let bytes = Self.svg(#"viewBox="0 0 16 16""#, halfRed)
    #expect(ImageFormat(sniffing: bytes) == .svg)
    let image = try decoder.decode(bytes, options: icon)
    #expect(image.format == .svg && image.buffer.channels == 4)
    #expect(image.buffer.width == 64 && image.buffer.height == 64)
    #expect(image.originalSize == Size(width: 64, height: 64))
    // Rendered at 64 px, not resized from 16: the edge at x = 32 is one pixel sharp.
    #expect(TestImages.pixel(image.buffer, 31, 10) == [255, 0, 0, 255])
    #expect(TestImages.pixel(image.buffer, 32, 10)[3] == 0)
    #expect(TestImages.pixel(image.buffer, 0, 63) == [255, 0, 0, 255])
  }

  @Test func widthAndHeightOnlyGiveTheNaturalSize() throws {
    let bytes = Self.svg(#"width="20" height="10""#, #"<rect width="20" height="10" fill="rgb(0,0,255)"/>"#)
    let natural = try decoder.decode(bytes, options: DecodeOptions())
    #expect(natural.buffer.width == 20 && natural.buffer.height == 10)
    #expect(natural.buffer.channels == 3)  // rendered as RGBA, reduced to RGB because it is opaque
    let fitted = try decoder.decode(bytes, options: DecodeOptions(target: Size(width: 64, height: 64)))
    #expect(fitted.buffer.width == 64 && fitted.buffer.height == 32)
    #expect(TestImages.pixel(fitted.buffer, 63, 31) == [0, 0, 255])
  }

  @Test func absoluteUnitsAreConvertedAt96DPI() throws {
    let bytes = Self.svg(#"width="1in" height="0.5in""#)
    let image = try decoder.decode(bytes, options: DecodeOptions())
    #expect(image.buffer.width == 96 && image.buffer.height == 48)
  }

  @Test func hugeDeclaredSizeIsRefusedAtFullSizeButRendersAsAnIcon() throws {
    let bytes = Self.svg(#"width="100000" height="100000" viewBox="0 0 16 16""#, halfRed)
    #expect(throws: ImageError.tooManyPixels(width: 100_000, height: 100_000, limit: 50_000_000)) {
      try decoder.decode(bytes, options: DecodeOptions())
    }
    let image = try decoder.decode(bytes, options: icon)
    #expect(image.buffer.width == 64 && TestImages.pixel(image.buffer, 10, 10) == [255, 0, 0, 255])
    // A target that would need too many pixels is refused too.
    #expect(throws: ImageError.self) {
      try decoder.decode(
        bytes, options: DecodeOptions(target: Size(width: 8192, height: 8192), maxPixels: 1000))
    }
  }

  @Test func deepNestingIsRefusedBeforeLibrsvgParses() throws {
    let deep = Self.svg(
      #"viewBox="0 0 16 16""#, String(repeating: "<g>", count: 100) + String(repeating: "</g>", count: 100))
    let message = TestImages.corruptionMessage(decoding: deep, format: .svg)
    #expect(message?.contains("nest deeper than 64") == true, "\(message ?? "no error")")
    // Siblings and self-closing tags do not count as depth.
    let shallow = Self.svg(
      #"viewBox="0 0 16 16""#,
      String(repeating: "<g>", count: 40) + String(repeating: "<rect width=\"1\" height=\"1\"/>", count: 500)
        + String(repeating: "</g>", count: 40))
    #expect(try decoder.decode(shallow, options: icon).buffer.width == 64)
  }

  @Test func tooManyElementsAndTooManyBytesAreRefused() throws {
    let many = Self.svg(
      #"viewBox="0 0 16 16""#, String(repeating: "<rect width=\"1\" height=\"1\"/>", count: 10_001))
    let message = TestImages.corruptionMessage(decoding: many, format: .svg)
    #expect(message?.contains("more than 10000 elements") == true, "\(message ?? "no error")")
    let padded = Self.svg(#"viewBox="0 0 16 16""#, "<!--" + String(repeating: " ", count: 1 << 20) + "-->")
    #expect(throws: ImageError.tooLarge(bytes: padded.count, limit: 1 << 20)) {
      try decoder.decode(padded, options: icon)
    }
  }

  @Test func externalReferencesAreNeitherFetchedNorRead() async throws {
    let server = try await FaultServer()
    defer { server.stop() }
    // The server does count what it is sent (the test can fail).
    let port = server.port
    _ = try await offThePool { try FaultServer.get(port: port, path: "/hold?ms=0&bucket=control") }
    #expect(try await offThePool { try server.stats(bucket: "control").count } == 1)

    let image = server.url("/hold?ms=0&amp;bucket=svg")  // XML-escaped: the URL has an '&'

    let body = """
      <image href="\(image)" width="16" height="16"/>
      <image xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="\(image)" width="16" height="16"/>
      <image href="file:///etc/passwd" width="16" height="16"/>
      <use href="\(image)#a"/>
      <style>@import url("\(image)");</style>
      <rect width="16" height="16" fill="url(\(image)#p)"/>
      <script>fetch("\(image)")</script>
      <script type="text/ecmascript"><![CDATA[ new Image().src = "\(image)"; ]]></script>
      <rect width="8" height="16" fill="rgb(255,0,0)" onload="fetch('\(image)')"/>
      """
    let decoded = try decoder.decode(Self.svg(#"viewBox="0 0 16 16""#, body), options: icon)
    // It rendered what it could (the red rect), and nothing reached the server.
    #expect(TestImages.pixel(decoded.buffer, 10, 10) == [255, 0, 0, 255])
    try await Task.sleep(for: .milliseconds(200))
    #expect(try await offThePool { try server.stats(bucket: "svg").count } == 0)
  }

  @Test func aDataURLImageStillRenders() throws {
    // The one kind of reference librsvg loads from bytes without a base: embedded data.
    let green = TestImages.rgb(width: 4, height: 4) { _, _ in (0, 200, 0) }
    let png = try PNGEncoder().encode(green, options: EncodeOptions(format: .png))
    let href = "data:image/png;base64," + Data(png).base64EncodedString()
    let bytes = Self.svg(#"viewBox="0 0 16 16""#, #"<image href="\#(href)" width="16" height="16"/>"#)
    let image = try decoder.decode(bytes, options: icon)
    #expect(TestImages.isClose(TestImages.pixel(image.buffer, 32, 32), [0, 200, 0], tolerance: 2))
  }

  @Test func garbageIsCorruptNeverACrash() {
    var rng = SplitMix(seed: 21)
    for index in 0..<30 {
      let junk = (0..<200).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      let bytes = Array("<svg xmlns=\"http://www.w3.org/2000/svg\" ".utf8) + junk
      #expect(ImageFormat(sniffing: bytes) == .svg)
      #expect(TestImages.corruptionMessage(decoding: bytes, format: .svg) != nil, "input \(index)")
    }
    let unclosed = Array("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\"><rect".utf8)
    #expect(TestImages.corruptionMessage(decoding: unclosed, format: .svg)?.contains("librsvg") == true)
    let notSVG = Array("<html><body><svg></svg></body></html>".utf8)
    #expect(TestImages.corruptionMessage(decoding: notSVG, format: .svg) != nil)
  }

  @Test func sniffsAfterPrologCommentsAndBOM() {
    let document =
      [0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\"?>\n<!-- icon -->\n<!DOCTYPE svg>\n<svg/>".utf8)
    #expect(ImageFormat(sniffing: document) == .svg)
  }

  @Test func noSizeAtAllUsesTheTarget() throws {
    let bytes = Self.svg("", halfRed)
    let image = try decoder.decode(bytes, options: icon)
    #expect(image.buffer.width == 64 && image.buffer.height == 64)
  }

  @Test func unpremultipliesCairosPixels() throws {
    let bytes = Self.svg(
      #"viewBox="0 0 4 4""#, #"<rect width="4" height="4" fill="rgb(255,128,0)" fill-opacity="0.25"/>"#)
    let image = try decoder.decode(bytes, options: DecodeOptions())
    let pixel = TestImages.pixel(image.buffer, 1, 1)
    #expect(TestImages.isClose(pixel, [255, 128, 0, 64], tolerance: 3), "\(pixel)")
  }
}
