/// Opaque RGB to full-range Y′CbCr 4:2:0 planes, for sources stored as RGB (PNG) on the planar path.
extension YCbCrImage {
  /// BT.601 weights in 1.14 fixed point (each row sums to 16384, or to 0 for the chroma rows).
  static let lumaWeights: (r: Int32, g: Int32, b: Int32) = (4899, 9617, 1868)
  static let blueWeights: (r: Int32, g: Int32, b: Int32) = (-2765, -5427, 8192)
  static let redWeights: (r: Int32, g: Int32, b: Int32) = (8192, -6860, -1332)

  /// The full-range (JFIF) BT.601 planes of an RGB image, chroma subsampled 2×2.
  ///
  /// Y = 0.299 R + 0.587 G + 0.114 B; Cb and Cr come from the mean of each 2×2
  /// block (the last column or row of an odd size counted twice), centred on the
  /// block as JPEG's chroma is, so the plane resize treats both sources alike.
  /// The transform is affine and the resize linear, so converting first and
  /// resizing the planes is the RGB resize up to rounding; a 2×2 mean never leaves
  /// the RGB gamut, so nothing is clipped before the filter (docs/imaging.md).
  ///
  /// - Precondition: `rgb` has 3 channels.
  /// - Complexity: O(*n*) in the number of pixels.
  init(fullRange rgb: PixelBuffer) {
    precondition(rgb.channels == 3, "the planar path takes opaque RGB")
    let (width, height) = (rgb.width, rgb.height)
    let chroma = Self.chromaSize(of: Size(width: width, height: height), factor: (2, 2))
    var luma: [UInt8] = []
    var cb: [UInt8] = []
    var cr: [UInt8] = []
    rgb.pixels.withUnsafeBufferPointer { source in
      guard let source = source.baseAddress else { return }  // no pixels: empty planes
      luma = ConvolutionKernels.writtenOutput(count: width * height) { luma in
        for row in 0..<height {
          Self.lumaRow(source + row * width * 3, luma.baseAddress! + row * width, count: width, channels: 3)
        }
      }
      cr = ConvolutionKernels.writtenOutput(count: chroma.width * chroma.height) { cr in
        cb = ConvolutionKernels.writtenOutput(count: chroma.width * chroma.height) { cb in
          for row in 0..<chroma.height {
            Self.chromaRow(
              source + 2 * row * width * 3, source + min(2 * row + 1, height - 1) * width * 3,
              cb.baseAddress! + row * chroma.width, cr.baseAddress! + row * chroma.width, width: width,
              channels: 3)
          }
        }
      }
    }
    self.init(
      luma: SamplePlane(width: width, height: height, samples: luma),
      cb: SamplePlane(width: chroma.width, height: chroma.height, samples: cb),
      cr: SamplePlane(width: chroma.width, height: chroma.height, samples: cr),
      range: .full, chromaFactor: (2, 2))
  }

  /// One row of luma, four pixels per step, two pixels' (R, G, B, ·) per `pmaddwd`.
  ///
  /// `channels` stays a run-time value (hence `@inline(never)`), as in
  /// ``ConvolutionKernels``: with a constant 3 the optimizer turns the
  /// overlapping 4-byte loads into byte loads. A 4-byte load reads the next
  /// pixel's first byte, so the row's last pixel is done one at a time.
  @inline(never)
  private static func lumaRow(
    _ source: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, count: Int, channels: Int
  ) {
    let (r, g, b) = (Int16(lumaWeights.r), Int16(lumaWeights.g), Int16(lumaWeights.b))
    let weights = SIMD8<Int16>(r, g, b, 0, r, g, b, 0)
    var pointer = UnsafeRawPointer(source)
    var x = 0
    while x + 4 < count {
      let pixels = (
        pointer.loadUnaligned(as: SIMD4<UInt8>.self),
        pointer.loadUnaligned(fromByteOffset: channels, as: SIMD4<UInt8>.self),
        pointer.loadUnaligned(fromByteOffset: 2 &* channels, as: SIMD4<UInt8>.self),
        pointer.loadUnaligned(fromByteOffset: 3 &* channels, as: SIMD4<UInt8>.self)
      )
      let first = ConvolutionKernels.multiplyAdd(SIMD8(lowHalf: pixels.0, highHalf: pixels.1), weights)
      let second = ConvolutionKernels.multiplyAdd(SIMD8(lowHalf: pixels.2, highHalf: pixels.3), weights)
      let sums =
        SIMD4(first[0], first[2], second[0], second[2]) &+ SIMD4(first[1], first[3], second[1], second[3])
      UnsafeMutableRawPointer(output + x).storeBytes(
        of: SIMD4<UInt8>(truncatingIfNeeded: (sums &+ 8192) &>> 14), as: SIMD4<UInt8>.self)
      x &+= 4
      pointer += 4 &* channels
    }
    while x < count {
      let pixel = source + x &* channels
      output[x] = UInt8(
        truncatingIfNeeded: (lumaWeights.r &* Int32(pixel[0]) &+ lumaWeights.g &* Int32(pixel[1])
          &+ lumaWeights.b &* Int32(pixel[2]) &+ 8192) &>> 14)
      x &+= 1
    }
  }

