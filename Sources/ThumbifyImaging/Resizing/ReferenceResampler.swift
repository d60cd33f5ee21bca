/// A slow, double-precision resize: the quality reference `Resampler` is measured against.
///
/// The filter is applied at full support to every source pixel (no box
/// pre-shrink, no fixed-point rounding between passes), with alpha
/// premultiplied in floating point. Tests and benchmarks compare fast
/// resizes against it with `StructuralSimilarity`.
package struct ReferenceResampler: Sendable {
  package var filter: ResampleFilter

  package init(filter: ResampleFilter = .lanczos3) {
    self.filter = filter
  }

  /// The thumbnail `geometry` describes, computed from `image` at full source resolution.
  package func resize(_ image: PixelBuffer, geometry: ThumbnailGeometry) -> PixelBuffer {
    let channels = image.channels
    let (columns, rows) = axes(width: image.width, height: image.height, geometry: geometry)
    var source = [Double](repeating: 0, count: image.pixels.count)
    for pixel in 0..<(image.width * image.height) {
      let alpha = channels == 4 ? Double(image.pixels[pixel * 4 + 3]) / 255 : 1
      for channel in 0..<channels {
        let value = Double(image.pixels[pixel * channels + channel])
        source[pixel * channels + channel] = channel == 3 ? value : value * alpha
      }
    }
    let outputWidth = geometry.output.width
    var horizontal = [Double](repeating: 0, count: outputWidth * image.height * channels)
    for y in 0..<image.height {
      for (x, taps) in columns.enumerated() {
        for (index, weight) in taps {
          for channel in 0..<channels {
            horizontal[(y * outputWidth + x) * channels + channel] +=
              weight * source[(y * image.width + index) * channels + channel]
          }
        }
      }
    }
    var output = [UInt8](repeating: 0, count: outputWidth * geometry.output.height * channels)
    var sample = [Double](repeating: 0, count: channels)
    for (y, taps) in rows.enumerated() {
      for x in 0..<outputWidth {
        for channel in 0..<channels { sample[channel] = 0 }
        for (index, weight) in taps {
          for channel in 0..<channels {
            sample[channel] += weight * horizontal[(index * outputWidth + x) * channels + channel]
          }
        }
        let alpha = channels == 4 ? min(max(sample[3], 0), 255) / 255 : 1
        for channel in 0..<channels {
          var value = sample[channel]
          if channel < 3 && channels == 4 { value = alpha > 0 ? value / alpha : 0 }
          output[(y * outputWidth + x) * channels + channel] = UInt8(min(max(value.rounded(), 0), 255))
        }
      }
    }
    return PixelBuffer(width: outputWidth, height: geometry.output.height, channels: channels, pixels: output)
  }

  /// One plane's thumbnail at full support in double precision, neither rounded nor clamped: what the
  /// fixed-point plane resize approximates (tests measure its rounding against it).
  package func unroundedSamples(_ plane: SamplePlane, geometry: ThumbnailGeometry) -> [Double] {
    let (columns, rows) = axes(width: plane.width, height: plane.height, geometry: geometry)
    let width = geometry.output.width
    var horizontal = [Double](repeating: 0, count: width * plane.height)
    for y in 0..<plane.height {
      for (x, taps) in columns.enumerated() {
        for (index, weight) in taps {
          horizontal[y * width + x] += weight * Double(plane.samples[y * plane.width + index])
        }
      }
    }
    var output = [Double](repeating: 0, count: width * geometry.output.height)
    for (y, taps) in rows.enumerated() {
      for x in 0..<width {
        for (index, weight) in taps { output[y * width + x] += weight * horizontal[index * width + x] }
      }
    }
    return output
  }

  /// The horizontal and vertical ``weights(length:offset:span:count:)`` of a `width` × `height` source.
  private func axes(width: Int, height: Int, geometry: ThumbnailGeometry)
    -> (columns: [[(Int, Double)]], rows: [[(Int, Double)]])
  {
    let columns = weights(
      length: width, offset: geometry.region.x, span: geometry.region.width, count: geometry.output.width)
    let rows = weights(
      length: height, offset: geometry.region.y, span: geometry.region.height, count: geometry.output.height)
    return (columns, rows)
  }

  /// For each output sample, the (source index, normalised weight) pairs of the filter at full support.
  private func weights(length: Int, offset: Double, span: Double, count: Int) -> [[(Int, Double)]] {
    let scale = span / Double(count)
    let filterScale = max(scale, 1)
    let support = filter.support * filterScale
    return (0..<count).map { i in
      let centre = offset + (Double(i) + 0.5) * scale
      let first = max(0, Int((centre - support).rounded(.down)))
      let last = min(length - 1, Int((centre + support).rounded(.up)))
      var taps: [(Int, Double)] = []
      var total = 0.0
      for index in first...max(first, last) {
        let weight = filter.weight((Double(index) + 0.5 - centre) / filterScale)
        if weight != 0 { taps.append((index, weight)) }
        total += weight
      }
      if total == 0 { return [(min(max(Int(centre), 0), length - 1), 1)] }
      return taps.map { ($0.0, $0.1 / total) }
    }
  }
}
