/// How stored pixels must be flipped or rotated to appear upright (EXIF/TIFF tag 0x0112).
///
/// The raw value is the tag's value. The case names say where the stored
/// image's first row and first column lie in the upright picture.
package enum ExifOrientation: Int, Sendable, CaseIterable {
  /// Row 0 at the top, column 0 at the left: already upright.
  case up = 1
  /// Row 0 at the top, column 0 at the right: mirrored left–right.
  case upMirrored = 2
  /// Row 0 at the bottom, column 0 at the right: rotated 180°.
  case down = 3
  /// Row 0 at the bottom, column 0 at the left: mirrored top–bottom.
  case downMirrored = 4
  /// Row 0 at the left, column 0 at the top: transposed.
  case leftMirrored = 5
  /// Row 0 at the right, column 0 at the top: needs a 90° clockwise turn.
  case right = 6
  /// Row 0 at the right, column 0 at the bottom: transversed.
  case rightMirrored = 7
  /// Row 0 at the left, column 0 at the bottom: needs a 90° counter-clockwise turn.
  case left = 8

  /// Whether the upright picture's width is the stored height (values 5–8).
  package var swapsDimensions: Bool { rawValue >= 5 }

  /// The upright size of an image stored as `size`.
  func upright(_ size: Size) -> Size {
    swapsDimensions ? Size(width: size.height, height: size.width) : size
  }

  /// Reads the orientation from a TIFF structure (the payload of an EXIF block).
  ///
  /// Both byte orders (`II` and `MM`) are handled and every offset is bounds-checked;
  /// a missing, malformed or out-of-range tag gives `nil`, which callers treat as ``up``.
  ///
  /// - Parameter tiff: A reader whose window starts at the TIFF header.
  init?(tiff: ByteReader) {
    guard let value = try? Self.orientationValue(tiff), let orientation = Self(rawValue: Int(value)) else {
      return nil
    }
    self = orientation
  }

  /// Reads an `Exif\0\0`-prefixed block (a JPEG APP1 payload, or a WebP `EXIF` chunk that may lack the prefix).
  init?(exif: ByteReader) {
    let prefix = Array("Exif".utf8) + [0, 0]
    if exif.matches(prefix) {
      guard let tiff = try? exif.window(at: 6, count: exif.count - 6) else { return nil }
      self.init(tiff: tiff)
    } else {
      self.init(tiff: exif)
    }
  }

  private static func orientationValue(_ tiff: ByteReader) throws(ImageError) -> UInt16 {
    let isLittleEndian: Bool
    if tiff.matches(Array("II".utf8)) {
      isLittleEndian = true
    } else if tiff.matches(Array("MM".utf8)) {
      isLittleEndian = false
    } else {
      throw .corrupt(format: tiff.format, message: "The EXIF block has no TIFF byte-order mark.")
    }
    func u16(_ offset: Int) throws(ImageError) -> UInt16 {
      isLittleEndian ? try tiff.u16le(offset) : try tiff.u16be(offset)
    }
    func u32(_ offset: Int) throws(ImageError) -> UInt32 {
      isLittleEndian ? try tiff.u32le(offset) : try tiff.u32be(offset)
    }
    guard try u16(2) == 42 else {
      throw .corrupt(format: tiff.format, message: "The EXIF block's TIFF header is not 42.")
    }
    let ifd = Int(try u32(4))
    let entries = Int(try u16(ifd))
    for index in 0..<entries {
      let entry = ifd + 2 + index * 12
      // Tag 0x0112, type SHORT (3), count 1: the value sits in the first two bytes of the value field.
      if try u16(entry) == 0x0112, try u16(entry + 2) == 3, try u32(entry + 4) == 1 {
        return try u16(entry + 8)
      }
    }
    throw .corrupt(format: tiff.format, message: "The EXIF block has no orientation tag.")
  }
}
