/// Makes a source image's thumbnails: decode once → resize per variant →
/// encode → store.
///
/// The source is decoded once, at the reduced scale (shrink-on-load) the
/// most demanding variant still allows, then every variant is resized from
/// that decode. Identical variant outputs share one blob (the store is
/// content-addressed). The placeholder and dominant colour are computed from
/// the first variant's pixels (what a page shows in that slot, and already
/// small, so no extra pass over the full decode).
///
/// YCbCr and grayscale JPEGs take the planar path when the decoder
/// and encoder support it (`PlanarImageDecoding`, `PlanarImageEncoding`):
/// decoded to Y′CbCr planes, each plane resized, WebP encoded from the planes,
/// when every variant is WebP or keeps a JPEG source JPEG (`keep-jpeg`, encoded from the
/// source's own planes). See docs/imaging.md.
///
/// ```swift
/// let thumbnailer = Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: "out"))
/// let set = try thumbnailer.thumbnails(of: bytes, source: "https://example.com/og.jpg",
///                                      variants: [.card, .card2x])
/// ```
package struct Thumbnailer: Sendable {
  package var decoder: any ImageDecoding
  package var encoder: any ImageEncoding
  package var store: any BlobStoring
  package var resampler: Resampler
  /// The pixel and byte limits decodes run with (the target is set per call).
  package var limits: DecodeOptions
  /// Whether sources stored as Y′CbCr are thumbnailed in planes (see the type's discussion).
  package var usesPlanarPath: Bool

  package init(
    decoder: any ImageDecoding, encoder: any ImageEncoding = ImageEncoder(), store: any BlobStoring,
    resampler: Resampler = Resampler(), limits: DecodeOptions = DecodeOptions(), usesPlanarPath: Bool = true
  ) {
    self.decoder = decoder
    self.encoder = encoder
    self.store = store
    self.resampler = resampler
    self.limits = limits
    self.usesPlanarPath = usesPlanarPath
  }

  /// The thumbnails of one source image, one per variant, in the order given.
  ///
  /// - Parameters:
  ///   - data: the encoded source image (any format the decoder sniffs).
  ///   - source: the image's URL or path, recorded in the result.
  ///   - variants: what to make; at least one.
  /// - Throws: `ThumbnailError.image` when the image cannot be decoded or
  ///   encoded, `.store` when a blob cannot be written.
  package func thumbnails(of data: [UInt8], source: String, variants: [ThumbnailVariant])
    throws(ThumbnailError)
    -> ThumbnailSet
  {
    var options = limits
    // Only looked at when a variant could use it: a few header bytes, no decode.
    let webReady = variants.contains(where: \.passesThrough) ? WebReadyImage.format(of: data) : nil
    let passThrough = webReady.map { PassThroughSource(bytes: data, format: $0) }
    // The source's format only matters to a variant that keeps a JPEG source JPEG (`keep-jpeg`).
    let sourceFormat = variants.contains { $0.jpegSourceQuality != nil } ? ImageFormat(sniffing: data) : nil
    let encodings = variants.map { $0.encoding(forSource: sourceFormat) }
    let hint = ThumbnailVariant.decodeTarget(for: variants)
    options.target = hint?.target
    options.fit = hint?.fit ?? .contain
    if usesPlanarPath, let planarDecoder = decoder as? any PlanarImageDecoding,
      let planarEncoder = encoder as? any PlanarImageEncoding,
      // Only when every variant is encoded from 4:2:0 planes (WebP, or JPEG from a JPEG source's own
      // planes): other RGB outputs keep the RGB path, whose chroma is what the reference measures
      // (docs/imaging.md).
      zip(variants, encodings).allSatisfy({ variant, encoding in
        planarEncoder.acceptsPlanes(for: encoding)
          || (variant.jpegSourceQuality != nil && sourceFormat == .jpeg)
      })
    {
      let planes: DecodedPlanes?
      do {
        planes = try planarDecoder.decodePlanes(data, options: options)
      } catch {
        throw .image(error)
      }
      if let planes {
        return try thumbnails(
          of: planes.image, originalSize: planes.originalSize, profile: planes.profile, source: source,
          passThrough: passThrough, variants: variants, encodings: encodings,
          // WebP takes limited range: the resize maps to it, rounding once (docs/imaging.md, "One rounding").
          resize: { geometry, encoding in
            resampler.resize(
              planes, geometry: geometry, chromaFactor: (2, 2),
              range: encoding.format == .webp ? .limited : nil)
          },
          placeholder: { Placeholder(planes: $0) },
          encode: { (image, options) throws(ImageError) in try planarEncoder.encode(image, options: options) }
        )
      }
    }
    let decoded: DecodedImage
    do {
      decoded = try decoder.decode(data, options: options)
    } catch {
      throw .image(error)
    }
    return try thumbnails(
      of: decoded.buffer, originalSize: decoded.originalSize, profile: decoded.profile, source: source,
      passThrough: passThrough, variants: variants, encodings: encodings,
      resize: { geometry, _ in resampler.resize(decoded, geometry: geometry) },
      placeholder: { Placeholder(image: $0) },
      encode: { (pixels, options) throws(ImageError) in try encoder.encode(pixels, options: options) })
  }

  /// The one variant loop of both paths: each variant resized from the decode, encoded, stored; the
  /// placeholder from the first variant's pixels (from the decode itself when there is no variant).
  private func thumbnails<Pixels>(
    of decoded: Pixels, originalSize: Size, profile: SourceProfile?, source: String,
    passThrough: PassThroughSource?, variants: [ThumbnailVariant], encodings: [EncodeOptions],
    resize: (ThumbnailGeometry, EncodeOptions) -> Pixels, placeholder: (Pixels) -> Placeholder,
    encode: (Pixels, EncodeOptions) throws(ImageError) -> [UInt8]
  ) throws(ThumbnailError) -> ThumbnailSet {
    var shown: Placeholder?
    var thumbnails: [Thumbnail] = []
    // The last encode of this picture: its bytes per pixel predict another variant's.
    var lastEncode: (bytes: Int, pixels: Int)?
    for (variant, encoding) in zip(variants, encodings) {
      let geometry = ThumbnailGeometry(
        source: originalSize, box: variant.box, fit: variant.fit, allowsUpscaling: variant.allowsUpscaling)
      let passable = variant.passesThrough ? passThrough?.fitting(geometry, originalSize: originalSize) : nil
      if let passable, let lastEncode, passable.isClearlySmaller(than: lastEncode, pixels: geometry.output) {
        if shown == nil { shown = placeholder(resize(geometry, encoding)) }
        thumbnails.append(
          try stored(passable.bytes, format: passable.format, variant: variant, geometry: geometry))
        continue
      }
      let pixels = resize(geometry, encoding)
      if shown == nil { shown = placeholder(pixels) }
      let encoded: [UInt8]
      do {
        encoded = try encode(pixels, encoding)
      } catch {
        throw .image(error)
      }
      lastEncode = (encoded.count, geometry.output.width * geometry.output.height)
      if let passable, passable.bytes.count < encoded.count {
        thumbnails.append(
          try stored(passable.bytes, format: passable.format, variant: variant, geometry: geometry))
      } else {
        thumbnails.append(try stored(encoded, format: encoding.format, variant: variant, geometry: geometry))
      }
    }
    let picked = shown ?? placeholder(decoded)
    return ThumbnailSet(
      source: source, width: originalSize.width, height: originalSize.height,
      placeholder: picked.thumbHash, color: picked.color, variants: thumbnails,
      profile: profile.map(ProfileRecord.init))
  }

  /// Stores a variant's encoded bytes (in the variant's format unless `format` says otherwise: a
  /// source passed through) and describes the result.
  func stored(
    _ encoded: [UInt8], format: OutputFormat? = nil, variant: ThumbnailVariant, geometry: ThumbnailGeometry
  )
    throws(ThumbnailError)
    -> Thumbnail
  {
    let format = format ?? variant.encoding.format
    let blob: StoredBlob
    do {
      blob = try store.store(encoded, fileExtension: format.fileExtension)
    } catch {
      throw .store(error)
    }
    return Thumbnail(
      name: variant.name, path: blob.path, width: geometry.output.width, height: geometry.output.height,
      bytes: blob.bytes, format: format, sha256: blob.sha256)
  }
}

/// A web-ready source (``WebReadyImage``) that a variant may store as it is (docs/imaging.md, "Pass-through").
struct PassThroughSource {
  var bytes: [UInt8]
  var format: OutputFormat

  /// Itself when the variant's thumbnail would be the whole source at its own size (no resize, no crop).
  func fitting(_ geometry: ThumbnailGeometry, originalSize: Size) -> PassThroughSource? {
    let region = geometry.region
    let isWhole =
      geometry.output == originalSize && region.x == 0 && region.y == 0
      && region.width == Double(originalSize.width) && region.height == Double(originalSize.height)
    return isWhole ? self : nil
  }

  /// Whether the source is at least 10 % smaller than an encode of `pixels` is predicted to be, from the
  /// bytes per pixel of the picture's last encode: the encode is then skipped. Closer calls are settled
  /// by encoding and comparing.
  func isClearlySmaller(than lastEncode: (bytes: Int, pixels: Int), pixels: Size) -> Bool {
    let predicted =
      Double(lastEncode.bytes) * Double(pixels.width * pixels.height) / Double(lastEncode.pixels)
    return Double(bytes.count) <= 0.9 * predicted
  }
}
