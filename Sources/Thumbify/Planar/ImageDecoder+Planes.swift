extension ImageDecoder: PlanarImageDecoding {
  /// Decodes YCbCr and grayscale JPEG to Y′CbCr planes; `nil` for everything else.
  ///
  /// Enforces ``DecodeOptions/maxBytes`` first, like ``decode(_:options:)``.
  /// Lossy WebP is not decoded to planes: tried (`MODE_YUV`), it saved no
  /// measurable time and its colours were further from the reference than the
  /// RGB path's where saturated colours clip (docs/imaging.md).
  ///
  /// - Throws: ``ImageError/tooLarge(bytes:limit:)``, ``ImageError/tooManyPixels(width:height:limit:)``
  ///   or ``ImageError/corrupt(format:message:)``.
  public func decodePlanes(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedPlanes? {
    guard data.count <= options.maxBytes else { throw .tooLarge(bytes: data.count, limit: options.maxBytes) }
    guard ImageFormat(sniffing: data) == .jpeg else { return nil }
    return try JPEGDecoder().decodePlanes(data, options: options)
  }
}
