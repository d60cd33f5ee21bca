extension TestImages {
  /// A bitmap spelled out byte by byte, to cover header variants no library at hand writes.
  package struct Bitmap {
    package var width: Int
    package var height: Int
    package var bitCount: Int
    /// 12 (core), 40 (info), 108 (V4) or 124 (V5).
    package var headerSize = 40
    package var compression: UInt32 = 0
    package var isTopDown = false
    /// Red, green, blue, alpha masks, written into V4/V5 headers or after an info header for bitfields.
    package var masks: [UInt32] = []
    /// RGB palette entries.
    package var palette: [(UInt8, UInt8, UInt8)] = []
    /// The pixel data exactly as stored (rows padded, bottom-up unless top-down; or an RLE stream).
    package var pixelData: [UInt8]

    // The memberwise initializer, `package` (a synthesized one is internal).
    package init(
      width: Int, height: Int, bitCount: Int, headerSize: Int = 40, compression: UInt32 = 0,
      isTopDown: Bool = false, masks: [UInt32] = [], palette: [(UInt8, UInt8, UInt8)] = [], pixelData: [UInt8]
    ) {
      self.width = width
      self.height = height
      self.bitCount = bitCount
      self.headerSize = headerSize
      self.compression = compression
      self.isTopDown = isTopDown
      self.masks = masks
      self.palette = palette
      self.pixelData = pixelData
    }

    /// The DIB: header, masks, palette, pixels (what an ICO entry holds, with `height` doubled by the caller).
    package func dib(heightField: Int? = nil) -> [UInt8] {
      let storedHeight = heightField ?? (isTopDown ? -height : height)
      var bytes: [UInt8]
      if headerSize == 12 {
        bytes = le32(12) + le16(width) + le16(storedHeight) + le16(1) + le16(bitCount)
      } else {
        bytes =
          le32(headerSize) + le32(width) + le32(storedHeight) + le16(1) + le16(bitCount)
          + le32(Int(compression))
        bytes += le32(pixelData.count) + le32(2835) + le32(2835) + le32(palette.count) + le32(0)
        if headerSize > 40 {
          var extra = masks.flatMap { le32(Int($0)) }
          extra += [UInt8](repeating: 0, count: headerSize - 40 - extra.count)
          bytes += extra
        } else {
          bytes += masks.flatMap { le32(Int($0)) }
        }
      }
      for color in palette {
        bytes += [color.2, color.1, color.0] + (headerSize == 12 ? [] : [0])
      }
      return bytes + pixelData
    }

    /// The BMP file: `BM` header then the DIB.
    package var file: [UInt8] {
      let dib = dib()
      let pixelOffset = 14 + dib.count - pixelData.count
      return Array("BM".utf8) + le32(14 + dib.count) + [0, 0, 0, 0] + le32(pixelOffset) + dib
    }
  }

  /// An ICO file holding `entries` (raw PNG or DIB bytes) with their directory sizes and depths.
  package static func ico(_ entries: [(width: Int, height: Int, bitCount: Int, data: [UInt8])], type: Int = 1)
    -> [UInt8]
  {
    var bytes = le16(0) + le16(type) + le16(entries.count)
    var offset = 6 + entries.count * 16
    for entry in entries {
      bytes += [UInt8(entry.width % 256), UInt8(entry.height % 256), 0, 0] + le16(1) + le16(entry.bitCount)
      bytes += le32(entry.data.count) + le32(offset)
      offset += entry.data.count
    }
    return bytes + entries.flatMap(\.data)
  }

  package static func le16(_ value: Int) -> [UInt8] {
    [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
  }
}
