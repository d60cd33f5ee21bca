/// One plane of luma with four bits below the 8-bit level (sixteenths), for a resize that rounds once.
///
/// A tagged JPEG's planes are converted at the decode's size (``MatrixShaperConversion``), where its Y′
/// is known to a sixteenth of a level (``YCbCrImage/lumaSixteenths``). Resized as 8-bit planes, Y′ was
/// rounded three times: at the decode's size, between the two passes and at the end. Here the passes
/// read and write sixteenths (`Int16`, with room for the filter's ringing), and the samples are rounded
/// to 8 bits once, by ``narrowed(mapping:)`` (docs/imaging.md, "Sixteenths of luma for tagged JPEGs").
struct WidePlane: Sendable, Equatable {
  /// Bits below the 8-bit level.
  static let fractionBits = 4
  var width: Int
  var height: Int
  /// Sixteenths of a level, rows top to bottom; may leave 0…4080 by the filter's overshoot.
  var samples: [Int16]

  init(width: Int, height: Int, samples: [Int16]) {
    precondition(samples.count == width * height, "sample count does not match the size")
    self.width = width
    self.height = height
    self.samples = samples
  }

  /// The 8-bit plane, each sample rounded once: through `mapping`'s fixed point (the same total and
  /// bias as an 8-bit pass, four bits further down), or to the nearest level in 0…255.
  func narrowed(mapping: SampleMapping?) -> SamplePlane {
    let shift = ResampleCoefficients.precisionBits + Int32(Self.fractionBits)
    let (total, bias) =
      mapping.map { ($0.fixedPoint.total, $0.fixedPoint.bias << Int32(Self.fractionBits)) }
      ?? (ResampleCoefficients.one, ConvolutionKernels.rounding << Int32(Self.fractionBits))
    let bounds = mapping?.bounds ?? 0...255
    let (lower, upper) = (bounds.lowerBound, bounds.upperBound)
    func narrow(_ values: SIMD8<Int32>) -> SIMD8<UInt8> {
      SIMD8(
        truncatingIfNeeded: ((values &* total &+ bias) &>> shift).clamped(
          lowerBound: SIMD8(repeating: lower), upperBound: SIMD8(repeating: upper)))
    }
    let count = samples.count
    let narrowed = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
      samples.withUnsafeBufferPointer { samples in
        guard count > 0 else { return }
        let (source, target) = (
          UnsafeRawPointer(samples.baseAddress!), UnsafeMutableRawPointer(output.baseAddress!)
        )
        var index = 0
        while index + 8 <= count {
          let values = SIMD8<Int32>(
            truncatingIfNeeded: source.loadUnaligned(fromByteOffset: 2 * index, as: SIMD8<Int16>.self))
          target.storeBytes(of: narrow(values), toByteOffset: index, as: SIMD8<UInt8>.self)
          index += 8
        }
        while index < count {
          output[index] = narrow(SIMD8(repeating: Int32(samples[index])))[0]
          index += 1
        }
      }
      initialized = count
    }
    return SamplePlane(width: width, height: height, samples: narrowed)
  }
}

extension WidePlane: SeparablyResamplable {
  func horizontalPass(rows: Range<Int>, coefficients: ResampleCoefficients) -> WidePlane {
    WidePlaneKernels.horizontal(self, rows: rows, coefficients: coefficients)
  }

  func verticalPass(rowOffset: Int, columns: Range<Int>, coefficients: ResampleCoefficients) -> WidePlane {
    WidePlaneKernels.vertical(self, rowOffset: rowOffset, columns: columns, coefficients: coefficients)
  }

  /// Eight taps per `pmaddwd` either way (no widening), the horizontal pass with a transpose-add per
  /// four samples; counted from the kernels' instructions, not measured.
  static var horizontalCostPerTap: Double { 1.2 }

