import Foundation
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

  /// Thumbnail boxes for a 203×117 source that take each pass order, one pass only, and no resize.
  static let boxesForEveryPassOrder = [
    Size(width: 101, height: 58), Size(width: 60, height: 97), Size(width: 203, height: 58),
    Size(width: 101, height: 117), Size(width: 203, height: 117),
  ]

  @Test func planesResizedIntoLimitedRangeRoundOnce() throws {
    // Given a full-range plane of noisy detail, and a resize into limited (WebP's) range by the
    // last pass (each pass order, one pass only, and no resize at all)
    var state: UInt32 = 12345
    let (width, height) = (203, 117)
    let samples = (0..<(width * height)).map { index -> UInt8 in
      state = state &* 1_664_525 &+ 1_013_904_223
      let wave = 128 + 100 * sin(Double(index % width) / 7) * cos(Double(index / width) / 5)
      return UInt8(min(max(wave + Double(state >> 28) - 8, 0), 255))
    }
    let plane = SamplePlane(width: width, height: height, samples: samples)
    let luma = YCbCrImage.limitedRangeMappings.luma
    var squaredErrors = (once: 0.0, twice: 0.0)
    for box in Self.boxesForEveryPassOrder {
      let geometry = ThumbnailGeometry(source: Size(width: width, height: height), box: box, fit: .cover)
      let resampler = Resampler()
      let once = resampler.resize(plane, to: geometry.output, region: geometry.region, mapping: .limitedLuma)
      let twice = resampler.resize(plane, to: geometry.output, region: geometry.region).samples.map {
        luma($0)
      }
      let reference = ReferenceResampler().unroundedSamples(plane, geometry: geometry)
      // Then every sample is within one level of resizing and then mapping, inside 16…235
      #expect(once.width == geometry.output.width && once.height == geometry.output.height)
      #expect(zip(once.samples, twice).allSatisfy { abs(Int($0) - Int($1)) <= 1 && (16...235).contains($0) })
      if geometry.output == Size(width: width, height: height) {
        #expect(once.samples == twice, "an unresized plane is only mapped")
        continue
      }
      for (index, exact) in reference.enumerated() {
        let mapped = 16 + min(max(exact, 0), 255) * 219 / 255
        squaredErrors.once += pow(Double(once.samples[index]) - mapped, 2)
        squaredErrors.twice += pow(Double(twice[index]) - mapped, 2)
      }
    }
    // And a resized plane is closer to the unrounded double-precision resize than one rounded twice
    // (one rounding's noise, 1/12 of a level squared, less; ~0.7 of its squared error)
    #expect(squaredErrors.once < 0.8 * squaredErrors.twice, "\(squaredErrors)")
  }

  @Test func flatPlanesMapToTheLimitedRangeValue() {
    // Given a flat full-range plane of each value, resized into limited range
    let (luma, chroma) = (YCbCrImage.limitedRangeMappings.luma, YCbCrImage.limitedRangeMappings.chroma)
    let region = ThumbnailGeometry.Region(x: 0, y: 0, width: 40, height: 30)
    for value in 0...255 {
      let plane = SamplePlane(width: 40, height: 30, repeating: UInt8(value))
      let resampler = Resampler()
      let mappedLuma = resampler.resize(
        plane, to: Size(width: 13, height: 11), region: region, mapping: .limitedLuma)
      let mappedChroma = resampler.resize(
        plane, to: Size(width: 13, height: 11), region: region, mapping: .limitedChroma)
      // Then every sample is the value's rounded limited-range definition
      #expect(mappedLuma.samples.allSatisfy { $0 == luma(UInt8(value)) }, "\(value)")
      #expect(mappedChroma.samples.allSatisfy { $0 == chroma(UInt8(value)) }, "\(value)")
    }
  }
}
