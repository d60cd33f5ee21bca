import Testing
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

@Suite("Resampler", .offThePool)
struct ResamplerTests {
  @Test(arguments: ResampleFilter.allCases)
  func flatColourStaysFlat(_ filter: ResampleFilter) {
    let source = PixelBuffer(
      width: 97, height: 61, channels: 3,
      pixels: [UInt8](repeating: 0, count: 97 * 61).flatMap { _ in [200, 30, 90] })
    let output = Resampler(filter: filter).resize(source, to: Size(width: 13, height: 9))
    #expect(output.width == 13 && output.height == 9)
    #expect(output.pixels == [UInt8](repeating: 0, count: 13 * 9).flatMap { _ in [200, 30, 90] })
  }

  @Test(arguments: ResampleFilter.allCases)
  func coefficientsSumToOne(_ filter: ResampleFilter) {
    for (length, output) in [(1000, 333), (600, 600), (64, 200), (5, 1)] {
      let coefficients = ResampleCoefficients(
        sourceLength: length, offset: 0, span: Double(length), outputLength: output, filter: filter)
      for i in 0..<output {
        let weights = coefficients.weights[(i * coefficients.taps)..<((i + 1) * coefficients.taps)]
        #expect(weights.reduce(0) { $0 + Int32($1) } == ResampleCoefficients.one)
        #expect(coefficients.starts[i] >= 0 && coefficients.starts[i] + coefficients.taps <= length)
      }
    }
  }

  /// A disc of opaque red on fully transparent *black*: with straight-alpha
  /// resampling the black would bleed into the edge as a dark fringe.
  @Test(arguments: [Resampler(), Resampler(filter: .triangle), Resampler(preShrinkGap: nil)])
  func alphaEdgesHaveNoDarkHalo(_ resampler: Resampler) {
    let size = 200
    var pixels: [UInt8] = []
    for y in 0..<size {
      for x in 0..<size {
        let dx = Double(x - size / 2)
        let dy = Double(y - size / 2)
        pixels += (dx * dx + dy * dy).squareRoot() < 70 ? [255, 0, 0, 255] : [0, 0, 0, 0]
      }
    }
    let source = PixelBuffer(width: size, height: size, channels: 4, pixels: pixels)
    let output = resampler.resize(source, to: Size(width: 37, height: 37))
    var edgePixels = 0
    for index in stride(from: 0, to: output.pixels.count, by: 4) where output.pixels[index + 3] >= 16 {
      if output.pixels[index + 3] < 240 { edgePixels += 1 }
      #expect(output.pixels[index] >= 240, "red \(output.pixels[index]) at alpha \(output.pixels[index + 3])")
      #expect(output.pixels[index + 1] <= 8 && output.pixels[index + 2] <= 8)
    }
    #expect(edgePixels > 20)
  }

  struct QualityCase: Sendable, CustomStringConvertible {
    var photo: String
    var box: Size
    var fit: Fit
    var description: String { "\(photo) \(box) \(fit)" }
  }

  /// The fast path (fixed point, box pre-shrink) against a double-precision
  /// Lanczos3 without pre-shrink, on real photos.
  @Test(
    arguments: Fixtures.photoNames.flatMap { name in
      [
        QualityCase(photo: name, box: Size(width: 600, height: 315), fit: .contain),
        QualityCase(photo: name, box: Size(width: 64, height: 64), fit: .cover),
        QualityCase(photo: name, box: Size(width: 150, height: 150), fit: .contain),
      ]
    })
  func matchesTheHighPrecisionReference(_ test: QualityCase) throws {
    let photo = try Fixtures.photo(test.photo)
    let geometry = ThumbnailGeometry(
      source: Size(width: photo.width, height: photo.height), box: test.box, fit: test.fit)
    let image = DecodedImage(
      buffer: photo, format: .jpeg, originalSize: Size(width: photo.width, height: photo.height))
    let fast = Resampler().resize(image, geometry: geometry)
    let reference = ReferenceResampler().resize(photo, geometry: geometry)
    let ssim = try #require(StructuralSimilarity.ssim(fast, reference))
    #expect(ssim >= 0.98, "SSIM \(ssim)")
  }

  @Test func boxShrinkAveragesBlocks() {
    let source = PixelBuffer(
      width: 4, height: 2, channels: 3,
      pixels: [
        0, 0, 0, 10, 10, 10, 100, 0, 0, 100, 0, 0,
        20, 20, 20, 30, 30, 30, 100, 0, 0, 100, 0, 4,
      ])
    let output = BoxShrinker.shrink(source, by: 2)
    #expect(output.width == 2 && output.height == 1)
    #expect(output.pixels == [15, 15, 15, 100, 0, 1])
  }

  @Test func coverCropTakesTheCentre() {
    // Left third red, middle green, right third blue; a square cover keeps the green middle.
    var pixels: [UInt8] = []
    for _ in 0..<100 {
      for x in 0..<300 { pixels += x < 100 ? [255, 0, 0] : x < 200 ? [0, 255, 0] : [0, 0, 255] }
    }
    let source = PixelBuffer(width: 300, height: 100, channels: 3, pixels: pixels)
    let geometry = ThumbnailGeometry(
      source: Size(width: 300, height: 100), box: Size(width: 10, height: 10), fit: .cover)
    let output = Resampler().resize(
      DecodedImage(buffer: source, format: .png, originalSize: Size(width: 300, height: 100)),
      geometry: geometry)
    #expect(output.width == 10 && output.height == 10)
    for index in stride(from: 0, to: output.pixels.count, by: 3) {
      #expect(output.pixels[index + 1] > 200 && output.pixels[index] < 40 && output.pixels[index + 2] < 40)
    }
  }

  @Test func mapsAShrunkDecodeOntoTheOriginalGeometry() {
    // A decoder returned a quarter-size decode: the output size must still follow the original.
    let decoded = DecodedImage(
      buffer: Fixtures.gradient(width: 1000, height: 750), format: .jpeg,
      originalSize: Size(width: 4000, height: 3000))
    let geometry = ThumbnailGeometry(
      source: decoded.originalSize, box: Size(width: 600, height: 315), fit: .contain)
    let output = Resampler().resize(decoded, geometry: geometry)
    #expect(output.width == 420 && output.height == 315)
  }
}
