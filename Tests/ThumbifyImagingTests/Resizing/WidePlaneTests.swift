import Foundation
import Testing

@testable import ThumbifyImaging

/// Luma resized in sixteenths of a level (``WidePlane``), as a converted tagged JPEG's is.
@Suite("Luma in sixteenths")
struct WidePlaneTests {
  /// Y′ in sixteenths of a level (a wave with noise, 0…4080), and the 8-bit plane of its rounding, as the
  /// colour conversion hands them over.
  static func sixteenths(width: Int, height: Int) -> (wide: WidePlane, luma: SamplePlane) {
    var state: UInt32 = 2024
    let values = (0..<(width * height)).map { index -> Int16 in
      state = state &* 1_664_525 &+ 1_013_904_223
      let wave = 2048 + 1600 * sin(Double(index % width) / 7) * cos(Double(index / width) / 5)
      return Int16(min(max(Int(wave) + Int(state >> 25) - 64, 0), 4080))
    }
    return (
      WidePlane(width: width, height: height, samples: values),
      SamplePlane(width: width, height: height, samples: values.map { UInt8(($0 + 8) >> 4) })
    )
  }

  @Test func sixteenthsResizedIntoLimitedRangeRoundOnce() throws {
    // Given Y′ known to a sixteenth of a level, and its resize into limited range from the sixteenths
    // (each pass order, one pass only, no resize) and from the 8-bit plane alone
    let (width, height) = (203, 117)
    let (wide, luma) = Self.sixteenths(width: width, height: height)
    // The sixteenths as two 8-bit planes, whole levels and the fraction plus 8 (8…23): the reference
    // resize is linear and keeps a constant.
    let (whole, offsetFraction) = (
      SamplePlane(width: width, height: height, samples: wide.samples.map { UInt8($0 >> 4) }),
      SamplePlane(width: width, height: height, samples: wide.samples.map { UInt8($0 & 15) + 8 })
    )
    var squaredErrors = (sixteenths: 0.0, eightBit: 0.0)
    for box in ResamplerTests.boxesForEveryPassOrder {
      let geometry = ThumbnailGeometry(source: Size(width: width, height: height), box: box, fit: .cover)
      let resampler = Resampler()
      let fromSixteenths = resampler.resize(
        wide, to: geometry.output, region: geometry.region, mapping: .limitedLuma)
      let fromEightBits = resampler.resize(
        luma, to: geometry.output, region: geometry.region, mapping: .limitedLuma)
      let reference = ReferenceResampler()
      let exact = zip(
        reference.unroundedSamples(whole, geometry: geometry),
        reference.unroundedSamples(offsetFraction, geometry: geometry)
      ).map { $0 + ($1 - 8) / 16 }

      // Then every sample is the unrounded resize's, mapped, rounded once (within a tenth of a level
      // for the sixteenths the passes keep), inside 16…235
      #expect(
        fromSixteenths.width == geometry.output.width && fromSixteenths.height == geometry.output.height)
      for (index, value) in exact.enumerated() {
        let mapped = 16 + min(max(value, 0), 255) * 219 / 255
        let sample = Double(fromSixteenths.samples[index])
        #expect(abs(sample - mapped) < 0.6, "\(box) sample \(index): \(sample) for \(mapped)")
        squaredErrors.sixteenths += pow(sample - mapped, 2)
        squaredErrors.eightBit += pow(Double(fromEightBits.samples[index]) - mapped, 2)
      }
    }
    // And closer than the 8-bit plane's resize, rounded at the source and between the passes (0.58 of
    // its squared error)
    #expect(squaredErrors.sixteenths < 0.7 * squaredErrors.eightBit, "\(squaredErrors)")
  }

  @Test func flatSixteenthsMapToTheirLevel() {
    // Given flat planes of each level, and of levels and a half (the largest fractions the conversion
    // rounds away) at the extremes
    let (limitedLuma, _) = YCbCrImage.limitedRangeMappings
    let region = ThumbnailGeometry.Region(x: 0, y: 0, width: 40, height: 30)
    let cases: [(sixteenths: Int16, full: UInt8, limited: UInt8)] =
      (0...255).map { (Int16($0) * 16, UInt8($0), limitedLuma(UInt8($0))) } + [
        (-8, 0, 16), (8, 1, 16), (4088, 255, 235), (4072, 255, 235), (2056, 129, 126),
      ]
    for (sixteenths, full, limited) in cases {
      let plane = WidePlane(
        width: 40, height: 30, samples: [Int16](repeating: sixteenths, count: 40 * 30))
      // When they are resized, into full and into limited range
      let resampler = Resampler()
      let fullRange = resampler.resize(plane, to: Size(width: 13, height: 11), region: region)
      let limitedRange = resampler.resize(
        plane, to: Size(width: 13, height: 11), region: region, mapping: .limitedLuma)
      // Then every sample is the level's (rounded, clamped) value: the 8-bit mapping's for a whole level
      #expect(fullRange.samples.allSatisfy { $0 == full }, "\(sixteenths): \(fullRange.samples[0])")
      #expect(limitedRange.samples.allSatisfy { $0 == limited }, "\(sixteenths): \(limitedRange.samples[0])")
    }
  }

  @Test func aLargeReductionIsBoxShrunkFirst() {
    // Given a plane in sixteenths eight times the output's size (the box pre-shrink's case)
    let (wide, luma) = Self.sixteenths(width: 800, height: 480)
    let region = ThumbnailGeometry.Region(x: 0, y: 0, width: 800, height: 480)
    let output = Size(width: 100, height: 60)

    // When it is resized, and its 8-bit plane alone
    let fromSixteenths = Resampler().resize(wide, to: output, region: region)
    let fromEightBits = Resampler().resize(luma, to: output, region: region)

    // Then both take the same box pre-shrink and filter: the same image within the 8-bit roundings
    #expect(fromSixteenths.width == 100 && fromSixteenths.height == 60)
    #expect(zip(fromSixteenths.samples, fromEightBits.samples).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
  }

  @Test func planesNarrowerThanOneStepAndEmptyOnes() {
    // Given planes narrower and shorter than the kernels' eight-sample steps, and an empty one
    for (width, height, output) in [(5, 3, Size(width: 2, height: 2)), (7, 9, Size(width: 3, height: 5))] {
      let (wide, luma) = Self.sixteenths(width: width, height: height)
      let region = ThumbnailGeometry.Region(x: 0, y: 0, width: Double(width), height: Double(height))
      // When they are resized
      let fromSixteenths = Resampler().resize(wide, to: output, region: region, mapping: .limitedLuma)
      let fromEightBits = Resampler().resize(luma, to: output, region: region, mapping: .limitedLuma)
      // Then the scalar ends give the 8-bit plane's resize within its roundings
      #expect(fromSixteenths.width == output.width && fromSixteenths.height == output.height)
      #expect(zip(fromSixteenths.samples, fromEightBits.samples).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }
    // And an empty plane stays empty, as an 8-bit one does
    let empty = Resampler().resize(
      WidePlane(width: 0, height: 0, samples: []), to: Size(width: 4, height: 4),
      region: ThumbnailGeometry.Region(x: 0, y: 0, width: 0, height: 0))
    #expect(empty.width == 0 && empty.height == 0 && empty.samples.isEmpty)
  }

  @Test func theSixteenthsTurnWithLuma() {
    // Given planes with luma in sixteenths, stored rotated (EXIF orientation 6)
    let (wide, luma) = Self.sixteenths(width: 6, height: 4)
    let chroma = SamplePlane(width: 3, height: 2, repeating: 128)
    var image = YCbCrImage(luma: luma, cb: chroma, cr: chroma, range: .full, chromaFactor: (2, 2))
    image.lumaSixteenths = wide

    // When they are turned upright
    let upright = image.oriented(.right)

    // Then the sixteenths are turned as luma is, sample for sample
    #expect(upright.luma == luma.oriented(.right))
    let turned = upright.lumaSixteenths
    #expect(turned?.width == 4 && turned?.height == 6)
    #expect(turned?.samples.map { UInt8(($0 + 8) >> 4) } == upright.luma.samples)
    #expect(turned?.samples != nil && turned?.samples != wide.samples)
  }
}
