import CWebP

/// Encodes lossy WebP with libwebp's advanced API.
///
/// Settings: the `photo`-neutral default preset at `quality` (80 unless set),
/// `method` 4 (libwebp's default speed/size trade-off), single-threaded so
/// the bytes are the same on every run. RGBA input keeps its alpha plane
/// (lossless alpha, as `cwebp` does).
///
/// The corresponding C function is `WebPEncode`.
package struct WebPEncoder: ImageEncoding {
  /// libwebp's speed/size trade-off, 0 (fast) to 6 (small), for encodes whose options give none
  /// (`EncodeOptions.webpMethod`).
  package var method: Int32

  package init(method: Int32 = 4) {
    self.method = method
  }

  package func encode(_ image: PixelBuffer, options: EncodeOptions) throws(ImageError) -> [UInt8] {
    try encodePicture(options: options) { (picture) throws(ImageError) in
      picture.width = Int32(image.width)
      picture.height = Int32(image.height)
      picture.use_argb = 0
      let stride = Int32(image.bytesPerRow)
      let imported = image.pixels.withUnsafeBufferPointer { pixels in
        image.hasAlpha
          ? WebPPictureImportRGBA(&picture, pixels.baseAddress, stride)
          : WebPPictureImportRGB(&picture, pixels.baseAddress, stride)
      }
      guard imported != 0 else {
        throw .encodingFailed(format: .webp, message: Self.message(for: picture.error_code))
      }
    }
  }

  /// Configures the encoder, lets `fill` size and fill a picture, and encodes it to memory.
  ///
  /// The corresponding C function is `WebPEncode`.
  func encodePicture(options: EncodeOptions, fill: (inout WebPPicture) throws(ImageError) -> Void)
    throws(ImageError) -> [UInt8]
  {
    var config = WebPConfig()
    guard thumbify_webp_config_init(&config) != 0 else {
      throw .encodingFailed(
        format: .webp, message: "libwebp rejected its own configuration (version mismatch).")
    }
    config.quality = Float(min(max(options.quality, 0), 100))
    config.method = options.webpMethod.map { Int32(min(max($0, 0), 6)) } ?? method
    config.thread_level = 0
    var picture = WebPPicture()
    guard thumbify_webp_picture_init(&picture) != 0 else {
      throw .encodingFailed(format: .webp, message: "libwebp could not initialise a picture.")
    }
    defer { WebPPictureFree(&picture) }
    try fill(&picture)
    var writer = WebPMemoryWriter()
    WebPMemoryWriterInit(&writer)
    defer { WebPMemoryWriterClear(&writer) }
    let status = withUnsafeMutablePointer(to: &writer) { writerPointer in
      picture.writer = WebPMemoryWrite
      picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
      return WebPEncode(&config, &picture)
    }
    guard status != 0, let memory = writer.mem else {
      throw .encodingFailed(format: .webp, message: Self.message(for: picture.error_code))
    }
    return Array(UnsafeBufferPointer(start: memory, count: writer.size))
  }

  /// libwebp's `WebPEncodingError` as a sentence (libwebp has no strerror).
  static func message(for error: WebPEncodingError) -> String {
    switch error {
    case VP8_ENC_ERROR_OUT_OF_MEMORY: "out of memory (VP8_ENC_ERROR_OUT_OF_MEMORY)."
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY:
      "out of memory flushing bits (VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY)."
    case VP8_ENC_ERROR_NULL_PARAMETER: "a pointer parameter is NULL (VP8_ENC_ERROR_NULL_PARAMETER)."
    case VP8_ENC_ERROR_INVALID_CONFIGURATION:
      "the configuration is invalid (VP8_ENC_ERROR_INVALID_CONFIGURATION)."
    case VP8_ENC_ERROR_BAD_DIMENSION: "the picture has invalid width or height (VP8_ENC_ERROR_BAD_DIMENSION)."
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW:
      "partition is bigger than 512k (VP8_ENC_ERROR_PARTITION0_OVERFLOW)."
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: "partition is bigger than 16M (VP8_ENC_ERROR_PARTITION_OVERFLOW)."
    case VP8_ENC_ERROR_BAD_WRITE: "error while flushing bytes (VP8_ENC_ERROR_BAD_WRITE)."
    case VP8_ENC_ERROR_FILE_TOO_BIG: "the file is bigger than 4 GiB (VP8_ENC_ERROR_FILE_TOO_BIG)."
    case VP8_ENC_ERROR_USER_ABORT: "aborted by the user (VP8_ENC_ERROR_USER_ABORT)."
    default: "libwebp error \(error.rawValue)."
    }
  }
}
