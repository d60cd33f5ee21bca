import CWebP

extension WebPDecoder {
  /// Decodes an opaque still WebP to its 4:2:0 Y′CbCr planes at full size, for the resizer
  /// to shrink; `nil` for alpha, animation, an ICC profile other than sRGB, or more than
  /// ``fullSizePlanesLimit`` pixels (those keep the RGB path).
  ///
  /// libwebp's scaled decode (the RGB path) costs more than the decode itself: its
  /// area-averaging rescaler runs over every source row. Here `WebPDecode` writes the
  /// bitstream's own limited-range planes (`MODE_YUV`; a lossless bitstream is converted
  /// by libwebp), skipping the in-loop deblocking filter where libwebp's scaled decode
  /// skips it (a reduction below 3/4 of both sides). Measured in docs/imaging.md.
  ///
  /// - Throws: ``ImageError/tooManyPixels(width:height:limit:)`` or ``ImageError/corrupt(format:message:)``.
  func decodePlanes(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedPlanes? {
    let features = try Self.features(of: data)
    let stored = Size(width: Int(features.width), height: Int(features.height))
    try options.checkPixels(stored, format: .webp)
    let chunks = WebPChunks(data)
    guard features.has_animation == 0, features.has_alpha == 0,
      stored.width * stored.height <= fullSizePlanesLimit,
      // Planes are sRGB's: a profile that needs converting goes the RGB path, which converts it.
      !ColorManagement.needsConversion(chunks.profile)
    else { return nil }
    let orientation = chunks.orientation
    let scaled = Self.scaledSize(
      stored, required: ShrinkOnLoad.requiredSize(stored: stored, orientation: orientation, options: options))
    let planes = try Self.decodePlanes(
      data, size: stored, bypassFiltering: Self.bypassesFiltering(stored: stored, scaled: scaled))
    return DecodedPlanes(
      image: planes.oriented(orientation), format: .webp, originalSize: orientation.upright(stored),
      profile: chunks.profile.map(ColorManagement.unconverted))
  }

  /// Whether a decode for a `scaled` thumbnail skips the in-loop filter: libwebp's own rule for
  /// its scaled decode (`WebPIoInitFromOptions`), in its integer arithmetic. A reduction that far
  /// averages the block edges the filter would smooth.
  static func bypassesFiltering(stored: Size, scaled: Size) -> Bool {
    scaled.width < stored.width * 3 / 4 && scaled.height < stored.height * 3 / 4
  }

  /// Decodes a still bitstream of `size` to limited-range 4:2:0 planes.
  ///
  /// The corresponding C function is `WebPDecode` with `MODE_YUV` output.
  static func decodePlanes(_ data: [UInt8], size: Size, bypassFiltering: Bool) throws(ImageError)
    -> YCbCrImage
  {
    let chroma = YCbCrImage.chromaSize(of: size, factor: (2, 2))
    var luma = [UInt8](repeating: 0, count: size.width * size.height)
    var cb = [UInt8](repeating: 0, count: chroma.width * chroma.height)
    var cr = cb
    try decode(data, size: size) { config in
      config.options.bypass_filtering = bypassFiltering ? 1 : 0
      config.output.colorspace = MODE_YUV
      return luma.withUnsafeMutableBufferPointer { luma in
        cb.withUnsafeMutableBufferPointer { cb in
          cr.withUnsafeMutableBufferPointer { cr in
            config.output.u.YUVA.y = luma.baseAddress
            config.output.u.YUVA.y_stride = Int32(size.width)
            config.output.u.YUVA.y_size = luma.count
            config.output.u.YUVA.u = cb.baseAddress
            config.output.u.YUVA.u_stride = Int32(chroma.width)
            config.output.u.YUVA.u_size = cb.count
            config.output.u.YUVA.v = cr.baseAddress
            config.output.u.YUVA.v_stride = Int32(chroma.width)
            config.output.u.YUVA.v_size = cr.count
            return WebPDecode(data, data.count, &config)
          }
        }
      }
    }
    return YCbCrImage(
      luma: SamplePlane(width: size.width, height: size.height, samples: luma),
      cb: SamplePlane(width: chroma.width, height: chroma.height, samples: cb),
      cr: SamplePlane(width: chroma.width, height: chroma.height, samples: cr),
      range: .limited, chromaFactor: (2, 2))
  }
}
