/// The inner loops of `Resampler`: integer multiply-adds written so the
/// optimizer vectorizes them (two taps of 4 channels per `pmaddwd`
/// horizontally, two taps of 16 or 8 samples vertically).
enum ConvolutionKernels {
  static let rounding = Int32(1) << (ResampleCoefficients.precisionBits - 1)

  /// Convolves each row in `rows` horizontally; the result has `rows.count` rows.
  static func horizontal(_ source: PixelBuffer, rows: Range<Int>, coefficients: ResampleCoefficients)
    -> PixelBuffer
  {
    let channels = source.channels
    let outputWidth = coefficients.starts.count
    let outputStride = outputWidth * channels
    let sourceStride = source.bytesPerRow
    let pairs = tapPairs(coefficients)
    let transfer = OutputTransfer(coefficients)
    var pixels: [UInt8] = []
    // A window reads 4 bytes per pixel and, for an odd tap count, one pixel past
    // its end (weight zero): the last source row gets a padded copy.
    var paddedLastRow = [UInt8](repeating: 0, count: sourceStride + 2 * channels)
    source.pixels.withUnsafeBufferPointer { sourceBuffer in
      guard let sourceBase = sourceBuffer.baseAddress else { return }
      if rows.upperBound == source.height, rows.count > 0 {
        paddedLastRow.withUnsafeMutableBufferPointer {
          $0.baseAddress!.update(from: sourceBase + (source.height - 1) * sourceStride, count: sourceStride)
        }
      }
      paddedLastRow.withUnsafeBufferPointer { padded in
        pairs.withUnsafeBufferPointer { pairs in
          coefficients.starts.withUnsafeBufferPointer { starts in
            pixels = writtenOutput(count: outputStride * rows.count) { output in
              for (index, row) in rows.enumerated() {
                let sourceRow =
                  row == source.height - 1 ? padded.baseAddress! : sourceBase + row * sourceStride
                horizontalRow(
                  sourceRow, output.baseAddress! + index * outputStride, starts, pairs,
                  pairsPerSample: pairs.count / max(1, outputWidth), channels: channels, transfer: transfer)
              }
            }
          }
        }
      }
    }
    return PixelBuffer(width: outputWidth, height: rows.count, channels: channels, pixels: pixels)
  }

  /// Each output sample's weights as consecutive pairs, the tap count padded to even with a zero weight.
  static func tapPairs(_ coefficients: ResampleCoefficients) -> [SIMD2<Int16>] {
    let taps = coefficients.taps
    let perSample = (taps + 1) / 2
    var pairs = [SIMD2<Int16>](repeating: .zero, count: coefficients.starts.count * perSample)
    for x in 0..<coefficients.starts.count {
      for k in 0..<taps { pairs[x * perSample + k / 2][k % 2] = coefficients.weights[x * taps + k] }
    }
    return pairs
  }

  /// One row of RGB or RGBA pixels, two taps per step.
  ///
  /// The two pixels' channels are interleaved into 16-bit lanes (r₀ r₁ g₀ g₁ …) and
  /// multiplied by (w₀ w₁ w₀ w₁ …) in one ``multiplyAdd(_:_:)``. `channels` stays a
  /// run-time value (hence `@inline(never)`): with a constant 3 the optimizer merges
  /// the two overlapping 4-byte loads into byte loads and shuffles, 1.6× slower.
  @inline(never)
  private static func horizontalRow(
    _ sourceRow: UnsafePointer<UInt8>, _ outputRow: UnsafeMutablePointer<UInt8>,
    _ starts: UnsafeBufferPointer<Int>, _ pairs: UnsafeBufferPointer<SIMD2<Int16>>, pairsPerSample: Int,
    channels: Int, transfer: OutputTransfer
  ) {
    for x in 0..<starts.count {
      var sum = SIMD4<Int32>(repeating: transfer.bias)
      var pointer = UnsafeRawPointer(sourceRow + starts[x] * channels)
      let weights = pairs.baseAddress! + x * pairsPerSample
      for j in 0..<pairsPerSample {
        let first = pointer.loadUnaligned(as: SIMD4<UInt8>.self)
        let second = (pointer + channels).loadUnaligned(as: SIMD4<UInt8>.self)
        let interleaved = SIMD8<UInt8>(
          first[0], second[0], first[1], second[1], first[2], second[2], first[3], second[3])
        let pair = weights[j]
        let weight = SIMD8<Int16>(pair[0], pair[1], pair[0], pair[1], pair[0], pair[1], pair[0], pair[1])
        sum &+= multiplyAdd(interleaved, weight)
        pointer += 2 * channels
      }
      sum &>>= SIMD4<Int32>(repeating: ResampleCoefficients.precisionBits)
      let value = SIMD4<UInt8>(
        truncatingIfNeeded: sum.clamped(
          lowerBound: SIMD4(repeating: transfer.lower),
          upperBound: SIMD4(repeating: transfer.lower &+ transfer.span)))
      let output = outputRow + x * channels
      output[0] = value[0]
      output[1] = value[1]
      output[2] = value[2]
      if channels == 4 { output[3] = value[3] }
    }
  }

