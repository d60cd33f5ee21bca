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
  public func rgb() -> PixelBuffer {
    let tables = range == .full ? ConversionTables.full : ConversionTables.limited
    let (width, height) = (luma.width, luma.height)
    let (fx, fy) = (max(1, chromaFactor.x), max(1, chromaFactor.y))
    let (chromaWidth, chromaHeight) = (cb.width, cb.height)
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
                          let c = chromaRow + min(column / fx, chromaWidth - 1)
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
  /// Y′ = 16 + Y·219/255, C′ = 128 + (C − 128)·224/255, rounded. A limited-range image is returned as is.
  public func limitedRange() -> YCbCrImage {
    guard range == .full else { return self }
    var result = self
    result.luma.samples = Self.map(luma.samples, ConversionTables.lumaToLimited)
    result.cb.samples = Self.map(cb.samples, ConversionTables.chromaToLimited)
    result.cr.samples = Self.map(cr.samples, ConversionTables.chromaToLimited)
    result.range = .limited
    return result
  }

  /// The full → limited range tables for luma and chroma.
  static var limitedRangeTables: (luma: [UInt8], chroma: [UInt8]) {
    (ConversionTables.lumaToLimited, ConversionTables.chromaToLimited)
  }

  /// `samples` through `table`.
  static func map(_ samples: [UInt8], _ table: [UInt8]) -> [UInt8] {
    table.withUnsafeBufferPointer { table in samples.map { table[Int($0)] } }
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

  static let lumaToLimited: [UInt8] = (0..<256).map { UInt8((16 + Double($0) * 219 / 255).rounded()) }
  static let chromaToLimited: [UInt8] = (0..<256).map {
    UInt8((128 + (Double($0) - 128) * 224 / 255).rounded())
  }
}
