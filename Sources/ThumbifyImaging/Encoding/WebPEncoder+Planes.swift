import CWebP

extension WebPEncoder {
  /// Encodes 4:2:0 Y′CbCr planes as lossy WebP, with the same settings as RGB input.
  ///
  /// The planes are copied into a `WebPPicture` (`use_argb = 0`, `WEBP_YUV420`),
  /// converted from full to limited range on the way when needed
  /// (``YCbCrImage/limitedRange()``'s mapping, as multiply-adds), so libwebp's
  /// RGB import (`WebPPictureImportRGB`) is skipped.
  ///
  /// The corresponding C functions are `WebPPictureAlloc` and `WebPEncode`.
  package func encode(_ image: YCbCrImage, options: EncodeOptions) throws(ImageError) -> [UInt8] {
    let chroma = YCbCrImage.chromaSize(of: Size(width: image.width, height: image.height), factor: (2, 2))
    guard image.chromaFactor == (2, 2), image.cb.width == chroma.width, image.cb.height == chroma.height,
      image.cr.width == chroma.width, image.cr.height == chroma.height
    else {
      throw .encodingFailed(format: .webp, message: "The planes are not 4:2:0 (\(image.chromaFactor)).")
    }
    let mappings = image.range == .full ? YCbCrImage.limitedRangeMappings : nil
    return try encodePicture(options: options) { (picture) throws(ImageError) in
      picture.width = Int32(image.width)
      picture.height = Int32(image.height)
      picture.use_argb = 0
      picture.colorspace = WEBP_YUV420
      guard WebPPictureAlloc(&picture) != 0 else {
        throw .encodingFailed(format: .webp, message: Self.message(for: picture.error_code))
      }
      guard let y = picture.y, let u = picture.u, let v = picture.v else {
        throw .encodingFailed(format: .webp, message: "libwebp allocated no planes.")
      }
      YCbCrImage.copy(image.luma, to: y, stride: Int(picture.y_stride), mapping: mappings?.luma)
      YCbCrImage.copy(image.cb, to: u, stride: Int(picture.uv_stride), mapping: mappings?.chroma)
      YCbCrImage.copy(image.cr, to: v, stride: Int(picture.uv_stride), mapping: mappings?.chroma)
    }
  }
}

extension ImageEncoder: PlanarImageEncoding {
  /// WebP takes 4:2:0 planes; PNG and JPEG are encoded from RGB, unless the thumbnailer hands a JPEG
  /// source's own planes to a JPEG encode (``ThumbnailVariant``'s `keep-jpeg`, docs/imaging.md).
  package func acceptsPlanes(for options: EncodeOptions) -> Bool { options.format == .webp }

  /// Encodes 4:2:0 planes as WebP, or as JPEG (`tjCompressFromYUVPlanes`).
  ///
  /// - Throws: ``ImageError/encodingFailed(format:message:)`` for PNG and AVIF
  ///   (convert with ``YCbCrImage/rgb()`` first) and for planes that are not 4:2:0.
  package func encode(_ image: YCbCrImage, options: EncodeOptions) throws(ImageError) -> [UInt8] {
    switch options.format {
    case .webp: try webp.encode(image, options: options)
    case .jpeg: try jpeg.encode(image, options: options)
    case .png: throw .encodingFailed(format: .png, message: "Only WebP and JPEG are encoded from planes.")
    case .avif: throw .encodingFailed(format: .avif, message: "Only WebP and JPEG are encoded from planes.")
    }
  }
}
