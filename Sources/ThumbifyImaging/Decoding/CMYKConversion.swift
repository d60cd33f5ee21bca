/// Converts decoded CMYK samples to RGB the way Pillow and libvips do without a colour profile.
///
/// CMYK JPEGs are Photoshop's, which stores the samples inverted (255 means no
/// ink) and marks the file with an Adobe APP14 segment. libjpeg writes that
/// segment for every CMYK file whatever the sample sense, so the marker cannot
/// tell inverted data from plain; like Pillow (`CMYK;I`) and libvips, all
/// CMYK is read as inverted: R = C·K/255, G = M·K/255, B = Y·K/255, rounded.
enum CMYKConversion {
  /// An RGB buffer from `width`×`height` inverted CMYK samples (TurboJPEG's `TJPF_CMYK` output).
  static func rgb(fromInvertedCMYK cmyk: [UInt8], width: Int, height: Int) -> PixelBuffer {
    let count = width * height
    let rgb = [UInt8](unsafeUninitializedCapacity: count * 3) { out, initialized in
      cmyk.withUnsafeBufferPointer { source in
        for index in 0..<count {
          let c = UInt32(source[index * 4])
          let m = UInt32(source[index * 4 + 1])
          let y = UInt32(source[index * 4 + 2])
          let k = UInt32(source[index * 4 + 3])
          out[index * 3] = multiplyDividing255(c, k)
          out[index * 3 + 1] = multiplyDividing255(m, k)
          out[index * 3 + 2] = multiplyDividing255(y, k)
        }
      }
      initialized = count * 3
    }
    return PixelBuffer(width: width, height: height, channels: 3, pixels: rgb)
  }

  /// `a·b/255`, rounded to nearest.
  @inline(__always)
  private static func multiplyDividing255(_ a: UInt32, _ b: UInt32) -> UInt8 {
    let t = a * b + 128
    return UInt8(truncatingIfNeeded: (t + (t >> 8)) >> 8)
  }
}
