import CPNG

extension TestImages {
  /// PNG bytes written by libpng's simplified API (`png_image_write_to_memory`).
  ///
  /// - Parameters:
  ///   - format: A `png_image` format: `PNG_FORMAT_FLAG_*` bits (gray 0, gray+alpha 1, RGB 2, RGBA 3, colour-mapped 8…).
  ///   - colormap: RGBA entries when `format` has `PNG_FORMAT_FLAG_COLORMAP`.
  package static func png(_ samples: [UInt8], width: Int, height: Int, format: UInt32, colormap: [UInt8] = [])
    -> [UInt8]
  {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    image.width = UInt32(width)
    image.height = UInt32(height)
    image.format = format
    image.colormap_entries = UInt32(colormap.count / 4)
    var size = 0
    let ok = samples.withUnsafeBytes { pixels in
      colormap.withUnsafeBytes { map in
        png_image_write_to_memory(&image, nil, &size, 0, pixels.baseAddress, 0, map.baseAddress)
      }
    }
    guard ok != 0, size > 0 else { return [] }
    var output = [UInt8](repeating: 0, count: size)
    let written = output.withUnsafeMutableBytes { out in
      samples.withUnsafeBytes { pixels in
        colormap.withUnsafeBytes { map in
          png_image_write_to_memory(&image, out.baseAddress, &size, 0, pixels.baseAddress, 0, map.baseAddress)
        }
      }
    }
    return written != 0 ? Array(output.prefix(size)) : []
  }

  /// `bytes` with the 4-byte big-endian value at `offset` replaced (e.g. an IHDR width) and the chunk CRC left stale.
  package static func patchingBigEndian(_ bytes: [UInt8], at offset: Int, _ value: UInt32) -> [UInt8] {
    var patched = bytes
    patched.replaceSubrange(
      offset..<offset + 4,
      with: [
        UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF),
      ])
    return patched
  }
}
