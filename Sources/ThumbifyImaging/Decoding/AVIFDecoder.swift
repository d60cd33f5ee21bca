import CAvif

/// Decodes AVIF stills (and the first frame of an AVIF sequence) through libavif, with dav1d doing the AV1.
///
/// `avifDecoderParse` reads the boxes only (`ispe`, `irot`, `imir`, `pixi`, `av1C`); the pixel
/// limit is checked on that size before `avifDecoderNextImage` decodes a frame. 8-, 10- and
/// 12-bit sources are converted to 8-bit RGB (RGBA when there is an alpha item) by
/// `avifImageYUVToRGB`, which also rescales the depth and the range. AV1 has no scaled
/// decode, so the frame comes out at full size and the resampler does the rest.
///
/// Orientation comes from the `irot` and `imir` properties, applied once; an EXIF payload's
/// orientation tag is not applied on top, since MIAF (ISO/IEC 23000-22, 7.3.6.7) makes the
/// transformative properties the only ones a reader applies, as browsers do.
struct AVIFDecoder: ImageDecoding {
  func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
    guard let decoder = avifDecoderCreate() else {
      throw .corrupt(format: .avif, message: "libavif could not allocate a decoder.")
    }
    defer { avifDecoderDestroy(decoder) }
    // The crawl already runs a decode per core: more threads would only contend.
    decoder.pointee.maxThreads = 1
    decoder.pointee.ignoreXMP = AVIF_TRUE
    decoder.pointee.ignoreExif = AVIF_TRUE
    return try data.withUnsafeBufferPointer { (bytes) throws(ImageError) -> DecodedImage in
      try Self.check(avifDecoderSetIOMemory(decoder, bytes.baseAddress, bytes.count), decoder)
      try Self.check(avifDecoderParse(decoder), decoder)
      guard let header = decoder.pointee.image else {
        throw .corrupt(format: .avif, message: "libavif parsed the file but gave no image.")
      }
      let stored = Size(width: Int(header.pointee.width), height: Int(header.pointee.height))
      try options.checkPixels(stored, format: .avif)
      try Self.check(avifDecoderNextImage(decoder), decoder)
      guard let image = decoder.pointee.image else {
        throw .corrupt(format: .avif, message: "libavif decoded no frame.")
      }
      let size = Size(width: Int(image.pointee.width), height: Int(image.pointee.height))
      guard size == stored else {
        throw .corrupt(format: .avif, message: "The frame is \(size), not the \(stored) its header declares.")
      }
      let buffer = try Self.rgb(of: image, size: size)
      let orientation = Self.orientation(of: image.pointee)
      return DecodedImage(
        buffer: buffer.oriented(orientation), format: .avif, originalSize: orientation.upright(stored))
    }
  }

  /// The frame as 8-bit RGB, or RGBA (straight alpha) when it has an alpha plane.
  ///
  /// The corresponding C function is `avifImageYUVToRGB`.
  static func rgb(of image: UnsafeMutablePointer<avifImage>, size: Size) throws(ImageError) -> PixelBuffer {
    let hasAlpha = image.pointee.alphaPlane != nil
    let channels = hasAlpha ? 4 : 3
    var rgb = avifRGBImage()
    avifRGBImageSetDefaults(&rgb, image)
    rgb.depth = 8
    rgb.format = hasAlpha ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB
    rgb.rowBytes = UInt32(size.width * channels)
    var pixels = [UInt8](repeating: 0, count: size.width * size.height * channels)
    let result = pixels.withUnsafeMutableBufferPointer { output in
      rgb.pixels = output.baseAddress
      return avifImageYUVToRGB(image, &rgb)
    }
    guard result == AVIF_RESULT_OK else { throw error(result, detail: nil) }
    return PixelBuffer(width: size.width, height: size.height, channels: channels, pixels: pixels)
  }

  /// The EXIF orientation that does what the image's `irot` (then `imir`) properties say.
  ///
  /// `irot` turns the picture counter-clockwise by `angle` × 90°; `imir` then exchanges its top and
  /// bottom (`mode` 0, EXIF 4) or its left and right (`mode` 1, EXIF 2), as libavif's header says.
  static func orientation(of image: avifImage) -> ExifOrientation {
    let flags = image.transformFlags
    let angle = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.irot.angle % 4) : 0
    let mirror: Int? = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.imir.mode & 1) : nil
    return orientation(angle: angle, mirror: mirror)
  }

  /// The EXIF orientation of a counter-clockwise turn by `angle` × 90° followed by the `mirror` (see above).
  static func orientation(angle: Int, mirror: Int?) -> ExifOrientation {
    switch (angle, mirror) {
    case (0, nil): .up
    case (1, nil): .left
    case (2, nil): .down
    case (3, nil): .right
    case (0, 1), (2, 0): .upMirrored
    case (0, 0), (2, 1): .downMirrored
    case (1, 1), (3, 0): .rightMirrored
    default: .leftMirrored  // (1, 0), (3, 1)
    }
  }

  /// Throws unless `result` is `AVIF_RESULT_OK`.
  static func check(_ result: avifResult, _ decoder: UnsafeMutablePointer<avifDecoder>) throws(ImageError) {
    guard result != AVIF_RESULT_OK else { return }
    throw error(result, detail: diagnostic(decoder.pointee.diag))
  }

  /// The error for a libavif result, in libavif's words (`avifResultToString` and its diagnostic).
  static func error(_ result: avifResult, detail: String?) -> ImageError {
    let name = String(cString: avifResultToString(result))
    let suffix = detail.map { ": \($0)" } ?? ""
    return .corrupt(format: .avif, message: "libavif returned \(name)\(suffix).")
  }

  /// libavif's diagnostic message (a fixed-size C string), or `nil` when it left none.
  static func diagnostic(_ diag: avifDiagnostics) -> String? {
    var diag = diag
    let text = withUnsafeBytes(of: &diag.error) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    return text.isEmpty ? nil : text
  }
}
