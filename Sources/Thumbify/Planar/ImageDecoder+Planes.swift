extension ImageDecoder: PlanarImageDecoding {
  /// Decodes YCbCr and grayscale JPEG, and opaque PNG, to Y′CbCr planes; `nil` for everything else.
  ///
  /// Enforces ``DecodeOptions/maxBytes`` first, like ``decode(_:options:)``.
  /// A PNG is decoded to RGB by libpng as usual and converted at full size
  /// (``YCbCrImage/init(fullRange:)``), which costs less than resizing three
  /// interleaved channels; one with an alpha channel or tRNS keeps the RGB path
  /// (WebP keeps its alpha). Lossy WebP is not decoded to planes: tried
  /// (`MODE_YUV`), it saved no measurable time and its colours were further from
  /// the reference than the RGB path's where saturated colours clip (docs/imaging.md).
  ///
  /// - Throws: ``ImageError/tooLarge(bytes:limit:)``, ``ImageError/tooManyPixels(width:height:limit:)``
  ///   or ``ImageError/corrupt(format:message:)``.
  public func decodePlanes(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedPlanes? {
    guard data.count <= options.maxBytes else { throw .tooLarge(bytes: data.count, limit: options.maxBytes) }
    switch ImageFormat(sniffing: data) {
    case .jpeg:
      return try JPEGDecoder().decodePlanes(data, options: options)
    case .png where PNGDecoder.isOpaque(data):
      let decoded = try decode(data, options: options)
      guard !decoded.buffer.hasAlpha else { return nil }
      return DecodedPlanes(
        image: YCbCrImage(fullRange: decoded.buffer), format: .png, originalSize: decoded.originalSize)
    default:
      return nil
    }
  }
}
