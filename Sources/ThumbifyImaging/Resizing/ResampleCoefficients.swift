import ThumbifySystem

/// An affine map of 8-bit samples a resize pass applies to its output (``ResampleCoefficients/mapped(by:)``).
struct SampleMapping: Sendable {
  var scale: Double
  var offset: Double
  var bounds: ClosedRange<Int32>

  /// The weights' total and the bias (in 1.14 fixed point, the rounding included) the last pass uses.
  ///
  /// The total nearest `scale` with the bias for which every flat sample 0…255 maps to its rounded
  /// definition (`offset + scale · v`, rounded), where one exists: rounding `scale` and `offset`
  /// separately to 14 bits flips samples that lie near a half level (chroma 165 → 160 for 161).
  let fixedPoint: (total: Int32, bias: Int32)

  init(scale: Double, offset: Double, bounds: ClosedRange<Int32>) {
    self.scale = scale
    self.offset = offset
    self.bounds = bounds
    let one = Double(ResampleCoefficients.one)
    let nearest = Int32((one * scale).rounded())
    var fixedPoint = (total: nearest, bias: Int32((one * offset).rounded()) + ConvolutionKernels.rounding)
    search: for total in [nearest, nearest - 1, nearest + 1, nearest - 2, nearest + 2] {
      // Each value v asks for a bias with R·2¹⁴ ≤ v·total + bias < (R + 1)·2¹⁴, R the rounded definition.
      var lowest = Int32.min
      var highest = Int32.max
      for value in Int32(0)...255 {
        let rounded = Int32((offset + scale * Double(value)).rounded())
        lowest = max(lowest, rounded << ResampleCoefficients.precisionBits - value * total)
        highest = min(highest, (rounded + 1) << ResampleCoefficients.precisionBits - value * total - 1)
      }
      if lowest <= highest {
        fixedPoint = (total, lowest + (highest - lowest) / 2)
        break search
      }
    }
    self.fixedPoint = fixedPoint
  }

  /// Full-range luma to limited ("studio") range: 16 + Y·219/255, in 16…235.
  static let limitedLuma = SampleMapping(scale: 219.0 / 255, offset: 16, bounds: 16...235)
  /// Full-range chroma to limited range: 128 + (C − 128)·224/255, in 16…240.
  static let limitedChroma = SampleMapping(
    scale: 224.0 / 255, offset: 128 - 128 * 224.0 / 255, bounds: 16...240)
}

/// The fixed-point weights for resampling one axis, computed once per resize.
///
/// Output sample `i` is `Σ weights[i * taps + k] * source[starts[i] + k]` for
/// `k` in `0..<taps`, with weights in 1.14 fixed point summing to exactly
/// `1 << 14`, so results are deterministic and the inner loops are integer
/// multiply-adds that vectorize (as in Pillow and libvips).
struct ResampleCoefficients: Sendable {
  /// Fixed-point precision of a weight.
  static let precisionBits: Int32 = 14
  static let one = Int32(1) << precisionBits

  /// First source index each output sample reads.
  var starts: [Int]
  /// `taps` weights per output sample (zero-padded where a sample needs fewer).
  var weights: [Int16]
  /// Weights per output sample.
  var taps: Int
  /// Added to each sum before the shift: the rounding, plus an offset when ``mapped(by:)``.
  var bias = ConvolutionKernels.rounding
  /// The range output samples are clamped to: 0…255, or the mapping's bounds when ``mapped(by:)``.
  var bounds: ClosedRange<Int32> = 0...255

  /// The coefficients `init` computes, from a process-wide cache of recent axes.
  ///
  /// Thumbnails of one corpus share a few axes (1200 → 600 px, each chroma
  /// plane the same as its twin), and the Lanczos weights' two `sin` calls per
  /// tap were ~1.5 % of a card's CPU time.
  static func cached(
    sourceLength: Int, offset: Double, span: Double, outputLength: Int, filter: ResampleFilter
  ) -> ResampleCoefficients {
    let key = Axis(
      sourceLength: sourceLength, offset: offset, span: span, outputLength: outputLength, filter: filter)
    if let coefficients = recent[key] { return coefficients }
    let coefficients = ResampleCoefficients(
      sourceLength: sourceLength, offset: offset, span: span, outputLength: outputLength, filter: filter)
    recent[key] = coefficients
    return coefficients
  }

  /// What the coefficients of an axis depend on.
  struct Axis: Hashable, Sendable {
    var sourceLength: Int
    var offset: Double
    var span: Double
    var outputLength: Int
    var filter: ResampleFilter
  }

