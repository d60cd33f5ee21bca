import CTurboJPEG

/// Encodes baseline JPEG with TurboJPEG, 4:2:0 chroma subsampling.
///
/// JPEG has no alpha: RGBA input is composited over white first, the usual
/// background for a link card.
///
/// The corresponding C function is `tjCompress2`.
package struct JPEGEncoder: ImageEncoding {
  package init() {}

  package func encode(_ image: PixelBuffer, options: EncodeOptions) throws(ImageError) -> [UInt8] {
    let opaque = image.hasAlpha ? Self.flattenedOverWhite(image) : image
    return try Self.compress(options: options) { handle, quality, output, size in
      opaque.pixels.withUnsafeBufferPointer { pixels in
        tjCompress2(
          handle, pixels.baseAddress, Int32(opaque.width), Int32(opaque.bytesPerRow), Int32(opaque.height),
          Int32(TJPF_RGB.rawValue), &output, &size, Int32(TJSAMP_420.rawValue), quality, 0)
      }
    }
  }

  /// A TurboJPEG compressor for one call of `body` (given the handle, the clamped quality and the output
  /// to fill, returning TurboJPEG's status), and the bytes it wrote; its error as `ImageError`.
  static func compress(
    options: EncodeOptions,
    _ body: (tjhandle, Int32, inout UnsafeMutablePointer<UInt8>?, inout UInt) -> Int32
  ) throws(ImageError) -> [UInt8] {
    guard let handle = tjInitCompress() else {
      throw .encodingFailed(format: .jpeg, message: String(cString: tjGetErrorStr2(nil)))
    }
    defer { tjDestroy(handle) }
    var output: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0
    let status = body(handle, Int32(min(max(options.quality, 1), 100)), &output, &size)
    defer { if let output { tjFree(output) } }
    guard status == 0, let output else {
      throw .encodingFailed(format: .jpeg, message: String(cString: tjGetErrorStr2(handle)))
    }
    return Array(UnsafeBufferPointer(start: output, count: Int(size)))
  }

  /// `c * a + 255 * (1 - a)` per colour sample.
  static func flattenedOverWhite(_ image: PixelBuffer) -> PixelBuffer {
    let count = image.width * image.height
    var pixels = [UInt8](repeating: 0, count: count * 3)
    image.pixels.withUnsafeBufferPointer { source in
      pixels.withUnsafeMutableBufferPointer { output in
        for index in 0..<count {
          let alpha = UInt32(source[index * 4 + 3])
          for channel in 0..<3 {
            let value = UInt32(source[index * 4 + channel]) * alpha + 255 * (255 - alpha) + 127
            output[index * 3 + channel] = UInt8(truncatingIfNeeded: value / 255)
          }
        }
      }
    }
    return PixelBuffer(width: image.width, height: image.height, channels: 3, pixels: pixels)
  }
}
