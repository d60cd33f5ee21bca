/// The inner loops of the plane resize: ``ConvolutionKernels`` for one channel.
///
/// The horizontal pass takes eight taps per step (`SIMD8`), with each sample's
/// weights zero-padded to a multiple of eight, so a window may read up to seven
/// samples past its end (into the next row, or into a padded copy of the last
/// row) with weight zero. The vertical pass is the interleaved one with a
/// stride of one sample per pixel.
enum PlaneKernels {
  /// Convolves each row in `rows` horizontally; the result has `rows.count` rows.
  static func horizontal(_ source: SamplePlane, rows: Range<Int>, coefficients: ResampleCoefficients)
    -> SamplePlane
  {
    let outputWidth = coefficients.starts.count
    let width = source.width
    guard width >= 8 else { return horizontalScalar(source, rows: rows, coefficients: coefficients) }
    let (weights, padded) = coefficients.weightsPaddedToEight()
    let steps = padded / 8
    let output = OutputTransfer(coefficients)
    var lastRow = [UInt8](repeating: 0, count: width + 8)
    var samples: [UInt8] = []
    source.samples.withUnsafeBufferPointer { sourceBuffer in
      let sourceBase = sourceBuffer.baseAddress!
      lastRow.withUnsafeMutableBufferPointer {
        $0.baseAddress!.update(from: sourceBase + (source.height - 1) * width, count: width)
      }
      lastRow.withUnsafeBufferPointer { lastRow in
        weights.withUnsafeBufferPointer { weights in
          coefficients.starts.withUnsafeBufferPointer { starts in
            samples = ConvolutionKernels.writtenOutput(count: outputWidth * rows.count) { buffer in
              for (index, row) in rows.enumerated() {
                let sourceRow = row == source.height - 1 ? lastRow.baseAddress! : sourceBase + row * width
                let outputRow = buffer.baseAddress! + index * outputWidth
                let weights = weights.baseAddress!
                // A constant step count lets the optimizer unroll `dot` (2 steps for a 2× Lanczos3).
                switch steps {
                case 1: Self.row(sourceRow, outputRow, starts, weights, steps: 1, output: output)
                case 2: Self.row(sourceRow, outputRow, starts, weights, steps: 2, output: output)
                case 3: Self.row(sourceRow, outputRow, starts, weights, steps: 3, output: output)
                default: Self.row(sourceRow, outputRow, starts, weights, steps: steps, output: output)
                }
              }
            }
          }
        }
      }
    }
    return SamplePlane(width: outputWidth, height: rows.count, samples: samples)
  }

  /// One output row: four samples per step share one transpose-add and one 4-byte store.
  @inline(__always)
  private static func row(
    _ sourceRow: UnsafePointer<UInt8>, _ outputRow: UnsafeMutablePointer<UInt8>,
    _ starts: UnsafeBufferPointer<Int>, _ weights: UnsafePointer<Int16>, steps: Int, output: OutputTransfer
  ) {
    let outputWidth = starts.count
    let padded = steps * 8
    var x = 0
    while x + 4 <= outputWidth {
      let first = dot(sourceRow + starts[x], weights + x * padded, steps: steps)
      let second = dot(sourceRow + starts[x + 1], weights + (x + 1) * padded, steps: steps)
      let third = dot(sourceRow + starts[x + 2], weights + (x + 2) * padded, steps: steps)
      let fourth = dot(sourceRow + starts[x + 3], weights + (x + 3) * padded, steps: steps)
      let low =
        SIMD4(first[0], second[0], first[2], second[2]) &+ SIMD4(first[1], second[1], first[3], second[3])
      let high =
        SIMD4(third[0], fourth[0], third[2], fourth[2]) &+ SIMD4(third[1], fourth[1], third[3], fourth[3])
      let sums = SIMD4(low[0], low[1], high[0], high[1]) &+ SIMD4(low[2], low[3], high[2], high[3])
      UnsafeMutableRawPointer(outputRow + x).storeBytes(of: output.samples(sums), as: SIMD4<UInt8>.self)
      x += 4
    }
    while x < outputWidth {
      outputRow[x] = output.sample(
        dot(sourceRow + starts[x], weights + x * padded, steps: steps).wrappedSum())
      x += 1
    }
  }

  /// The four partial sums of one sample's window: 8 taps per step, one `pmaddwd` each.
  @inline(__always)
  private static func dot(_ samples: UnsafePointer<UInt8>, _ weights: UnsafePointer<Int16>, steps: Int)
    -> SIMD4<Int32>
  {
    var pointer = UnsafeRawPointer(samples)
    var weight = UnsafeRawPointer(weights)
    var sum = SIMD4<Int32>.zero
    for _ in 0..<steps {
      sum &+= ConvolutionKernels.multiplyAdd(
        pointer.loadUnaligned(as: SIMD8<UInt8>.self), weight.loadUnaligned(as: SIMD8<Int16>.self))
      pointer += 8
      weight += 16
    }
    return sum
  }

  /// The horizontal pass one tap at a time, for planes narrower than one SIMD step.
  private static func horizontalScalar(
    _ source: SamplePlane, rows: Range<Int>, coefficients: ResampleCoefficients
  ) -> SamplePlane {
    let outputWidth = coefficients.starts.count
    let taps = coefficients.taps
    let output = OutputTransfer(coefficients)
    var samples = [UInt8](repeating: 0, count: outputWidth * rows.count)
    for (index, row) in rows.enumerated() {
      for x in 0..<outputWidth {
        var sum: Int32 = 0
        for k in 0..<taps {
          sum +=
            Int32(source.samples[row * source.width + coefficients.starts[x] + k])
            * Int32(coefficients.weights[x * taps + k])
        }
        samples[index * outputWidth + x] = output.sample(sum)
      }
    }
    return SamplePlane(width: outputWidth, height: rows.count, samples: samples)
  }

  /// Convolves columns `columns`; `source` row 0 is source row `rowOffset` of the coefficients' axis.
  static func vertical(
    _ source: SamplePlane, rowOffset: Int, columns: Range<Int>, coefficients: ResampleCoefficients
  ) -> SamplePlane {
    let samples = ConvolutionKernels.verticalSamples(
      source.samples, stride: source.width, columns: columns, height: source.height, rowOffset: rowOffset,
      coefficients: coefficients)
    return SamplePlane(width: columns.count, height: coefficients.starts.count, samples: samples)
  }
}
