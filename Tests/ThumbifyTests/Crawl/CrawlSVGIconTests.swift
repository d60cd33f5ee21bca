import Foundation
import Testing
import ThumbifyFetchingTestSupport
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// A page that declares only an SVG icon, next to a 16 px `/favicon.ico`: the real binary on loopback
/// nginx picks the SVG and renders it at the icon's 64 px (issue 20).
@Suite("Crawl with an SVG icon", .serialized)
struct CrawlSVGIconTests {
  @Test func theSVGIconBeatsTheSmallFaviconAndIsRenderedCrisp() async throws {
    let site = makeTemporaryDirectory("svg-site")
    let out = makeTemporaryDirectory("svg-out")
    defer {
      removeDirectory(site)
      removeDirectory(out)
    }
    let www = site + "/www"
    try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
    let page = """
      <!doctype html><html><head><title>Vector</title>
      <link rel="icon" type="image/svg+xml" href="/icon.svg"></head><body>hi</body></html>
      """
    try page.write(toFile: www + "/index.html", atomically: true, encoding: .utf8)
    // Left half red, right half transparent, in a 16-unit square.
    let svg = """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">\
      <rect width="8" height="16" fill="rgb(255,0,0)"/></svg>
      """
    try svg.write(toFile: www + "/icon.svg", atomically: true, encoding: .utf8)
    let blue = TestImages.rgb(width: 16, height: 16) { _, _ in (0, 0, 255) }
    let png = try PNGEncoder().encode(blue, options: EncodeOptions(format: .png))
    let ico = TestImages.ico([(width: 16, height: 16, bitCount: 32, data: png)])
    #expect(FileManager.default.createFile(atPath: www + "/favicon.ico", contents: Data(ico)))
    let nginx = try await LoopbackNginx(docroot: URL(fileURLWithPath: www))
    defer { nginx.stop() }
    let list = site + "/urls.txt"
    try (nginx.url("/") + "\n").write(toFile: list, atomically: true, encoding: .utf8)

    let process = thumbifyProcess([
      "crawl", list, "--out", out, "--allow-private-network", "--ignore-robots", "--quiet",
    ])
    let status = try await ChildProcess.run(process)
    #expect(status == 0)

    let record = try #require(try readManifest(out).first)
    let icon = try #require(record.icon)
    #expect(icon.source == nginx.url("/icon.svg"))
    let variant = try #require(icon.variants.first)
    #expect(variant.width == 64 && variant.height == 64)
    let bytes = try #require(FileManager.default.contents(atPath: out + "/" + variant.path))
    let decoded = try ImageDecoder().decode([UInt8](bytes), options: DecodeOptions()).buffer
    // Rendered at 64 px, not a blue 16 px favicon upscaled: red on the left, clear on the right.
    #expect(TestImages.isClose(TestImages.pixel(decoded, 16, 32), [255, 0, 0, 255], tolerance: 8))
    #expect(TestImages.pixel(decoded, 48, 32).last ?? 255 < 8)
  }
}
