import CTurboJPEG

extension JPEGEncoder {
  /// Encodes 4:2:0 Y′CbCr planes as baseline JPEG without going through RGB: JPEG stores these
  /// samples, so TurboJPEG runs only its forward DCT and entropy coder (no colour conversion, no
  /// chroma downsampling). Limited-range planes (a WebP's) are widened to JPEG's full range first.
  ///
  /// The corresponding C function is `tjCompressFromYUVPlanes`.
  package func encode(_ image: YCbCrImage, options: EncodeOptions) throws(ImageError) -> [UInt8] {
    let size = Size(width: image.width, height: image.height)
    let chroma = YCbCrImage.chromaSize(of: size, factor: (2, 2))
    guard image.chromaFactor == (2, 2), image.cb.width == chroma.width, image.cb.height == chroma.height,
      image.cr.width == chroma.width, image.cr.height == chroma.height, size.width > 0, size.height > 0
    else {
      throw .encodingFailed(format: .jpeg, message: "The planes are not 4:2:0 (\(image.chromaFactor)).")
    }
    let full = image.range == .full ? image : image.fullRange()
    // TurboJPEG reads the luma plane to whole chroma samples (an even width and height for 4:2:0).
    let padded = Size(width: chroma.width * 2, height: chroma.height * 2)
    let luma = padded == size ? full.luma.samples : Self.padded(full.luma, to: padded)
    return try Self.compress(options: options) { handle, quality, output, length in
      luma.withUnsafeBufferPointer { y in
        full.cb.samples.withUnsafeBufferPointer { cb in
          full.cr.samples.withUnsafeBufferPointer { cr in
            var planes: [UnsafePointer<UInt8>?] = [y.baseAddress, cb.baseAddress, cr.baseAddress]
            let strides: [Int32] = [Int32(padded.width), Int32(chroma.width), Int32(chroma.width)]
            return tjCompressFromYUVPlanes(
              handle, &planes, Int32(size.width), strides, Int32(size.height), Int32(TJSAMP_420.rawValue),
              &output, &length, quality, 0)
          }
        }
      }
    }
  }

  /// `plane` extended to `size` by repeating its last column and row.
  static func padded(_ plane: SamplePlane, to size: Size) -> [UInt8] {
    var result = [UInt8]()
    result.reserveCapacity(size.width * size.height)
    for row in 0..<size.height {
      let start = min(row, plane.height - 1) * plane.width
      result += plane.samples[start..<(start + plane.width)]
      if size.width > plane.width {
        result += repeatElement(plane.samples[start + plane.width - 1], count: size.width - plane.width)
      }
    }
    return result
  }
}

extension YCbCrImage {
  /// The same picture in full range (JPEG's): Y′ = (Y − 16)·255/219, C = 128 + (C′ − 128)·255/224, rounded
  /// and clipped; the inverse of ``limitedRangeMappings``' mapping up to rounding.
  func fullRange() -> YCbCrImage {
    guard range == .limited else { return self }
    func table(_ offset: Double, _ scale: Double, _ centre: Double) -> [UInt8] {
      (0...255).map { UInt8(min(max(((Double($0) - offset) * scale + centre).rounded(), 0), 255)) }
    }
    let lumaTable = table(16, 255 / 219, 0)
    let chromaTable = table(128, 255 / 224, 128)
    func mapped(_ plane: SamplePlane, _ table: [UInt8]) -> SamplePlane {
      SamplePlane(width: plane.width, height: plane.height, samples: plane.samples.map { table[Int($0)] })
    }
    return YCbCrImage(
      luma: mapped(luma, lumaTable), cb: mapped(cb, chromaTable), cr: mapped(cr, chromaTable), range: .full,
      chromaFactor: chromaFactor)
  }
}
