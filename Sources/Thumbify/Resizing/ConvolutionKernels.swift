/// The inner loops of `Resampler`: integer multiply-adds over contiguous
/// memory, written so the optimizer vectorizes them (4 channels per SIMD
/// lane group horizontally, whole rows vertically).
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
    var pixels = [UInt8](repeating: 0, count: outputStride * rows.count)
    // The RGB kernel loads 4 bytes per pixel; the last source row gets a padded copy.
    var paddedLastRow = [UInt8](repeating: 0, count: sourceStride + 1)
    source.pixels.withUnsafeBufferPointer { sourceBuffer in
      guard let sourceBase = sourceBuffer.baseAddress else { return }
      if rows.upperBound == source.height, rows.count > 0 {
        paddedLastRow.withUnsafeMutableBufferPointer {
          $0.baseAddress!.update(from: sourceBase + (source.height - 1) * sourceStride, count: sourceStride)
        }
      }
      paddedLastRow.withUnsafeBufferPointer { padded in
        coefficients.weights.withUnsafeBufferPointer { weights in
          coefficients.starts.withUnsafeBufferPointer { starts in
            pixels.withUnsafeMutableBufferPointer { output in
              for (index, row) in rows.enumerated() {
                let sourceRow =
                  row == source.height - 1 ? padded.baseAddress! : sourceBase + row * sourceStride
                let outputRow = output.baseAddress! + index * outputStride
                if channels == 4 {
                  horizontalRow4(sourceRow, outputRow, starts, weights, taps: coefficients.taps)
                } else {
                  horizontalRow3(sourceRow, outputRow, starts, weights, taps: coefficients.taps)
                }
              }
            }
          }
        }
      }
    }
    return PixelBuffer(width: outputWidth, height: rows.count, channels: channels, pixels: pixels)
  }

  @inline(__always)
  private static func accumulate(
    _ sourceRow: UnsafePointer<UInt8>, _ start: Int, _ weights: UnsafePointer<Int16>, taps: Int,
    stride: Int
  ) -> SIMD4<UInt8> {
    var sum = SIMD4<Int32>(repeating: rounding)
    var pointer = UnsafeRawPointer(sourceRow + start * stride)
    var k = 0
    // Two taps per step: LLVM folds both 16-bit products into one `pmaddwd`.
    while k + 1 < taps {
      let first = SIMD4<Int32>(truncatingIfNeeded: pointer.loadUnaligned(as: SIMD4<UInt8>.self))
      let second = SIMD4<Int32>(truncatingIfNeeded: (pointer + stride).loadUnaligned(as: SIMD4<UInt8>.self))
      sum &+=
        first &* SIMD4<Int32>(repeating: Int32(weights[k])) &+ second
        &* SIMD4<Int32>(repeating: Int32(weights[k + 1]))
      pointer += 2 * stride
      k += 2
    }
    if k < taps {
      let pixel = SIMD4<Int32>(truncatingIfNeeded: pointer.loadUnaligned(as: SIMD4<UInt8>.self))
      sum &+= pixel &* SIMD4<Int32>(repeating: Int32(weights[k]))
    }
    sum &>>= SIMD4<Int32>(repeating: ResampleCoefficients.precisionBits)
    let clamped = sum.clamped(lowerBound: .zero, upperBound: SIMD4<Int32>(repeating: 255))
    return SIMD4<UInt8>(truncatingIfNeeded: clamped)
  }

  private static func horizontalRow4(
    _ sourceRow: UnsafePointer<UInt8>, _ outputRow: UnsafeMutablePointer<UInt8>,
    _ starts: UnsafeBufferPointer<Int>, _ weights: UnsafeBufferPointer<Int16>, taps: Int
  ) {
    let raw = UnsafeMutableRawPointer(outputRow)
    for x in 0..<starts.count {
      let value = accumulate(sourceRow, starts[x], weights.baseAddress! + x * taps, taps: taps, stride: 4)
      raw.storeBytes(of: value, toByteOffset: x * 4, as: SIMD4<UInt8>.self)
    }
  }

  private static func horizontalRow3(
    _ sourceRow: UnsafePointer<UInt8>, _ outputRow: UnsafeMutablePointer<UInt8>,
    _ starts: UnsafeBufferPointer<Int>, _ weights: UnsafeBufferPointer<Int16>, taps: Int
  ) {
    for x in 0..<starts.count {
      let value = accumulate(sourceRow, starts[x], weights.baseAddress! + x * taps, taps: taps, stride: 3)
      let output = outputRow + x * 3
      output[0] = value[0]
      output[1] = value[1]
      output[2] = value[2]
    }
  }

  /// Convolves columns; `source` row 0 is source row `rowOffset` of the coefficients' axis.
  static func vertical(_ source: PixelBuffer, rowOffset: Int, coefficients: ResampleCoefficients)
    -> PixelBuffer
  {
    let pixels = verticalSamples(
      source.pixels, stride: source.bytesPerRow, height: source.height, rowOffset: rowOffset,
      coefficients: coefficients)
    return PixelBuffer(
      width: source.width, height: coefficients.starts.count, channels: source.channels, pixels: pixels)
  }

  /// The vertical pass over rows of `stride` interleaved samples (any channel count, planes too).
  static func verticalSamples(
    _ samples: [UInt8], stride: Int, height: Int, rowOffset: Int, coefficients: ResampleCoefficients
  ) -> [UInt8] {
    let outputHeight = coefficients.starts.count
    let taps = coefficients.taps
    var pixels = [UInt8](repeating: 0, count: stride * outputHeight)
    var sums = [Int32](repeating: 0, count: stride)
    samples.withUnsafeBufferPointer { sourceBuffer in
      sums.withUnsafeMutableBufferPointer { sums in
        pixels.withUnsafeMutableBufferPointer { output in
          for y in 0..<outputHeight {
            for i in 0..<stride { sums[i] = rounding }
            let start = coefficients.starts[y] - rowOffset
            for k in 0..<taps {
              let weight = Int32(coefficients.weights[y * taps + k])
              let row = start + k
              if weight == 0 || row < 0 || row >= height { continue }
              let sourceRow = sourceBuffer.baseAddress! + row * stride
              for i in 0..<stride { sums[i] &+= Int32(sourceRow[i]) &* weight }
            }
            let outputRow = output.baseAddress! + y * stride
            for i in 0..<stride {
              let value = sums[i] &>> ResampleCoefficients.precisionBits
              outputRow[i] = UInt8(truncatingIfNeeded: min(max(value, 0), 255))
            }
          }
        }
      }
    }
    return pixels
  }
}