  /// Convolves columns `columns`; `source` row 0 is source row `rowOffset` of the coefficients' axis.
  static func vertical(
    _ source: PixelBuffer, rowOffset: Int, columns: Range<Int>, coefficients: ResampleCoefficients
  ) -> PixelBuffer {
    let channels = source.channels
    let pixels = verticalSamples(
      source.pixels, stride: source.bytesPerRow,
      columns: (columns.lowerBound * channels)..<(columns.upperBound * channels), height: source.height,
      rowOffset: rowOffset, coefficients: coefficients)
    return PixelBuffer(
      width: columns.count, height: coefficients.starts.count, channels: channels, pixels: pixels)
  }

  /// The vertical pass over samples `columns` of rows of `stride` interleaved samples (any channel
  /// count, planes too); the result's rows are `columns.count` samples.
  ///
  /// Sixteen, then eight samples per step, two taps at a time: the two source rows' bytes are
  /// interleaved and multiplied by (wₖ wₖ₊₁ wₖ wₖ₊₁ …), whose even-plus-odd lane sums
  /// LLVM compiles to `pmaddwd`. The sums stay in registers for the whole window.
  static func verticalSamples(
    _ samples: [UInt8], stride: Int, columns: Range<Int>, height: Int, rowOffset: Int,
    coefficients: ResampleCoefficients
  ) -> [UInt8] {
    let outputHeight = coefficients.starts.count
    let taps = coefficients.taps
    let pairCount = (taps + 1) / 2
    let outputStride = columns.count
    guard height > 0, outputStride > 0 else {
      return [UInt8](repeating: 0, count: outputStride * outputHeight)
    }
    var pixels: [UInt8] = []
    let transfer = OutputTransfer(coefficients)
    var pairWeights = [SIMD8<Int16>](repeating: .zero, count: pairCount)
    samples.withUnsafeBufferPointer { sourceBuffer in
      let source = sourceBuffer.baseAddress! + columns.lowerBound
      var rows = [UnsafePointer<UInt8>](repeating: source, count: 2 * pairCount)
      pixels = writtenOutput(count: outputStride * outputHeight) { output in
        for y in 0..<outputHeight {
          let start = coefficients.starts[y] - rowOffset
          // A tap outside the source rows (or the padding tap) reads row 0 with weight zero.
          var weights = SIMD2<Int16>.zero
          for k in 0..<(2 * pairCount) {
            let row = start + k
            let isInside = k < taps && row >= 0 && row < height
            rows[k] = source + (isInside ? row * stride : 0)
            weights[k % 2] = isInside ? coefficients.weights[y * taps + k] : 0
            if k % 2 == 1 {
              pairWeights[k / 2] = SIMD8(
                weights[0], weights[1], weights[0], weights[1], weights[0], weights[1], weights[0], weights[1]
              )
            }
          }
          verticalRow(
            rows, pairWeights, output.baseAddress! + y * outputStride, count: outputStride, transfer: transfer
          )
        }
      }
    }
    return pixels
  }

  private static func verticalRow(
    _ rows: [UnsafePointer<UInt8>], _ pairWeights: [SIMD8<Int16>], _ outputRow: UnsafeMutablePointer<UInt8>,
    count: Int, transfer: OutputTransfer
  ) {
    // The bias is added by `transfer`, so the sums start at zero.
    rows.withUnsafeBufferPointer { rows in
      pairWeights.withUnsafeBufferPointer { pairWeights in
        var i = 0
        // Sixteen samples per step (one 16-byte load per row, four `pmaddwd`), then eight, then one.
        while i + 16 <= count {
          var sums = (SIMD4<Int32>.zero, SIMD4<Int32>.zero, SIMD4<Int32>.zero, SIMD4<Int32>.zero)
          for j in 0..<pairWeights.count {
            let a = UnsafeRawPointer(rows[2 &* j] + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let b = UnsafeRawPointer(rows[2 &* j &+ 1] + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let weight = pairWeights[j]
            sums.0 &+= multiplyAdd(SIMD8(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]), weight)
            sums.1 &+= multiplyAdd(SIMD8(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]), weight)
            sums.2 &+= multiplyAdd(SIMD8(a[8], b[8], a[9], b[9], a[10], b[10], a[11], b[11]), weight)
            sums.3 &+= multiplyAdd(SIMD8(a[12], b[12], a[13], b[13], a[14], b[14], a[15], b[15]), weight)
          }
          // Clamped as two halves: SIMD16<Int32>'s `clamped` is an out-of-line generic call.
          UnsafeMutableRawPointer(outputRow + i).storeBytes(
            of: SIMD16(
              lowHalf: transfer.samples(SIMD8(lowHalf: sums.0, highHalf: sums.1)),
              highHalf: transfer.samples(SIMD8(lowHalf: sums.2, highHalf: sums.3))),
            as: SIMD16<UInt8>.self)
          i += 16
        }
        while i + 8 <= count {
          var low = SIMD4<Int32>.zero
          var high = SIMD4<Int32>.zero
          for j in 0..<pairWeights.count {
            let first = UnsafeRawPointer(rows[2 * j] + i).loadUnaligned(as: SIMD8<UInt8>.self)
            let second = UnsafeRawPointer(rows[2 * j + 1] + i).loadUnaligned(as: SIMD8<UInt8>.self)
            let weight = pairWeights[j]
            low &+= multiplyAdd(
              SIMD8(first[0], second[0], first[1], second[1], first[2], second[2], first[3], second[3]),
              weight)
            high &+= multiplyAdd(
              SIMD8(first[4], second[4], first[5], second[5], first[6], second[6], first[7], second[7]),
              weight)
          }
          UnsafeMutableRawPointer(outputRow + i).storeBytes(
            of: transfer.samples(SIMD8(lowHalf: low, highHalf: high)), as: SIMD8<UInt8>.self)
          i += 8
        }
        while i < count {
          var sum: Int32 = 0
          for k in 0..<rows.count { sum &+= Int32(rows[k][i]) &* Int32(pairWeights[k / 2][k % 2]) }
          outputRow[i] = transfer.sample(sum)
          i += 1
        }
      }
    }
  }

