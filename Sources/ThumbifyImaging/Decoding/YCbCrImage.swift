/// One plane of 8-bit samples, rows top to bottom, tightly packed.
package struct SamplePlane: Sendable, Equatable {
  package var width: Int
  package var height: Int
  package var samples: [UInt8]

  package init(width: Int, height: Int, samples: [UInt8]) {
    precondition(samples.count == width * height, "sample count does not match the size")
    self.width = width
    self.height = height
    self.samples = samples
  }

  /// A plane of `width`×`height` samples that all have `value`.
  package init(width: Int, height: Int, repeating value: UInt8) {
    self.init(width: width, height: height, samples: [UInt8](repeating: value, count: width * height))
  }
}

/// An opaque image as Y′CbCr planes, the layout JPEG and lossy WebP store:
/// a luma plane at full size and two chroma planes, possibly subsampled.
///
/// The planar thumbnail path (docs/imaging.md) decodes into this, resizes each
/// plane and hands the planes to the WebP encoder, skipping the decoder's
/// chroma upsampling and colour conversion and the encoder's RGB import.
///
/// ```swift
/// let rgb = image.rgb()   // for PNG/JPEG output and placeholders
/// ```
package struct YCbCrImage: Sendable, Equatable {
  /// How the samples map to BT.601 Y′CbCr.
  package enum Range: Sendable, Hashable {
    /// Y, Cb and Cr in 0…255 (JPEG/JFIF).
    case full
    /// Y in 16…235, Cb and Cr in 16…240 (VP8/WebP, "studio" range).
    case limited
  }

  package var luma: SamplePlane
  /// Luma in sixteenths of a level, where the planes were computed with more than 8 bits (a converted
  /// tagged JPEG, ``MatrixShaperConversion``): the plane resize starts from it and rounds once
  /// (``WidePlane``); everything else reads `luma`, its 8-bit rounding.
  var lumaSixteenths: WidePlane?
  package var cb: SamplePlane
  package var cr: SamplePlane
  package var range: Range
  /// How many luma samples one chroma sample spans horizontally and vertically (4:2:0 is 2, 2).
  package var chromaFactor: (x: Int, y: Int)

  package init(
    luma: SamplePlane, cb: SamplePlane, cr: SamplePlane, range: Range, chromaFactor: (x: Int, y: Int)
  ) {
    self.luma = luma
    self.cb = cb
    self.cr = cr
    self.range = range
    self.chromaFactor = chromaFactor
  }

  package var width: Int { luma.width }
  package var height: Int { luma.height }

  package static func == (lhs: YCbCrImage, rhs: YCbCrImage) -> Bool {
    lhs.luma == rhs.luma && lhs.lumaSixteenths == rhs.lumaSixteenths && lhs.cb == rhs.cb && lhs.cr == rhs.cr
      && lhs.range == rhs.range
      && lhs.chromaFactor == rhs.chromaFactor
  }

  /// How much larger than `required` a decode must be so that chroma subsampled by
  /// `source` still covers a 4:2:0 output (capped at `stored`): twice as wide for 4:1:1,
  /// `required` itself for every other subsampling.
  static func chromaCovering420(_ required: Size, stored: Size, source: (x: Int, y: Int)) -> Size {
    let scale = max(Double(source.x) / 2, Double(source.y) / 2, 1)
    return Size(
      width: min(stored.width, Int((Double(required.width) * scale).rounded(.up))),
      height: min(stored.height, Int((Double(required.height) * scale).rounded(.up))))
  }

  /// The chroma plane size for a luma plane of `size` subsampled by `factor` (rounded up).
  static func chromaSize(of size: Size, factor: (x: Int, y: Int)) -> Size {
    Size(width: (size.width + factor.x - 1) / factor.x, height: (size.height + factor.y - 1) / factor.y)
  }
}

/// A decoded, upright image in Y′CbCr planes (the planar counterpart of ``DecodedImage``).
package struct DecodedPlanes: Sendable {
  /// The planes, with EXIF orientation already applied.
  package var image: YCbCrImage
  /// The format sniffed from the bytes.
  package var format: ImageFormat
  /// The full-resolution size, upright (before any shrink-on-load).
  package var originalSize: Size
  /// As ``DecodedImage/exactScale``.
  package var exactScale: Double?
  /// As ``DecodedImage/profile``: planes are decoded only from sources whose profile (if any) is sRGB.
  package var profile: SourceProfile?

  package init(
    image: YCbCrImage, format: ImageFormat, originalSize: Size, exactScale: Double? = nil,
    profile: SourceProfile? = nil
  ) {
    self.image = image
    self.format = format
    self.originalSize = originalSize
    self.exactScale = exactScale
    self.profile = profile
  }
}

/// A decoder that can also decode some sources straight to Y′CbCr planes.
package protocol PlanarImageDecoding: ImageDecoding {
  /// The image as Y′CbCr planes, or `nil` when the decoder keeps the source on the
  /// RGB path (``ImageDecoder``: anything but YCbCr or gray JPEG and opaque PNG);
  /// callers then use ``ImageDecoding/decode(_:options:)``.
  ///
  /// A shrink-on-load decode keeps the chroma planes fine enough for a 4:2:0
  /// thumbnail (what the WebP encoder takes), not for full-resolution chroma.
  func decodePlanes(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedPlanes?
}

/// An encoder that can also encode 4:2:0 Y′CbCr planes, for some output formats.
package protocol PlanarImageEncoding: ImageEncoding {
  /// Encodes 4:2:0 planes: called when ``acceptsPlanes(for:)`` is true for `options`, and for JPEG
  /// output from a JPEG source's own planes (a variant's `keep-jpeg`, docs/imaging.md).
  func encode(_ image: YCbCrImage, options: EncodeOptions) throws(ImageError) -> [UInt8]
  /// Whether the planar ``encode(_:options:)`` takes planes for `options` from any source (WebP does).
  func acceptsPlanes(for options: EncodeOptions) -> Bool
}