  func boxShrunk(by factor: Int) -> WidePlane {
    let shrunkWidth = max(1, width / factor)
    let shrunkHeight = max(1, height / factor)
    let (factorX, factorY) = (min(factor, width), min(factor, height))
    let area = Int32(factorX * factorY)
    var shrunk = [Int16](repeating: 0, count: shrunkWidth * shrunkHeight)
    for y in 0..<shrunkHeight {
      for x in 0..<shrunkWidth {
        var total = area / 2
        for row in (y * factorY)..<(y * factorY + factorY) {
          for column in (x * factorX)..<(x * factorX + factorX) {
            total += Int32(samples[row * width + column])
          }
        }
        shrunk[y * shrunkWidth + x] = Int16(total / area)
      }
    }
    return WidePlane(width: shrunkWidth, height: shrunkHeight, samples: shrunk)
  }
}

/// ``PlaneKernels`` for sixteenths: eight `Int16` taps per `pmaddwd`, sums rounded back to sixteenths
/// (not clamped: the next pass and ``WidePlane/narrowed(mapping:)`` see the overshoot, as the
/// double-precision reference does).
enum WidePlaneKernels {
  /// Convolves each row in `rows` horizontally; the result has `rows.count` rows.
  static func horizontal(_ source: WidePlane, rows: Range<Int>, coefficients: ResampleCoefficients)
    -> WidePlane
  {
    let outputWidth = coefficients.starts.count
    let width = source.width
    let (weights, padded) = coefficients.weightsPaddedToEight()
    // A window reads up to seven samples past its end with weight zero: each row is read from a copy
    // padded with zeroes (also for rows narrower than one step).
    var row = [Int16](repeating: 0, count: width + 8)
    var samples: [Int16] = []
    weights.withUnsafeBufferPointer { weights in
      samples = ConvolutionKernels.writtenOutput(count: outputWidth * rows.count) { output in
        for (index, sourceRow) in rows.enumerated() {
          row.withUnsafeMutableBufferPointer { row in
            source.samples.withUnsafeBufferPointer {
              row.baseAddress!.update(from: $0.baseAddress! + sourceRow * width, count: width)
            }
            let (line, outputRow) = (row.baseAddress!, output.baseAddress! + index * outputWidth)
            func window(_ x: Int) -> SIMD4<Int32> {
              dot(line + coefficients.starts[x], weights.baseAddress! + x * padded, steps: padded / 8)
            }
            var x = 0
            // Four samples per step share one transpose-add (as `PlaneKernels.row`).
            while x + 4 <= outputWidth {
              let (first, second, third, fourth) = (window(x), window(x + 1), window(x + 2), window(x + 3))
              let low =
                SIMD4(first[0], second[0], first[2], second[2])
                &+ SIMD4(first[1], second[1], first[3], second[3])
              let high =
                SIMD4(third[0], fourth[0], third[2], fourth[2])
                &+ SIMD4(third[1], fourth[1], third[3], fourth[3])
              let sums = SIMD4(low[0], low[1], high[0], high[1]) &+ SIMD4(low[2], low[3], high[2], high[3])
              let values = (sums &+ ConvolutionKernels.rounding) &>> ResampleCoefficients.precisionBits
              UnsafeMutableRawPointer(outputRow + x).storeBytes(
                of: SIMD4<Int16>(truncatingIfNeeded: values), as: SIMD4<Int16>.self)
              x += 4
            }
            while x < outputWidth {
              outputRow[x] = Self.sixteenths(window(x).wrappedSum())
              x += 1
            }
          }
        }
      }
    }
    return WidePlane(width: outputWidth, height: rows.count, samples: samples)
  }

