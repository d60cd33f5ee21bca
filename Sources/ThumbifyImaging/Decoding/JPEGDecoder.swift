import CTurboJPEG

/// Decodes JPEG through TurboJPEG, shrinking on load by DCT scaling.
///
/// The decoder reads the header, checks the pixel limit, picks the smallest of
/// the 1/8, 1/4, 1/2 and 1 scales whose output still covers what the target
/// needs (``ShrinkOnLoad``), decodes straight into the output buffer, converts
/// CMYK/YCCK to RGB, converts from an embedded ICC profile to sRGB (``ColorManagement``), and applies
/// the EXIF orientation. Output is always RGB.
/// At 1/8 a progressive JPEG is decoded from its ``ProgressiveDCStream``.
///
/// Data that does not end with an EOI marker gets one appended before
/// decoding, so a file missing only its last two bytes (which browsers show)
/// decodes, while data cut inside a scan still trips libjpeg's "premature end
/// of data segment" warning and is reported as corrupt.
struct JPEGDecoder: ImageDecoding {
  /// The DCT scales considered: those TurboJPEG has fast paths for.
  static let scales: [(num: Int, denom: Int)] = TurboJPEGDecompressor.scalingFactors.filter {
    $0.num == 1 && [1, 2, 4, 8].contains($0.denom)
  }

  /// Hands `body` a decompressor, the data (with an EOI appended when it lacks one), its header
  /// (the pixel limit already checked) and its markers (EXIF orientation, ICC profile): the start of
  /// every JPEG decode.
  func withHeader<Result>(
    _ data: [UInt8], options: DecodeOptions,
    _ body: (TurboJPEGDecompressor, UnsafeBufferPointer<UInt8>, TurboJPEGDecompressor.Header, JPEGMarkers)
      throws(ImageError) -> Result
  ) throws(ImageError) -> Result {
    let markers = JPEGMarkers(data)
    let decompressor = try TurboJPEGDecompressor()
    let endOfImage: [UInt8] = [0xFF, 0xD9]
    let complete = data.suffix(2).elementsEqual(endOfImage) ? data : data + endOfImage
    return try complete.withUnsafeBufferPointer { (jpeg) throws(ImageError) -> Result in
      let header = try decompressor.header(jpeg)
      try options.checkPixels(header.size, format: .jpeg)
      return try body(decompressor, jpeg, header, markers)
    }
  }

  /// Calls `body` with the stream to decode at `scale`: at 1/8 a complete progressive JPEG's
  /// ``ProgressiveDCStream`` (the AC scans that decode cannot use emptied), otherwise `jpeg`.
  ///
  /// - Parameters:
  ///   - data: the JPEG as given (a rewrite needs its own EOI marker, so cut-off data is not rewritten).
  ///   - jpeg: the stream decoded otherwise (`data` with an EOI appended when it lacks one).
  ///   - isRawOutput: whether the decode is to Y′CbCr planes (`tjDecompressToYUVPlanes`).
  static func withStream<Result>(
    _ data: [UInt8], _ jpeg: UnsafeBufferPointer<UInt8>, scale: (num: Int, denom: Int), isRawOutput: Bool,
    _ body: (UnsafeBufferPointer<UInt8>) throws(ImageError) -> Result
  ) throws(ImageError) -> Result {
    guard scale == (1, 8),
      let reduced = ProgressiveDCStream.stream(
        data,
        emptiesACScans: { (component, maximum) in
          ProgressiveDCStream.isDecodedFromDC(component, maximum: maximum, isRawOutput: isRawOutput)
        })
    else { return try body(jpeg) }
    return try reduced.withUnsafeBufferPointer { (reduced) throws(ImageError) in try body(reduced) }
  }

  func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
    try withHeader(data, options: options) { (decompressor, jpeg, header, markers) throws(ImageError) in
      let orientation = markers.orientation
      let required = ShrinkOnLoad.requiredSize(
        stored: header.size, orientation: orientation, options: options,
        headroom: options.jpegShrinkHeadroom)
      let factor = ShrinkOnLoad.smallestFactor(stored: header.size, required: required, among: Self.scales)
      let size = ShrinkOnLoad.scaledSize(header.size, by: factor)
      let isCMYK =
        header.colorspace == Int32(TJCS_CMYK.rawValue) || header.colorspace == Int32(TJCS_YCCK.rawValue)
      var buffer: PixelBuffer
      var profile: SourceProfile?
      if isCMYK {
        var cmyk = [UInt8](repeating: 0, count: size.width * size.height * 4)
        try Self.withStream(data, jpeg, scale: factor, isRawOutput: false) { (jpeg) throws(ImageError) in
          try cmyk.withUnsafeMutableBufferPointer { (output) throws(ImageError) in
            try decompressor.decompress(jpeg, into: output, size: size, pixelFormat: TJPF_CMYK)
          }
        }
        if let embedded = markers.profile {
          let managed = ColorManagement.rgb(
            fromInvertedCMYK: cmyk, width: size.width, height: size.height, profile: embedded)
          profile = managed.profile
          buffer =
            managed.buffer
            ?? CMYKConversion.rgb(fromInvertedCMYK: cmyk, width: size.width, height: size.height)
        } else {
          buffer = CMYKConversion.rgb(fromInvertedCMYK: cmyk, width: size.width, height: size.height)
        }
      } else {
        var rgb = [UInt8](repeating: 0, count: size.width * size.height * 3)
        try Self.withStream(data, jpeg, scale: factor, isRawOutput: false) { (jpeg) throws(ImageError) in
          try rgb.withUnsafeMutableBufferPointer { (output) throws(ImageError) in
            try decompressor.decompress(jpeg, into: output, size: size, pixelFormat: TJPF_RGB)
          }
        }
        buffer = PixelBuffer(width: size.width, height: size.height, channels: 3, pixels: rgb)
        if let embedded = markers.profile { profile = ColorManagement.convert(&buffer, from: embedded) }
      }
      return DecodedImage(
        buffer: buffer.oriented(orientation), format: .jpeg, originalSize: orientation.upright(header.size),
        profile: profile)
    }
  }
}
