import CTurboJPEG

extension JPEGDecoder {
  /// The chroma subsampling factors of TurboJPEG's subsampling codes (`tjMCUWidth`/`tjMCUHeight` ÷ 8).
  static func chromaFactor(subsampling: Int32) -> (x: Int, y: Int)? {
    switch subsampling {
    case Int32(TJSAMP_444.rawValue): (1, 1)
    case Int32(TJSAMP_422.rawValue): (2, 1)
    case Int32(TJSAMP_420.rawValue): (2, 2)
    case Int32(TJSAMP_440.rawValue): (1, 2)
    case Int32(TJSAMP_411.rawValue): (4, 1)
    case Int32(TJSAMP_GRAY.rawValue): (2, 2)  // no chroma: neutral planes at 4:2:0 size
    default: nil
    }
  }

  /// Decodes a YCbCr or grayscale JPEG to full-range Y′CbCr planes, shrinking on load like ``decode(_:options:)``.
  ///
  /// The corresponding C function is `tjDecompressToYUVPlanes`. A grayscale
  /// JPEG gets neutral (128) chroma planes. The EXIF orientation is applied to the planes.
  /// The scale is chosen so the chroma still covers a 4:2:0 thumbnail
  /// (``YCbCrImage/chromaCovering420(_:stored:source:)``).
  ///
  /// - Returns: `nil` for CMYK, YCCK and RGB JPEGs (their samples are not Y′CbCr), unknown
  ///   subsamplings and an ICC profile other than sRGB that is not matrix/TRC (a CLUT);
  ///   ``decode(_:options:)`` handles those. A matrix/TRC profile is converted here, at the decode's
  ///   size (``MatrixShaperConversion``).
  /// - Throws: the same errors as ``decode(_:options:)``.
  func decodePlanes(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedPlanes? {
    try withHeader(data, options: options) {
      (decompressor, jpeg, header, markers) throws(ImageError) -> DecodedPlanes? in
      let orientation = markers.orientation
      let isGray = header.colorspace == Int32(TJCS_GRAY.rawValue)
      // A matrix/TRC profile is converted on the planes below; any other that needs converting (a
      // CLUT) goes the RGB path, which converts it with Little CMS.
      let conversion = ColorManagement.planarConversion(markers.profile)
      guard header.colorspace == Int32(TJCS_YCbCr.rawValue) || isGray,
        conversion != nil || !ColorManagement.needsConversion(markers.profile),
        let factor = Self.chromaFactor(subsampling: header.subsampling)
      else { return nil }
      let required = YCbCrImage.chromaCovering420(
        ShrinkOnLoad.requiredSize(
          stored: header.size, orientation: orientation, options: options,
          headroom: options.jpegShrinkHeadroom),
        stored: header.size, source: isGray ? (1, 1) : factor)
      let scale = ShrinkOnLoad.smallestFactor(stored: header.size, required: required, among: Self.scales)
      let size = ShrinkOnLoad.scaledSize(header.size, by: scale)
      // TurboJPEG pads the luma plane to whole chroma samples (an even width for 4:2:0).
      let subsampling = isGray ? Int32(TJSAMP_GRAY.rawValue) : header.subsampling
      let padded = Size(
        width: Int(tjPlaneWidth(0, Int32(size.width), subsampling)),
        height: Int(tjPlaneHeight(0, Int32(size.height), subsampling)))
      let chroma = YCbCrImage.chromaSize(of: size, factor: factor)
      guard padded.width >= size.width, padded.height >= size.height,
        isGray
          || (Int(tjPlaneWidth(1, Int32(size.width), subsampling)) == chroma.width
            && Int(tjPlaneHeight(1, Int32(size.height), subsampling)) == chroma.height)
      else { return nil }
      var luma = [UInt8](repeating: 0, count: padded.width * padded.height)
      var cb = [UInt8](repeating: 128, count: chroma.width * chroma.height)
      var cr = cb
      try luma.withUnsafeMutableBufferPointer { (y) throws(ImageError) in
        try cb.withUnsafeMutableBufferPointer { (cb) throws(ImageError) in
          try cr.withUnsafeMutableBufferPointer { (cr) throws(ImageError) in
            let planes = isGray ? [y.baseAddress!] : [y.baseAddress!, cb.baseAddress!, cr.baseAddress!]
            let widths = isGray ? [padded.width] : [padded.width, chroma.width, chroma.width]
            try Self.withStream(data, jpeg, scale: scale, isRawOutput: true) { (jpeg) throws(ImageError) in
              try decompressor.decompressToPlanes(jpeg, into: planes, widths: widths, size: size)
            }
          }
        }
      }
      if padded != size { luma = Self.crop(luma, width: padded.width, to: size) }
      let image = YCbCrImage(
        luma: SamplePlane(width: size.width, height: size.height, samples: luma),
        cb: SamplePlane(width: chroma.width, height: chroma.height, samples: cb),
        cr: SamplePlane(width: chroma.width, height: chroma.height, samples: cr),
        range: .full, chromaFactor: factor)
      let sRGB = conversion.map { $0.conversion.apply(to: image) } ?? image
      return DecodedPlanes(
        image: sRGB.oriented(orientation), format: .jpeg, originalSize: orientation.upright(header.size),
        profile: conversion?.profile ?? markers.profile.map(ColorManagement.unconverted))
    }
  }

  /// The top-left `size` of a plane `width` samples wide.
  static func crop(_ samples: [UInt8], width: Int, to size: Size) -> [UInt8] {
    var result = [UInt8]()
    result.reserveCapacity(size.width * size.height)
    for row in 0..<size.height { result += samples[(row * width)..<(row * width + size.width)] }
    return result
  }
}
