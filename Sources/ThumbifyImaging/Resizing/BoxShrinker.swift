/// Integer box reduction: each output pixel is the mean of a `factor`×`factor`
/// block, as libvips's `shrink` does before its final filtered reduce.
///
/// Trailing source rows and columns that do not fill a whole block are
/// dropped (at most `factor - 1` pixels, invisible after the reduction).
enum BoxShrinker {
  static func shrink(_ source: PixelBuffer, by factor: Int) -> PixelBuffer {
    let (width, height, pixels) = shrinkSamples(
      source.pixels, width: source.width, height: source.height, channels: source.channels, by: factor)
    return PixelBuffer(width: width, height: height, channels: source.channels, pixels: pixels)
  }

  /// The box reduction of `width`×`height` pixels of `channels` interleaved samples (1 for a plane).
  static func shrinkSamples(
    _ samples: [UInt8], width sourceWidth: Int, height sourceHeight: Int, channels: Int, by factor: Int
  ) -> (width: Int, height: Int, samples: [UInt8]) {
    let width = max(1, sourceWidth / factor)
    let height = max(1, sourceHeight / factor)
    let factorX = min(factor, sourceWidth)
    let factorY = min(factor, sourceHeight)
    let sourceStride = sourceWidth * channels
    let usedStride = width * factorX * channels
    let outputStride = width * channels
    let area = UInt32(factorX * factorY)
    var pixels = [UInt8](repeating: 0, count: outputStride * height)
    var columnSums = [UInt32](repeating: 0, count: usedStride)
    samples.withUnsafeBufferPointer { sourceBuffer in
      columnSums.withUnsafeMutableBufferPointer { sums in
        pixels.withUnsafeMutableBufferPointer { output in
          for y in 0..<height {
            for i in 0..<usedStride { sums[i] = 0 }
            for row in (y * factorY)..<(y * factorY + factorY) {
              let sourceRow = sourceBuffer.baseAddress! + row * sourceStride
              for i in 0..<usedStride { sums[i] &+= UInt32(sourceRow[i]) }
            }
            let outputRow = output.baseAddress! + y * outputStride
            for x in 0..<width {
              for channel in 0..<channels {
                var total: UInt32 = area / 2
                var index = x * factorX * channels + channel
                for _ in 0..<factorX {
                  total &+= sums[index]
                  index += channels
                }
                outputRow[x * channels + channel] = UInt8(truncatingIfNeeded: total / area)
              }
            }
          }
        }
      }
    }
    return (width, height, pixels)
  }
}
