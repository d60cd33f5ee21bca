/// Limits and hints for one decode.
package struct DecodeOptions: Sendable, Hashable {
  /// The box the image will be fitted into; a decoder may decode at a reduced
  /// scale (JPEG DCT scaling, WebP scaled decode, ICO entry choice) as long as
  /// the result still covers what `fit` into `target` needs. `nil` decodes at full size.
  package var target: Size?
  package var fit: Fit
  /// Decoded pixels allowed, checked from the header before any allocation.
  package var maxPixels: Int
  /// Encoded bytes allowed.
  package var maxBytes: Int
  /// How many times the final size, per dimension, a shrink-on-load decode must
  /// still be (at least 1). `1` decodes at the smallest scale that covers the
  /// final size; libvips and Pillow leave a factor of 2 for the resampler.
  /// See docs/decoding.md.
  package var shrinkHeadroom: Double
  /// The headroom for JPEG's DCT-scaled decodes, when it differs from
  /// ``shrinkHeadroom``: a reduced-size IDCT is a cruder reduction than
  /// libwebp's area-averaging rescaler, so JPEG gains more SSIM from a margin.
  /// The default 1.5 brings JPEG thumbnails level with libvips's (factor 2) SSIM at
  /// less cost; `nil` uses ``shrinkHeadroom``. See docs/decoding.md.
  package var jpegShrinkHeadroom: Double?
  /// The headroom for decoders that box-shrink rows as they decode them (PNG, GIF:
  /// `ShrinkingCanvas`): 2 leaves the resampler the same reduction its own pre-shrink
  /// (``Resampler/preShrinkGap``) would, so the thumbnail matches a full-size decode's,
  /// at a fraction of the memory. See docs/decoding.md.
  package var boxShrinkHeadroom: Double

  package init(
    target: Size? = nil,
    fit: Fit = .contain,
    maxPixels: Int = 50_000_000,
    maxBytes: Int = 10 << 20,
    shrinkHeadroom: Double = 1,
    jpegShrinkHeadroom: Double? = 1.5,
    boxShrinkHeadroom: Double = 2
  ) {
    self.target = target
    self.fit = fit
    self.maxPixels = maxPixels
    self.maxBytes = maxBytes
    self.shrinkHeadroom = shrinkHeadroom
    self.jpegShrinkHeadroom = jpegShrinkHeadroom
    self.boxShrinkHeadroom = boxShrinkHeadroom
  }
}

/// A decoded, upright image.
package struct DecodedImage: Sendable {
  /// The pixels, with EXIF orientation already applied.
  package var buffer: PixelBuffer
  /// The format sniffed from the bytes.
  package var format: ImageFormat
  /// The full-resolution size, upright (before any shrink-on-load).
  package var originalSize: Size
  /// The decode's scale, buffer pixels per full-resolution pixel on both axes, when it is
  /// not the ratio of the sizes: a box shrink by *f* (PNG, GIF) drops up to *f* − 1 trailing
  /// pixels, but its scale is exactly 1/*f*, as the resampler's own pre-shrink takes it.
  /// `nil`: the ratio of the buffer's size to ``originalSize`` on each axis.
  package var exactScale: Double?
  /// The embedded colour profile and what was done with it; `nil` when the source has none.
  package var profile: SourceProfile?

  package init(
    buffer: PixelBuffer, format: ImageFormat, originalSize: Size, exactScale: Double? = nil,
    profile: SourceProfile? = nil
  ) {
    self.buffer = buffer
    self.format = format
    self.originalSize = originalSize
    self.exactScale = exactScale
    self.profile = profile
  }
}

/// Turns encoded image bytes into pixels. The format is sniffed from the bytes,
/// never taken from a file name or a Content-Type.
package protocol ImageDecoding: Sendable {
  func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage
}
