import CAvif

/// Encodes lossy AVIF stills with libavif and libaom.
///
/// Settings: 8-bit 4:2:0 BT.601 (libavif's default matrix), full range, one quantizer for the
/// whole frame from `quality` (libavif 1.0's `quality` mapping, which Debian 12's 0.11 lacks:
/// quantizer = ⌊((100 − q) · 63 + 50) / 100⌋), the same for the alpha plane when there is one;
/// ``speed`` 8 (chosen by measurement, docs/imaging.md "AVIF output"), one thread, so the
/// bytes are the same on every run (a still AVIF has no timestamp: no `mvhd`).
///
/// The corresponding C function is `avifEncoderWrite`.
package struct AVIFEncoder: ImageEncoding {
  /// libaom's speed/size trade-off through libavif, 0 (slowest, smallest) to 10 (fastest).
  package var speed: Int32

  package init(speed: Int32 = 8) {
    self.speed = speed
  }

  /// The AV1 quantizer (0 lossless … 63 worst) for a quality of 1–100.
  static func quantizer(quality: Int) -> Int32 {
    let quality = min(max(quality, 1), 100)
    return Int32(((100 - quality) * 63 + 50) / 100)
  }

  package func encode(_ image: PixelBuffer, options: EncodeOptions) throws(ImageError) -> [UInt8] {
    guard
      let picture = avifImageCreate(UInt32(image.width), UInt32(image.height), 8, AVIF_PIXEL_FORMAT_YUV420)
    else { throw .encodingFailed(format: .avif, message: "libavif could not allocate an image.") }
    defer { avifImageDestroy(picture) }
    picture.pointee.yuvRange = AVIF_RANGE_FULL
    var rgb = avifRGBImage()
    avifRGBImageSetDefaults(&rgb, picture)
    rgb.depth = 8
    rgb.format = image.hasAlpha ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB
    rgb.rowBytes = UInt32(image.bytesPerRow)
    var pixels = image.pixels
    let converted = pixels.withUnsafeMutableBufferPointer { input in
      rgb.pixels = input.baseAddress
      return avifImageRGBToYUV(picture, &rgb)
    }
    try Self.check(converted, diag: nil)
    guard let encoder = avifEncoderCreate() else {
      throw .encodingFailed(format: .avif, message: "libavif could not allocate an encoder.")
    }
    defer { avifEncoderDestroy(encoder) }
    encoder.pointee.codecChoice = AVIF_CODEC_CHOICE_AOM
    encoder.pointee.maxThreads = 1
    encoder.pointee.speed = speed
    let quantizer = Self.quantizer(quality: options.quality)
    encoder.pointee.minQuantizer = quantizer
    encoder.pointee.maxQuantizer = quantizer
    encoder.pointee.minQuantizerAlpha = quantizer
    encoder.pointee.maxQuantizerAlpha = quantizer
    var output = avifRWData()
    let written = avifEncoderWrite(encoder, picture, &output)
    defer { avifRWDataFree(&output) }
    try Self.check(written, diag: encoder.pointee.diag)
    guard let bytes = output.data else {
      throw .encodingFailed(format: .avif, message: "libavif wrote no bytes.")
    }
    return Array(UnsafeBufferPointer(start: bytes, count: output.size))
  }

  /// Throws unless `result` is `AVIF_RESULT_OK`, with libavif's name for it and its diagnostic.
  static func check(_ result: avifResult, diag: avifDiagnostics?) throws(ImageError) {
    guard result != AVIF_RESULT_OK else { return }
    let name = String(cString: avifResultToString(result))
    let detail = diag.flatMap(AVIFDecoder.diagnostic).map { ": \($0)" } ?? ""
    throw .encodingFailed(format: .avif, message: "libavif returned \(name)\(detail).")
  }
}
