import CWebP

/// Decodes WebP (lossy, lossless, with or without alpha) through libwebp, shrinking on load with its scaled decode.
///
/// The header (`WebPGetFeatures`) is read first and the pixel limit checked;
/// then `WebPDecode` writes straight into the output buffer, scaled by
/// libwebp's area-averaging rescaler to the size ``ShrinkOnLoad`` requires.
/// The orientation in an `EXIF` chunk is applied, and an `ICCP` profile converted to sRGB
/// (``ColorManagement``). Output is RGBA when the
/// bitstream has alpha, RGB otherwise. For an animation, the first frame is decoded.
/// The planar path decodes opaque stills at full size instead (``decodePlanes(_:options:)``).
struct WebPDecoder: ImageDecoding {
  /// The largest still WebP, in pixels, that ``decodePlanes(_:options:)`` decodes at full size
  /// (4000×3000, 18 MB of planes); larger ones keep the scaled decode, which never holds the full frame.
  var fullSizePlanesLimit = 12_000_000

  func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
    let chunks = WebPChunks(data)
    let features = try Self.features(of: data)
    let stored = Size(width: Int(features.width), height: Int(features.height))
    try options.checkPixels(stored, format: .webp)
    if features.has_animation != 0 {
      return try decodeFirstFrame(data, chunks: chunks, canvas: stored, options: options)
    }
    let orientation = chunks.orientation
    let size = Self.scaledSize(
      stored, required: ShrinkOnLoad.requiredSize(stored: stored, orientation: orientation, options: options))
    var buffer = try Self.decodeBitstream(
      data, size: size, scaled: size != stored, hasAlpha: features.has_alpha != 0)
    let profile = chunks.profile.map { ColorManagement.convert(&buffer, from: $0) }
    return DecodedImage(
      buffer: buffer.oriented(orientation), format: .webp, originalSize: orientation.upright(stored),
      profile: profile)
  }

  /// The header's size, alpha and animation flags.
  ///
  /// The corresponding C function is `WebPGetFeatures`.
  static func features(of data: [UInt8]) throws(ImageError) -> WebPBitstreamFeatures {
    try data.withUnsafeBufferPointer { (webp) throws(ImageError) -> WebPBitstreamFeatures in
      var features = WebPBitstreamFeatures()
      let status = thumbify_webp_get_features(webp.baseAddress, webp.count, &features)
      guard status == VP8_STATUS_OK else { throw Self.error(status) }
      return features
    }
  }

  /// Decodes a still bitstream (a whole file, or an animation frame's `ALPH`+`VP8 `/`VP8L` chunks) at `size`.
  ///
  /// The corresponding C function is `WebPDecode`, with `use_scaling` when `scaled`.
  static func decodeBitstream(_ data: [UInt8], size: Size, scaled: Bool, hasAlpha: Bool) throws(ImageError)
    -> PixelBuffer
  {
    let channels = hasAlpha ? 4 : 3
    var pixels = [UInt8](repeating: 0, count: size.width * size.height * channels)
    try decode(data, size: size) { config in
      if scaled {
        config.options.use_scaling = 1
        config.options.scaled_width = Int32(size.width)
        config.options.scaled_height = Int32(size.height)
      }
      config.output.colorspace = hasAlpha ? MODE_RGBA : MODE_RGB
      return pixels.withUnsafeMutableBufferPointer { output in
        config.output.u.RGBA.rgba = output.baseAddress
        config.output.u.RGBA.stride = Int32(size.width * channels)
        config.output.u.RGBA.size = output.count
        return WebPDecode(data, data.count, &config)
      }
    }
    return PixelBuffer(width: size.width, height: size.height, channels: channels, pixels: pixels)
  }

  /// One `WebPDecode` into caller-owned memory: `body` sets the options and the output
  /// buffers of a fresh configuration (`is_external_memory` already set) and calls
  /// `WebPDecode`; then libwebp's side of the output is freed and the status and the
  /// frame's size are checked.
  static func decode(
    _ data: [UInt8], size: Size, _ body: (inout WebPDecoderConfig) -> VP8StatusCode
  ) throws(ImageError) {
    var config = WebPDecoderConfig()
    guard thumbify_webp_init_decoder_config(&config) != 0 else {
      throw .corrupt(format: .webp, message: "libwebp's decoder ABI does not match its header.")
    }
    config.output.is_external_memory = 1
    let status = body(&config)
    WebPFreeDecBuffer(&config.output)
    guard status == VP8_STATUS_OK else { throw error(status) }
    guard Int(config.output.width) == size.width, Int(config.output.height) == size.height else {
      throw .corrupt(
        format: .webp, message: "The frame is \(config.output.width)×\(config.output.height), not \(size).")
    }
  }

  /// The smallest size with `stored`'s aspect ratio (to within rounding) that covers `required`.
  static func scaledSize(_ stored: Size, required: Size) -> Size {
    let factor = max(
      Double(required.width) / Double(stored.width), Double(required.height) / Double(stored.height))
    guard factor < 1 else { return stored }
    return Size(
      width: min(stored.width, max(required.width, Int((Double(stored.width) * factor).rounded()))),
      height: min(stored.height, max(required.height, Int((Double(stored.height) * factor).rounded()))))
  }

  /// The error for a libwebp status, named as libwebp names it.
  static func error(_ status: VP8StatusCode) -> ImageError {
    let name: String
    switch status {
    case VP8_STATUS_OUT_OF_MEMORY: name = "VP8_STATUS_OUT_OF_MEMORY (out of memory)"
    case VP8_STATUS_INVALID_PARAM: name = "VP8_STATUS_INVALID_PARAM (invalid parameter)"
    case VP8_STATUS_BITSTREAM_ERROR: name = "VP8_STATUS_BITSTREAM_ERROR (the bitstream is corrupt)"
    case VP8_STATUS_UNSUPPORTED_FEATURE:
      name = "VP8_STATUS_UNSUPPORTED_FEATURE (a feature libwebp does not support)"
    case VP8_STATUS_SUSPENDED: name = "VP8_STATUS_SUSPENDED (decoding was suspended)"
    case VP8_STATUS_USER_ABORT: name = "VP8_STATUS_USER_ABORT (decoding was aborted)"
    case VP8_STATUS_NOT_ENOUGH_DATA: name = "VP8_STATUS_NOT_ENOUGH_DATA (the data is truncated)"
    default: name = "status \(status.rawValue)"
    }
    return .corrupt(format: .webp, message: "libwebp returned \(name).")
  }
}
