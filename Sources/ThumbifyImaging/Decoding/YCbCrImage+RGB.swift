/// Colour conversions of ``YCbCrImage``: to RGB (BT.601, either range) and from full to limited range.
extension YCbCrImage {
  /// The image as RGB, each pixel taking the chroma sample that covers it.
  ///
  /// BT.601: R = Y + 1.402 (Cr − 128), G = Y − 0.344136 (Cb − 128) − 0.714136 (Cr − 128),
  /// B = Y + 1.772 (Cb − 128) on full-range samples; limited-range samples are
  /// expanded first (Y by 255/219 around 16, Cb and Cr by 255/224 around 128).
  /// 16.16 fixed point through lookup tables, rounded and clamped.
  ///
  /// Callers that care about chroma resolution resize the chroma planes to the
  /// luma size first (the thumbnailer does for PNG/JPEG output).
  ///
  /// - Complexity: O(*n*) in the number of pixels.
  package func rgb() -> PixelBuffer {
    let tables = range == .full ? ConversionTables.full : ConversionTables.limited
    let (width, height) = (luma.width, luma.height)
    let (fx, fy) = (max(1, chromaFactor.x), max(1, chromaFactor.y))
    let (chromaWidth, chromaHeight) = (cb.width, cb.height)
    // Each column's chroma sample, once: a division per pixel cost more than the conversion.
    let chromaColumns = (0..<width).map { min($0 / fx, chromaWidth - 1) }
    let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, initialized in
      luma.samples.withUnsafeBufferPointer { y in
        cb.samples.withUnsafeBufferPointer { cb in
          cr.samples.withUnsafeBufferPointer { cr in
            tables.y.withUnsafeBufferPointer { yTable in
              tables.crR.withUnsafeBufferPointer { crR in
                tables.cbG.withUnsafeBufferPointer { cbG in
                  tables.crG.withUnsafeBufferPointer { crG in
                    tables.cbB.withUnsafeBufferPointer { cbB in
                      var o = 0
                      for row in 0..<height {
                        let chromaRow = min(row / fy, chromaHeight - 1) * chromaWidth
                        for column in 0..<width {
                          let c = chromaRow + chromaColumns[column]
                          let base = yTable[Int(y[row * width + column])]
                          let blue = Int(cb[c])
                          let red = Int(cr[c])
                          out[o] = clamp(base &+ crR[red])
                          out[o + 1] = clamp(base &+ cbG[blue] &+ crG[red])
                          out[o + 2] = clamp(base &+ cbB[blue])
                          o += 3
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
      initialized = width * height * 3
    }
    return PixelBuffer(width: width, height: height, channels: 3, pixels: pixels)
  }

  /// The same image in limited ("studio") range, as the WebP encoder takes it.
  ///
  /// Y′ = 16 + Y·219/255, C′ = 128 + (C − 128)·224/255, rounded (`limitedRangeMappings`).
  /// A limited-range image is returned as is.
  package func limitedRange() -> YCbCrImage {
    guard range == .full else { return self }
    func mapped(_ plane: SamplePlane, _ mapping: RangeMapping) -> SamplePlane {
      guard !plane.samples.isEmpty else { return plane }
      let samples = ConvolutionKernels.writtenOutput(count: plane.samples.count) { output in
        Self.copy(plane, to: output.baseAddress!, stride: plane.width, mapping: mapping)
      }
      return SamplePlane(width: plane.width, height: plane.height, samples: samples)
    }
    var result = self
    result.luma = mapped(luma, Self.limitedRangeMappings.luma)
    result.cb = mapped(cb, Self.limitedRangeMappings.chroma)
    result.cr = mapped(cr, Self.limitedRangeMappings.chroma)
    result.range = .limited
    return result
  }

  /// The full → limited range mapping of luma and chroma as multiply-adds for ``copy(_:to:stride:mapping:)``.
  static let limitedRangeMappings = (
    luma: RangeMapping(multiplier: 56280, offset: 1_081_800),
    chroma: RangeMapping(multiplier: 57566, offset: 1_052_920)
  )

  /// A sample mapping `(sample · multiplier + offset) >> 16`, sixteen samples per step.
  ///
  /// The two ``limitedRangeMappings`` equal the rounded definitions for all 256 inputs (no
  /// input is a tie; tested), sixteen samples at a time where a table takes one.
  struct RangeMapping: Sendable {
    var multiplier: UInt32
    var offset: UInt32

    @inline(__always)
    func callAsFunction(_ sample: UInt8) -> UInt8 {
      UInt8(truncatingIfNeeded: (UInt32(sample) &* multiplier &+ offset) &>> 16)
    }

    @inline(__always)
    func callAsFunction(_ samples: SIMD16<UInt8>) -> SIMD16<UInt8> {
      let wide = SIMD16<UInt32>(truncatingIfNeeded: samples) &* multiplier &+ offset
      return SIMD16<UInt8>(truncatingIfNeeded: wide &>> 16)
    }
  }

  /// Copies `plane`'s rows into `destination` rows of `stride` bytes, through `mapping` if given.
  static func copy(
    _ plane: SamplePlane, to destination: UnsafeMutablePointer<UInt8>, stride: Int, mapping: RangeMapping?
  ) {
    plane.samples.withUnsafeBufferPointer { source in
      for row in 0..<plane.height {
        let input = source.baseAddress! + row * plane.width
        let output = destination + row * stride
        guard let mapping else {
          output.update(from: input, count: plane.width)
          continue
        }
        var x = 0
        while x + 16 <= plane.width {
          UnsafeMutableRawPointer(output + x).storeBytes(
            of: mapping(UnsafeRawPointer(input + x).loadUnaligned(as: SIMD16<UInt8>.self)),
            as: SIMD16<UInt8>.self)
          x += 16
        }
        while x < plane.width {
          output[x] = mapping(input[x])
          x += 1
        }
      }
    }
  }
}

@inline(__always)
private func clamp(_ value: Int32) -> UInt8 {
  UInt8(truncatingIfNeeded: min(max(value &>> 16, 0), 255))
}

/// The fixed-point lookup tables of the BT.601 conversions, one set per range.
private struct ConversionTables: Sendable {
  var y: [Int32]
  var crR: [Int32]
  var cbG: [Int32]
  var crG: [Int32]
  var cbB: [Int32]

  init(lumaScale: Double, lumaOffset: Double, chromaScale: Double) {
    func table(_ transform: (Double) -> Double) -> [Int32] {
      (0..<256).map { Int32((transform(Double($0)) * 65536).rounded()) }
    }
    // The rounding half is folded into the luma term.
    y = table { ($0 - lumaOffset) * lumaScale + 0.5 }
    crR = table { 1.402 * chromaScale * ($0 - 128) }
    cbG = table { -0.344136 * chromaScale * ($0 - 128) }
    crG = table { -0.714136 * chromaScale * ($0 - 128) }
    cbB = table { 1.772 * chromaScale * ($0 - 128) }
  }

  static let full = ConversionTables(lumaScale: 1, lumaOffset: 0, chromaScale: 1)
  static let limited = ConversionTables(lumaScale: 255 / 219, lumaOffset: 16, chromaScale: 255 / 224)

}