  /// The source samples the windows read, `0..<length` at most.
  func sourceRange(length: Int) -> Range<Int> {
    guard let first = starts.min(), let last = starts.max() else { return 0..<0 }
    return first..<min(length, last + taps)
  }

  /// Each window's weights zero-padded to a multiple of eight taps, windows one after another: for the
  /// plane kernels' horizontal passes, which take eight taps per `pmaddwd`.
  func weightsPaddedToEight() -> (weights: [Int16], padded: Int) {
    let padded = (taps + 7) / 8 * 8
    var padding = [Int16](repeating: 0, count: starts.count * padded)
    for x in 0..<starts.count {
      for k in 0..<taps { padding[x * padded + k] = weights[x * taps + k] }
    }
    return (padding, padded)
  }

  /// The same windows with every start moved by `offset`: for a pass over part of the axis
  /// (`shifted(by: -first)` when sample `first` becomes sample 0).
  func shifted(by offset: Int) -> ResampleCoefficients {
    var shifted = self
    shifted.starts = starts.map { $0 + offset }
    return shifted
  }

  /// The same windows writing `mapping.offset + mapping.scale · sample`, clamped to `mapping.bounds`:
  /// the pass rounds once where resizing and then mapping the 8-bit result would round twice.
  ///
  /// Each window's weights are scaled and made to sum to the mapping's ``SampleMapping/fixedPoint``
  /// total exactly (as ``init`` makes them sum to one), so a flat area maps as the mapping says.
  func mapped(by mapping: SampleMapping) -> ResampleCoefficients {
    var mapped = self
    let total = mapping.fixedPoint.total
    for i in 0..<starts.count {
      let window = i * taps..<(i + 1) * taps
      var sum: Int32 = 0
      var largest = window.lowerBound
      for k in window {
        mapped.weights[k] = Int16(clamping: Int32((Double(weights[k]) * mapping.scale).rounded()))
        sum += Int32(mapped.weights[k])
        if abs(weights[k]) > abs(weights[largest]) { largest = k }
      }
      mapped.weights[largest] = Int16(clamping: Int32(mapped.weights[largest]) + total - sum)
    }
    mapped.bias = mapping.fixedPoint.bias
    mapped.bounds = mapping.bounds
    return mapped
  }

  /// At most ~64 axes of a few tens of KB each.
  private static let recent = LRUCache<Axis, ResampleCoefficients>(capacity: 64)

  /// Coefficients mapping the source span `[offset, offset + span)` of an axis
  /// of `sourceLength` pixels onto `outputLength` pixels.
  init(sourceLength: Int, offset: Double, span: Double, outputLength: Int, filter: ResampleFilter) {
    let scale = span / Double(outputLength)
    let filterScale = max(scale, 1)
    let support = filter.support * filterScale
    let taps = min(sourceLength, max(1, Int((support * 2).rounded(.up)) + 1))
    var starts = [Int](repeating: 0, count: outputLength)
    var weights = [Int16](repeating: 0, count: outputLength * taps)
    var real = [Double](repeating: 0, count: taps)
    for i in 0..<outputLength {
      let centre = offset + (Double(i) + 0.5) * scale
      var first = Int((centre - support).rounded(.down))
      first = min(max(first, 0), sourceLength - 1)
      let end = min(Int((centre + support).rounded(.up)), sourceLength, first + taps)
      var total = 0.0
      for k in 0..<taps {
        let index = first + k
        real[k] = index < end ? filter.weight((Double(index) + 0.5 - centre) / filterScale) : 0
        total += real[k]
      }
      if total == 0 {
        // A span narrower than a pixel between two centres: take the nearest pixel.
        real[0] = 1
        total = 1
      }
      var sum: Int32 = 0
      var largest = 0
      for k in 0..<taps {
        let fixed = Int32((real[k] / total * Double(Self.one)).rounded())
        weights[i * taps + k] = Int16(clamping: fixed)
        sum += Int32(weights[i * taps + k])
        if real[k] > real[largest] { largest = k }
      }
      // Make the weights sum to exactly one so flat areas stay flat.
      weights[i * taps + largest] = Int16(clamping: Int32(weights[i * taps + largest]) + Self.one - sum)
      starts[i] = first
    }
    // Keep every read inside the axis: shift windows that run past its end.
    for i in 0..<outputLength where starts[i] + taps > sourceLength {
      let shift = starts[i] + taps - sourceLength
      let base = i * taps
      for k in stride(from: taps - 1, through: 0, by: -1) {
        weights[base + k] = k >= shift ? weights[base + k - shift] : 0
      }
      starts[i] -= shift
    }
    self.starts = starts
    self.weights = weights
    self.taps = taps
  }
}
