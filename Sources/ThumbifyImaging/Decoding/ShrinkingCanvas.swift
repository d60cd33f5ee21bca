/// Collects a decoder's rows as they arrive and keeps only their box-shrunk image, so a decode
/// never holds the full-size picture (libvips's sequential access, for PNG and GIF).
///
/// Each output pixel is the mean of a `factor`×`factor` block, exactly as ``BoxShrinker`` (the
/// resampler's own pre-shrink) computes it from a full decode: trailing source rows and columns
/// that do not fill a block are dropped, colour is weighted by alpha. Rows that arrive top to
/// bottom need sums for one output row only; rows out of order (Adam7, interlaced GIF) keep sums
/// for the whole reduced image. With `factor` 1 rows are copied as they are.
///
/// Memory: the output (`width`·`height`·`channels` bytes) plus 4 bytes per output sample for the
/// sums of one row, or of every row when rows arrive out of order.
struct ShrinkingCanvas {
  let factor: Int
  let channels: Int
  /// The output size.
  let width: Int
  let height: Int
  private let rowsInOrder: Bool
  private var pixels: [UInt8]
  /// Per output sample: the sum of its block's samples, or for RGBA the sum of colour × alpha
  /// and of alpha (so transparent pixels' colours count for nothing).
  private var sums: [UInt32]
  /// The output row the sums of an in-order canvas belong to.
  private var sumsRow = 0

  /// The canvas's scale for ``DecodedImage/exactScale``: `nil` when nothing is shrunk.
  var exactScale: Double? { factor == 1 ? nil : 1 / Double(factor) }

  /// The largest `factor` that ``ShrinkingCanvas`` accepts: block sums of colour × alpha
  /// (at most 65025 each) then fit in 32 bits.
  static let maxFactor = 256

  /// - Parameters:
  ///   - source: The full size of the rows that will arrive.
  ///   - factor: 1…``maxFactor``; clamped to the source's sides.
  ///   - rowsInOrder: Whether every row arrives once, top to bottom (then only one row of sums is kept).
  init(source: Size, factor: Int, channels: Int, rowsInOrder: Bool) {
    let factor = max(1, min(factor, Self.maxFactor, source.width, source.height))
    self.factor = factor
    self.channels = channels
    self.width = source.width / factor
    self.height = source.height / factor
    self.rowsInOrder = rowsInOrder
    self.pixels = [UInt8](repeating: 0, count: width * height * channels)
    let sumRows = factor == 1 ? 0 : rowsInOrder ? 1 : height
    self.sums = [UInt32](repeating: 0, count: width * sumRows * channels)
  }

  /// The factor that box-shrinks an image of `size` as far as it can while the decode still covers
  /// what `options` ask for, with ``DecodeOptions/boxShrinkHeadroom`` left for the resampler.
  static func factor(for size: Size, orientation: ExifOrientation = .up, options: DecodeOptions) -> Int {
    let required = ShrinkOnLoad.requiredSize(
      stored: size, orientation: orientation, options: options, headroom: options.boxShrinkHeadroom)
    return max(1, min(size.width / max(1, required.width), size.height / max(1, required.height)))
  }

  /// Adds `count` pixels of row `y`, the i-th at column `x0 + i·step`; pixels outside the canvas are ignored.
  mutating func add(_ row: UnsafePointer<UInt8>, count: Int, y: Int, x0: Int = 0, step: Int = 1) {
    guard y >= 0, y < height * factor, count > 0 else { return }
    let (channels, width, factor) = (channels, width, factor)
    let usedWidth = width * factor
    if factor == 1 {
      pixels.withUnsafeMutableBufferPointer { out in
        let base = y * width * channels
        if step == 1 {
          let copied = max(0, min(count, usedWidth - x0))
          if copied > 0 {
            (out.baseAddress! + base + x0 * channels).update(from: row, count: copied * channels)
          }
          return
        }
        var x = x0
        for i in 0..<count where x < usedWidth {
          for c in 0..<channels { out[base + x * channels + c] = row[i * channels + c] }
          x += step
        }
      }
      return
    }
    let outputRow = y / factor
    if rowsInOrder && outputRow != sumsRow {
      flushSums(into: sumsRow)
      sumsRow = outputRow
    }
    sums.withUnsafeMutableBufferPointer { sums in
      let base = rowsInOrder ? 0 : outputRow * width * channels
      var x = x0
      var bin = x / factor
      var within = x - bin * factor
      for i in 0..<count {
        if x >= usedWidth { break }
        let source = row + i * channels
        let target = base + bin * channels
        if channels == 4 {
          let alpha = UInt32(source[3])
          sums[target] &+= UInt32(source[0]) * alpha
          sums[target + 1] &+= UInt32(source[1]) * alpha
          sums[target + 2] &+= UInt32(source[2]) * alpha
          sums[target + 3] &+= alpha
        } else {
          sums[target] &+= UInt32(source[0])
          sums[target + 1] &+= UInt32(source[1])
          sums[target + 2] &+= UInt32(source[2])
        }
        x += step
        within += step
        while within >= factor {
          within -= factor
          bin += 1
        }
      }
    }
  }

  /// The shrunk image; rows that never arrived are zero (transparent for RGBA, black for RGB).
  mutating func finish() -> PixelBuffer {
    if factor > 1 {
      if rowsInOrder {
        flushSums(into: sumsRow)
      } else {
        for row in 0..<height { flushSums(into: row) }
      }
    }
    let result = PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
    pixels = []
    sums = []
    return result
  }

  /// Writes the means of output row `row`'s sums into the pixels (and clears them for the next row).
  private mutating func flushSums(into row: Int) {
    guard row < height else { return }
    let area = UInt32(factor * factor)
    let stride = width * channels
    let sumsBase = rowsInOrder ? 0 : row * stride
    let channels = channels
    pixels.withUnsafeMutableBufferPointer { out in
      sums.withUnsafeMutableBufferPointer { sums in
        let outBase = row * stride
        var index = 0
        while index < stride {
          let s = sumsBase + index
          if channels == 4 {
            let alpha = sums[s + 3]
            for c in 0..<3 {
              out[outBase + index + c] =
                alpha == 0 ? 0 : UInt8(truncatingIfNeeded: (sums[s + c] + alpha / 2) / alpha)
            }
            out[outBase + index + 3] = UInt8(truncatingIfNeeded: (alpha + area / 2) / area)
          } else {
            for c in 0..<3 {
              out[outBase + index + c] = UInt8(truncatingIfNeeded: (sums[s + c] + area / 2) / area)
            }
          }
          for c in 0..<channels { sums[s + c] = 0 }
          index += channels
        }
      }
    }
  }
}
