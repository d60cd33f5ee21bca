import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

/// The SIMD passes against their definition, one tap at a time:
/// `clamp((Σₖ weight[k] · sample[start + k] + 2¹³) >> 14)`, bit for bit.
@Suite("Convolution kernels", .offThePool)
struct ConvolutionKernelsTests {
  /// Source and output lengths: odd and even tap counts, reductions of 1–9× (so 1, 2, 3 and more
  /// eight-tap steps in the plane kernel), an enlargement, widths under one SIMD step, a one-pixel axis.
  static let axes = [
    (1200, 600), (1000, 420), (640, 200), (37, 5), (640, 71), (9, 9), (5, 3), (1, 1), (3, 7), (913, 100),
  ]

  @Test(arguments: [1, 3, 4], ResampleFilter.allCases)
  func horizontalPassIsTheTapByTapSum(channels: Int, filter: ResampleFilter) {
    var random = SplitMix(seed: UInt64(channels * 31 + ResampleFilter.allCases.firstIndex(of: filter)!))
    for (width, outputWidth) in Self.axes {
      let height = 3
      let samples = (0..<(width * height * channels)).map { _ in random.byte() }
      let coefficients = ResampleCoefficients(
        sourceLength: width, offset: 0, span: Double(width), outputLength: outputWidth, filter: filter)
      let expected = Self.horizontal(samples, width: width, channels: channels, coefficients)
      if channels == 1 {
        let plane = SamplePlane(width: width, height: height, samples: samples)
        #expect(
          PlaneKernels.horizontal(plane, rows: 0..<height, coefficients: coefficients).samples == expected,
          "\(width) → \(outputWidth)")
      } else {
        let image = PixelBuffer(width: width, height: height, channels: channels, pixels: samples)
        #expect(
          ConvolutionKernels.horizontal(image, rows: 0..<height, coefficients: coefficients).pixels
            == expected,
          "\(width) → \(outputWidth), \(channels) channels")
      }
    }
  }

  @Test(arguments: [1, 3, 4], ResampleFilter.allCases)
  func verticalPassIsTheTapByTapSum(channels: Int, filter: ResampleFilter) {
    var random = SplitMix(seed: UInt64(channels * 17 + ResampleFilter.allCases.firstIndex(of: filter)!))
    for (height, outputHeight) in Self.axes {
      for width in [1, 2, 7, 8, 13] {
        let stride = width * channels
        let samples = (0..<(stride * height)).map { _ in random.byte() }
        let coefficients = ResampleCoefficients(
          sourceLength: height, offset: 0, span: Double(height), outputLength: outputHeight, filter: filter)
        var expected: [UInt8] = []
        for y in 0..<outputHeight {
          for i in 0..<stride {
            expected.append(
              Self.sum(coefficients, y) { samples[min(height - 1, $0) * stride + i] })
          }
        }
        #expect(
          ConvolutionKernels.verticalSamples(
            samples, stride: stride, columns: 0..<stride, height: height, rowOffset: 0,
            coefficients: coefficients) == expected,
          "\(height) → \(outputHeight), \(stride) samples a row")
        // Only some columns (a vertical-first pass over a cover crop's source columns).
        let columns = (stride / 3)..<(stride - stride / 4)
        let kept = (0..<outputHeight).flatMap { y in columns.map { expected[y * stride + $0] } }
        #expect(
          ConvolutionKernels.verticalSamples(
            samples, stride: stride, columns: columns, height: height, rowOffset: 0,
            coefficients: coefficients) == kept,
          "\(height) → \(outputHeight), columns \(columns) of \(stride)")
      }
    }
  }

  /// The horizontal pass of every row of interleaved `samples`, by definition.
  static func horizontal(_ samples: [UInt8], width: Int, channels: Int, _ coefficients: ResampleCoefficients)
    -> [UInt8]
  {
    var output: [UInt8] = []
    for row in 0..<(samples.count / (width * channels)) {
      for x in 0..<coefficients.starts.count {
        for channel in 0..<channels {
          output.append(sum(coefficients, x) { samples[(row * width + $0) * channels + channel] })
        }
      }
    }
    return output
  }

  /// Output sample `index` of one axis, reading source sample `n` through `sample(n)`.
  static func sum(_ coefficients: ResampleCoefficients, _ index: Int, sample: (Int) -> UInt8) -> UInt8 {
    var total: Int32 = 1 << 13
    for k in 0..<coefficients.taps {
      total +=
        Int32(coefficients.weights[index * coefficients.taps + k])
        * Int32(sample(coefficients.starts[index] + k))
    }
    return UInt8(min(max(total >> 14, 0), 255))
  }
}
