import CPNG
import Foundation

extension PNGDecoder {
  /// Decodes an interlaced 16-bit PNG by way of libpng's 16-bit linear output.
  ///
  /// libpng 1.6.39 (Debian 12) garbles rows when its simplified API reduces an
  /// interlaced 16-bit image to 8 bits (rows of later Adam7 passes repeat
  /// earlier ones); its 16-bit linear output is right. So such images are read
  /// as linear (premultiplied when there is alpha) and converted back here with
  /// the inverse of libpng's own transfer function (a 2.2 power curve), which
  /// gives what a correct 8-bit read would.
  static func decodeInterlaced16(_ image: inout png_image, size: Size, hasAlpha: Bool) throws(ImageError)
    -> PixelBuffer
  {
    let channels = hasAlpha ? 4 : 3
    let count = size.width * size.height * channels
    image.format =
      UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_LINEAR) | (hasAlpha ? UInt32(PNG_FORMAT_FLAG_ALPHA) : 0)
    var linear = [UInt16](repeating: 0, count: count)
    let finished = linear.withUnsafeMutableBytes {
      png_image_finish_read(&image, nil, $0.baseAddress, Int32(size.width * channels), nil)
    }
    guard finished != 0 else { throw .corrupt(format: .png, message: message(of: &image)) }
    let table = encodingTable
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
      var index = 0
      while index < count {
        let alpha = hasAlpha ? UInt32(linear[index + 3]) : 65535
        for k in 0..<3 {
          var value = UInt32(linear[index + k])
          if hasAlpha { value = alpha == 0 ? 0 : min(65535, (value * 65535 + alpha / 2) / alpha) }
          out[index + k] = nearest(UInt16(value), in: table)
        }
        if hasAlpha { out[index + 3] = UInt8((alpha * 255 + 32767) / 65535) }
        index += channels
      }
      initialized = count
    }
    return PixelBuffer(width: size.width, height: size.height, channels: channels, pixels: pixels)
  }

  /// libpng's linear value for each 8-bit sample: (v/255)^2.2 · 65535, rounded.
  private static let encodingTable: [UInt16] = (0...255).map {
    UInt16((pow(Double($0) / 255, 2.2) * 65535).rounded())
  }

  /// The 8-bit sample whose linear value is nearest `value` (the table is increasing).
  private static func nearest(_ value: UInt16, in table: [UInt16]) -> UInt8 {
    var (low, high) = (0, 255)
    while low < high {
      let mid = (low + high) / 2
      if table[mid] < value { low = mid + 1 } else { high = mid }
    }
    if low > 0, Int(value) - Int(table[low - 1]) < Int(table[low]) - Int(value) { low -= 1 }
    return UInt8(low)
  }
}
