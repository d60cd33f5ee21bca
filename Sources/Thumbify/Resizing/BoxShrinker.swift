/// Integer box reduction: each output pixel is the mean of a `factor`×`factor`
/// block, as libvips's `shrink` does before its final filtered reduce.
///
/// Trailing source rows and columns that do not fill a whole block are
/// dropped (at most `factor - 1` pixels, invisible after the reduction).
enum BoxShrinker {
  static func shrink(_ source: PixelBuffer, by factor: Int) -> PixelBuffer {
    let channels = source.channels
    let width = max(1, source.width / factor)
    let height = max(1, source.height / factor)
    let factorX = min(factor, source.width)
    let factorY = min(factor, source.height)
    let sourceStride = source.bytesPerRow
    let usedStride = width * factorX * channels
    let outputStride = width * channels
    let area = UInt32(factorX * factorY)
    var pixels = [UInt8](repeating: 0, count: outputStride * height)
    var columnSums = [UInt32](repeating: 0, count: usedStride)
    source.pixels.withUnsafeBufferPointer { sourceBuffer in
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
    return PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
  }
}
