extension Thumbnailer {
  /// The thumbnails made in Y′CbCr planes, or `nil` when the decoder, the
  /// encoder or the source does not support the planar path.
  ///
  /// Each variant resizes the decoded planes to its own output, with chroma
  /// at half size for WebP and at full size for PNG/JPEG (converted to RGB at
  /// that size). The placeholder comes from the first variant's planes.
  func planarThumbnails(
    of data: [UInt8], source: String, variants: [ThumbnailVariant], options: DecodeOptions
  )
    throws(ThumbnailError) -> ThumbnailSet?
  {
    guard let planarDecoder = decoder as? any PlanarImageDecoding,
      let planarEncoder = encoder as? any PlanarImageEncoding
    else { return nil }
    let decoded: DecodedPlanes
    do {
      // The finest chroma any variant needs.
      let factors = variants.map { planarEncoder.chromaFactor(for: $0.encoding) }
      let finest = (x: factors.map(\.x).min() ?? 2, y: factors.map(\.y).min() ?? 2)
      guard let planes = try planarDecoder.decodePlanes(data, options: options, chromaFactor: finest) else {
        return nil
      }
      decoded = planes
    } catch {
      throw .image(error)
    }
    var placeholder: Placeholder?
    var thumbnails: [Thumbnail] = []
    for variant in variants {
      let geometry = ThumbnailGeometry(
        source: decoded.originalSize, box: variant.box, fit: variant.fit,
        allowsUpscaling: variant.allowsUpscaling)
      let planes = resampler.resize(
        decoded, geometry: geometry, chromaFactor: planarEncoder.chromaFactor(for: variant.encoding))
      if placeholder == nil { placeholder = Placeholder(planes: planes) }
      let encoded: [UInt8]
      do {
        encoded = try planarEncoder.encode(planes, options: variant.encoding)
      } catch {
        throw .image(error)
      }
      thumbnails.append(try stored(encoded, variant: variant, geometry: geometry))
    }
    let shown = placeholder ?? Placeholder(planes: decoded.image)
    return ThumbnailSet(
      source: source, width: decoded.originalSize.width, height: decoded.originalSize.height,
      placeholder: shown.thumbHash, color: shown.color, variants: thumbnails)
  }
}