  /// A kernel's output of `count` samples, every one written by `body`, with no zero-fill first
  /// (`Array(repeating:)`'s `memset` was ~0.6 % of a card's CPU time). Only for loops that write
  /// their whole output: the samples are uninitialised until `body` writes them.
  static func writtenOutput<Sample>(count: Int, _ body: (UnsafeMutableBufferPointer<Sample>) -> Void)
    -> [Sample]
  {
    [Sample](unsafeUninitializedCapacity: count) { buffer, initialized in
      body(buffer)
      initialized = count
    }
  }

  /// Lane i is samples[2i]·weights[2i] + samples[2i+1]·weights[2i+1]: the pattern LLVM
  /// compiles to one `pmaddwd`. (Adding the products' low and high halves instead gives
  /// two, each with half its lanes zero, and building the even and odd halves before
  /// multiplying gives byte loads.)
  @inline(__always)
  static func multiplyAdd(_ samples: SIMD8<UInt8>, _ weights: SIMD8<Int16>) -> SIMD4<Int32> {
    let product = SIMD8<Int32>(truncatingIfNeeded: samples) &* SIMD8<Int32>(truncatingIfNeeded: weights)
    return product.evenHalf &+ product.oddHalf
  }

  /// ``multiplyAdd(_:_:)`` for signed 16-bit samples (``WidePlaneKernels``): the same `pmaddwd`.
  @inline(__always)
  static func multiplyAdd(_ samples: SIMD8<Int16>, _ weights: SIMD8<Int16>) -> SIMD4<Int32> {
    let product = SIMD8<Int32>(truncatingIfNeeded: samples) &* SIMD8<Int32>(truncatingIfNeeded: weights)
    return product.evenHalf &+ product.oddHalf
  }
}

/// A pass's last step, shared by the RGB and plane kernels: a fixed-point sum plus the coefficients'
/// bias, shifted down and clamped to their bounds.
struct OutputTransfer {
  var bias: Int32
  var lower: Int32
  /// `upper − lower`.
  var span: Int32

  init(_ coefficients: ResampleCoefficients) {
    bias = coefficients.bias
    lower = coefficients.bounds.lowerBound
    span = coefficients.bounds.upperBound - coefficients.bounds.lowerBound
  }

  @inline(__always)
  func sample(_ sum: Int32) -> UInt8 {
    let value = (sum &+ bias) &>> ResampleCoefficients.precisionBits
    return UInt8(truncatingIfNeeded: min(max(value, lower), lower &+ span))
  }

  /// Four sums, clamped with sign masks: `clamped(lowerBound:upperBound:)` on SIMD4<Int32> stayed two
  /// out-of-line `pointwiseMin`/`pointwiseMax` calls per four samples, and compare-and-select made
  /// `PlaneKernels.row` too big to inline, losing the constant step counts (objdump, perf).
  @inline(__always)
  func samples(_ sums: SIMD4<Int32>) -> SIMD4<UInt8> {
    var values = ((sums &+ bias) &>> ResampleCoefficients.precisionBits) &- lower
    values &= ~(values &>> 31)  // below the bounds → 0
    let over = values &- span
    values &-= over & ~(over &>> 31)  // above → span
    return SIMD4<UInt8>(truncatingIfNeeded: values &+ lower)
  }

  /// Eight sums, clamped (the vertical kernels).
  @inline(__always)
  func samples(_ sums: SIMD8<Int32>) -> SIMD8<UInt8> {
    SIMD8<UInt8>(
      truncatingIfNeeded: ((sums &+ bias) &>> ResampleCoefficients.precisionBits).clamped(
        lowerBound: SIMD8(repeating: lower), upperBound: SIMD8(repeating: lower &+ span)))
  }
}