  /// Convolves columns `columns`; `source` row 0 is source row `rowOffset` of the coefficients' axis.
  /// Eight samples per step, two taps at a time: two rows' samples interleaved and multiplied by
  /// (wₖ wₖ₊₁ …) in one `pmaddwd`.
  static func vertical(
    _ source: WidePlane, rowOffset: Int, columns: Range<Int>, coefficients: ResampleCoefficients
  ) -> WidePlane {
    let outputHeight = coefficients.starts.count
    let taps = coefficients.taps
    let count = columns.count
    let pairCount = (taps + 1) / 2
    var samples: [Int16] = []
    // Each output row's window: its rows (a tap outside the source, or the padding tap of an odd
    // count, reads row 0 with weight zero) and their weights in pairs.
    var rows = [UnsafePointer<Int16>?](repeating: nil, count: 2 * pairCount)
    var pairWeights = [SIMD8<Int16>](repeating: .zero, count: pairCount)
    source.samples.withUnsafeBufferPointer { sourceBuffer in
      samples = ConvolutionKernels.writtenOutput(count: count * outputHeight) { output in
        rows.withUnsafeMutableBufferPointer { rows in
          pairWeights.withUnsafeMutableBufferPointer { pairWeights in
            let base = sourceBuffer.baseAddress! + columns.lowerBound
            for y in 0..<outputHeight {
              let start = coefficients.starts[y] - rowOffset
              var pair = SIMD2<Int16>.zero
              for k in 0..<(2 * pairCount) {
                let sourceRow = start + k
                let isInside = k < taps && sourceRow >= 0 && sourceRow < source.height
                rows[k] = base + (isInside ? sourceRow * source.width : 0)
                pair[k % 2] = isInside ? coefficients.weights[y * taps + k] : 0
                if k % 2 == 1 {
                  pairWeights[k / 2] = SIMD8(
                    pair[0], pair[1], pair[0], pair[1], pair[0], pair[1], pair[0], pair[1])
                }
              }
              row(rows, pairWeights, output.baseAddress! + y * count, count: count)
            }
          }
        }
      }
    }
    return WidePlane(width: count, height: outputHeight, samples: samples)
  }

  /// One output row of the vertical pass, eight samples per step (one 16-byte load per source row).
  @inline(__always)
  private static func row(
    _ rows: UnsafeMutableBufferPointer<UnsafePointer<Int16>?>,
    _ pairWeights: UnsafeMutableBufferPointer<SIMD8<Int16>>,
    _ outputRow: UnsafeMutablePointer<Int16>, count: Int
  ) {
    var i = 0
    while i + 8 <= count {
      var low = SIMD4<Int32>(repeating: ConvolutionKernels.rounding)
      var high = low
      for j in 0..<pairWeights.count {
        let a = UnsafeRawPointer(rows[2 &* j]! + i).loadUnaligned(as: SIMD8<Int16>.self)
        let b = UnsafeRawPointer(rows[2 &* j &+ 1]! + i).loadUnaligned(as: SIMD8<Int16>.self)
        let weight = pairWeights[j]
        low &+= ConvolutionKernels.multiplyAdd(SIMD8(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]), weight)
        high &+= ConvolutionKernels.multiplyAdd(SIMD8(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]), weight)
      }
      let shift = SIMD4<Int32>(repeating: ResampleCoefficients.precisionBits)
      UnsafeMutableRawPointer(outputRow + i).storeBytes(
        of: SIMD8<Int16>(truncatingIfNeeded: SIMD8(lowHalf: low &>> shift, highHalf: high &>> shift)),
        as: SIMD8<Int16>.self)
      i += 8
    }
    while i < count {
      var sum: Int32 = 0
      for k in 0..<rows.count { sum &+= Int32(rows[k]![i]) &* Int32(pairWeights[k / 2][k % 2]) }
      outputRow[i] = sixteenths(sum)
      i += 1
    }
  }

  /// The four partial sums of one sample's window: eight taps per step, one `pmaddwd` each.
  @inline(__always)
  private static func dot(_ samples: UnsafePointer<Int16>, _ weights: UnsafePointer<Int16>, steps: Int)
    -> SIMD4<Int32>
  {
    var sum = SIMD4<Int32>.zero
    for step in 0..<steps {
      sum &+= ConvolutionKernels.multiplyAdd(
        UnsafeRawPointer(samples + 8 * step).loadUnaligned(as: SIMD8<Int16>.self),
        UnsafeRawPointer(weights + 8 * step).loadUnaligned(as: SIMD8<Int16>.self))
    }
    return sum
  }

  /// A 1.14 fixed-point sum of sixteenths, rounded to sixteenths.
  @inline(__always)
  private static func sixteenths(_ sum: Int32) -> Int16 {
    Int16(truncatingIfNeeded: (sum &+ ConvolutionKernels.rounding) &>> ResampleCoefficients.precisionBits)
  }
}
