/// The production decoder: sniffs the format from the bytes and dispatches to the format's decoder.
///
/// ```swift
/// let image = try ImageDecoder().decode(bytes, options: DecodeOptions(target: Size(width: 600, height: 315)))
/// ```
///
/// It enforces ``DecodeOptions/maxBytes`` before looking at the data and each
/// format decoder checks ``DecodeOptions/maxPixels`` from the header before
/// allocating pixels. Output is upright (EXIF orientation applied) RGB, or RGBA
/// with straight alpha when at least one pixel is not fully opaque (an opaque
/// RGBA decode is reduced to RGB). See docs/decoding.md for the formats and rules.
package struct ImageDecoder: ImageDecoding {
  package init() {}

  /// Decodes `data`.
  ///
  /// - Throws: ``ImageError/tooLarge(bytes:limit:)``, ``ImageError/unsupportedFormat(_:)``,
  ///   ``ImageError/tooManyPixels(width:height:limit:)`` or ``ImageError/corrupt(format:message:)``.
  package func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
    guard data.count <= options.maxBytes else { throw .tooLarge(bytes: data.count, limit: options.maxBytes) }
    guard let format = ImageFormat(sniffing: data) else { throw .unsupportedFormat(nil) }
    guard let decoder = Self.decoder(for: format) else { throw .unsupportedFormat(format) }
    var image = try decoder.decode(data, options: options)
    if image.buffer.hasAlpha && image.buffer.isOpaque {
      image.buffer = image.buffer.droppingAlpha()
    }
    return image
  }

  /// The decoder for `format`, or `nil` for formats that are recognised but not decoded.
  static func decoder(for format: ImageFormat) -> (any ImageDecoding)? {
    switch format {
    case .jpeg: JPEGDecoder()
    case .png: PNGDecoder()
    case .webp: WebPDecoder()
    case .gif: GIFDecoder()
    case .ico, .cur: ICODecoder(format: format)
    case .bmp: BMPDecoder()
    case .avif: AVIFDecoder()
    case .svg: SVGDecoder()
    case .heic: nil
    }
  }
}
