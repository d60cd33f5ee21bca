import Testing
import ThumbifyImaging
import ThumbifySystemTestSupport

@Suite("Thumbnail geometry", .offThePool)
struct ThumbnailGeometryTests {
  struct Case: Sendable, CustomStringConvertible {
    var source: (Int, Int)
    var box: (Int, Int)
    var fit: Fit
    var upscale = false
    var output: (Int, Int)
    var description: String { "\(source) into \(box) \(fit)" }
  }

  @Test(arguments: [
    Case(source: (4000, 3000), box: (600, 315), fit: .contain, output: (420, 315)),
    Case(source: (1200, 630), box: (600, 315), fit: .contain, output: (600, 315)),
    Case(source: (630, 1200), box: (600, 315), fit: .contain, output: (165, 315)),
    Case(source: (4000, 3000), box: (600, 315), fit: .cover, output: (600, 315)),
    Case(source: (4000, 3000), box: (64, 64), fit: .cover, output: (64, 64)),
    Case(source: (300, 200), box: (600, 315), fit: .contain, output: (300, 200)),
    Case(source: (300, 200), box: (600, 315), fit: .contain, upscale: true, output: (473, 315)),
    Case(source: (300, 400), box: (600, 315), fit: .cover, output: (300, 315)),
    Case(source: (10_000, 1), box: (600, 315), fit: .contain, output: (600, 1)),
  ])
  func outputSize(_ test: Case) {
    let geometry = ThumbnailGeometry(
      source: Size(width: test.source.0, height: test.source.1),
      box: Size(width: test.box.0, height: test.box.1),
      fit: test.fit, allowsUpscaling: test.upscale)
    #expect(geometry.output == Size(width: test.output.0, height: test.output.1))
  }

  @Test func coverCropsAroundTheCentre() {
    let geometry = ThumbnailGeometry(
      source: Size(width: 4000, height: 3000), box: Size(width: 600, height: 315), fit: .cover)
    #expect(geometry.scale == 0.15)
    #expect(geometry.region.width == 4000)
    #expect(geometry.region.height == 2100)
    #expect(geometry.region.y == 450)
    #expect(geometry.region.x == 0)
  }

  @Test func neverUpscalesByDefault() {
    for fit in Fit.allCases {
      let geometry = ThumbnailGeometry(
        source: Size(width: 50, height: 40), box: Size(width: 64, height: 64), fit: fit)
      #expect(geometry.scale == 1)
      #expect(geometry.output.width <= 50 && geometry.output.height <= 40)
    }
  }

  @Test func shrinkOnLoadCoverageFollowsTheOutput() {
    let source = Size(width: 4000, height: 3000)
    let geometry = ThumbnailGeometry(source: source, box: Size(width: 600, height: 315), fit: .contain)
    #expect(geometry.isCovered(by: Size(width: 500, height: 375), source: source))
    #expect(!geometry.isCovered(by: Size(width: 250, height: 188), source: source))
  }
}