  /// One row of Cb and Cr from two source rows: each 2×2 block's channel sums, then one
  /// `pmaddwd` for both chroma dot products.
  @inline(never)
  private static func chromaRow(
    _ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>, _ cb: UnsafeMutablePointer<UInt8>,
    _ cr: UnsafeMutablePointer<UInt8>, width: Int, channels: Int
  ) {
    let weights = SIMD8<Int16>(
      Int16(blueWeights.r), Int16(blueWeights.g), Int16(blueWeights.b), 0,
      Int16(redWeights.r), Int16(redWeights.g), Int16(redWeights.b), 0)
    let (upper, lower) = (UnsafeRawPointer(top), UnsafeRawPointer(bottom))
    let blocks = (width + 1) / 2
    // Blocks whose second pixel is not the row's last: their 4-byte loads stay inside the row.
    let vectorBlocks = (width - 1) / 2
    for j in 0..<vectorBlocks {
      let offset = 2 &* j &* channels
      func load(_ row: UnsafeRawPointer, _ offset: Int) -> SIMD4<Int16> {
        SIMD4<Int16>(truncatingIfNeeded: row.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self))
      }
      let sums =
        load(upper, offset) &+ load(upper, offset &+ channels) &+ load(lower, offset)
        &+ load(lower, offset &+ channels)
      // The even-plus-odd lane sums of 16-bit products: `pmaddwd`, as in `multiplyAdd`.
      let product =
        SIMD8<Int32>(truncatingIfNeeded: SIMD8(lowHalf: sums, highHalf: sums))
        &* SIMD8<Int32>(truncatingIfNeeded: weights)
      let products = product.evenHalf &+ product.oddHalf
      let values = Self.chroma(SIMD2(products[0], products[2]) &+ SIMD2(products[1], products[3]))
      cb[j] = values[0]
      cr[j] = values[1]
    }
    for j in vectorBlocks..<blocks {
      let left = 2 * j * channels
      let right = min(2 * j + 1, width - 1) * channels
      func sum(_ channel: Int) -> Int32 {
        Int32(top[left + channel]) + Int32(top[right + channel]) + Int32(bottom[left + channel])
          + Int32(bottom[right + channel])
      }
      let (r, g, b) = (sum(0), sum(1), sum(2))
      let values = Self.chroma(
        SIMD2(
          blueWeights.r * r + blueWeights.g * g + blueWeights.b * b,
          redWeights.r * r + redWeights.g * g + redWeights.b * b))
      cb[j] = values[0]
      cr[j] = values[1]
    }
  }

  /// Cb and Cr from the weighted sums of a block's four pixels (1.14 fixed point × 4):
  /// rounded with the half down, as libjpeg does, so +0.5 · 255 stays 255.
  @inline(__always)
  private static func chroma(_ sums: SIMD2<Int32>) -> SIMD2<UInt8> {
    SIMD2<UInt8>(truncatingIfNeeded: ((sums &+ 32767) &>> 16) &+ 128)
  }
}
