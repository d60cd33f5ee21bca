import CPNG
import CTurboJPEG
import CWebP
import Foundation
import ThumbifyImaging

/// Decodes JPEG, PNG and WebP by calling TurboJPEG, libpng and libwebp
/// directly, independently of the production decoder: the codec round trips
/// check the encoders against the libraries themselves.
package struct LibraryDecoder: ImageDecoding {
  package init() {}

  package struct Failure: Error {}

  package func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
    guard let buffer = Self.pixels(of: data) else {
      throw .corrupt(format: .jpeg, message: "test decode failed")
    }
    return DecodedImage(
      buffer: buffer, format: .jpeg, originalSize: Size(width: buffer.width, height: buffer.height))
  }

  /// The pixels of a JPEG (RGB), PNG (RGB or RGBA) or WebP (RGB or RGBA).
  package static func pixels(of data: [UInt8]) -> PixelBuffer? {
    if data.starts(with: [0xFF, 0xD8]) { return jpeg(data) }
    if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return png(data) }
    if data.count > 12, data[8..<12].elementsEqual("WEBP".utf8) { return webp(data) }
    return nil
  }

  private static func jpeg(_ data: [UInt8]) -> PixelBuffer? {
    guard let handle = tjInitDecompress() else { return nil }
    defer { tjDestroy(handle) }
    var width: Int32 = 0
    var height: Int32 = 0
    var subsampling: Int32 = 0
    var colorspace: Int32 = 0
    guard
      tjDecompressHeader3(handle, data, UInt(data.count), &width, &height, &subsampling, &colorspace) == 0
    else { return nil }
    var pixels = [UInt8](repeating: 0, count: Int(width * height * 3))
    let status = tjDecompress2(
      handle, data, UInt(data.count), &pixels, width, 0, height, Int32(TJPF_RGB.rawValue), 0)
    return status == 0
      ? PixelBuffer(width: Int(width), height: Int(height), channels: 3, pixels: pixels) : nil
  }

  private static func png(_ data: [UInt8]) -> PixelBuffer? {
    var image = png_image()
    image.version = png_uint_32(PNG_IMAGE_VERSION)
    guard png_image_begin_read_from_memory(&image, data, data.count) != 0 else { return nil }
    let hasAlpha = image.format & PNG_FORMAT_FLAG_ALPHA != 0
    image.format = hasAlpha ? PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA : PNG_FORMAT_FLAG_COLOR
    let channels = hasAlpha ? 4 : 3
    var pixels = [UInt8](repeating: 0, count: Int(image.width * image.height) * channels)
    guard png_image_finish_read(&image, nil, &pixels, 0, nil) != 0 else {
      png_image_free(&image)
      return nil
    }
    return PixelBuffer(width: Int(image.width), height: Int(image.height), channels: channels, pixels: pixels)
  }

  private static func webp(_ data: [UInt8]) -> PixelBuffer? {
    var features = WebPBitstreamFeatures()
    guard thumbify_webp_get_features(data, data.count, &features) == VP8_STATUS_OK else { return nil }
    var width: Int32 = 0
    var height: Int32 = 0
    let channels = features.has_alpha != 0 ? 4 : 3
    let decoded =
      channels == 4
      ? WebPDecodeRGBA(data, data.count, &width, &height) : WebPDecodeRGB(data, data.count, &width, &height)
    guard let decoded else { return nil }
    defer { WebPFree(decoded) }
    let pixels = Array(UnsafeBufferPointer(start: decoded, count: Int(width * height) * channels))
    return PixelBuffer(width: Int(width), height: Int(height), channels: channels, pixels: pixels)
  }
}
