import CPNG

/// Encodes 8-bit RGB or RGBA PNG with libpng's simplified write API.
///
/// The corresponding C function is `png_image_write_to_memory`.
package struct PNGEncoder: ImageEncoding {
  package init() {}

  package func encode(_ image: PixelBuffer, options: EncodeOptions) throws(ImageError) -> [UInt8] {
    var header = png_image()
    header.version = png_uint_32(PNG_IMAGE_VERSION)
    header.width = png_uint_32(image.width)
    header.height = png_uint_32(image.height)
    header.format = image.hasAlpha ? PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA : PNG_FORMAT_FLAG_COLOR
    let stride = png_int_32(image.bytesPerRow)
    var size: png_alloc_size_t = 0
    let measured = image.pixels.withUnsafeBufferPointer { pixels in
      png_image_write_to_memory(&header, nil, &size, 0, pixels.baseAddress, stride, nil)
    }
    guard measured != 0 else { throw Self.failure(&header) }
    var output = [UInt8](repeating: 0, count: Int(size))
    let written = image.pixels.withUnsafeBufferPointer { pixels in
      output.withUnsafeMutableBytes { buffer in
        png_image_write_to_memory(&header, buffer.baseAddress, &size, 0, pixels.baseAddress, stride, nil)
      }
    }
    guard written != 0 else { throw Self.failure(&header) }
    png_image_free(&header)
    return Array(output.prefix(Int(size)))
  }

  /// libpng's own message from `png_image.message`, and the image's resources freed.
  private static func failure(_ header: inout png_image) -> ImageError {
    let message = withUnsafeBytes(of: header.message) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    png_image_free(&header)
    return .encodingFailed(
      format: .png, message: message.isEmpty ? "libpng failed without a message." : message)
  }
}
