extension ImageDecoder: PlanarImageDecoding {
  /// Decodes YCbCr and grayscale JPEG, opaque PNG and opaque still WebP to Y′CbCr planes;
  /// `nil` for everything else.
  ///
  /// Enforces ``DecodeOptions/maxBytes`` first, like ``decode(_:options:)``.
  /// A PNG is decoded to RGB by libpng as usual and converted at full size
  /// (`YCbCrImage.init(fullRange:)`), which costs less than resizing three
  /// interleaved channels; one with an alpha channel or tRNS keeps the RGB path
  /// (WebP keeps its alpha). A WebP gives libwebp's own planes at full size
  /// (`WebPDecoder.decodePlanes(_:options:)`).
  ///
  /// - Throws: ``ImageError/tooLarge(bytes:limit:)``, ``ImageError/tooManyPixels(width:height:limit:)``
  ///   or ``ImageError/corrupt(format:message:)``.
  package func decodePlanes(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedPlanes? {
    guard data.count <= options.maxBytes else { throw .tooLarge(bytes: data.count, limit: options.maxBytes) }
    switch ImageFormat(sniffing: data) {
    case .jpeg:
      return try JPEGDecoder().decodePlanes(data, options: options)
    case .webp:
      return try WebPDecoder().decodePlanes(data, options: options)
    case .png where PNGDecoder.isOpaque(data):
      let decoded = try decode(data, options: options)
      guard !decoded.buffer.hasAlpha else { return nil }
      return DecodedPlanes(
        image: YCbCrImage(fullRange: decoded.buffer), format: .png, originalSize: decoded.originalSize,
        exactScale: decoded.exactScale, profile: decoded.profile)
    default:
      return nil
    }
  }
}
