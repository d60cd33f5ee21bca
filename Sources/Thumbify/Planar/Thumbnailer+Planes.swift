extension Thumbnailer {
  /// The thumbnails made in Y′CbCr planes, or `nil` when the decoder, the
  /// encoder or the source does not support the planar path.
  ///
  /// Used when every variant is WebP (4:2:0): each variant resizes the decoded
  /// planes to its own output, chroma at half size. The placeholder comes from
  /// the first variant's planes.
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
      // Only when every variant is encoded from 4:2:0 planes (WebP): RGB outputs keep the RGB
      // path, whose chroma is what the reference measures (docs/imaging.md).
      guard variants.allSatisfy({ planarEncoder.acceptsPlanes(for: $0.encoding) }),
        let planes = try planarDecoder.decodePlanes(data, options: options)
      else { return nil }
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
      let planes = resampler.resize(decoded, geometry: geometry, chromaFactor: (2, 2))
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
