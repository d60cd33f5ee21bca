/// Whether encoded image bytes can be served as they are: a plain JPEG, PNG or WebP that every browser
/// shows the way thumbify would, with nothing in it but pixels.
///
/// The `Thumbnailer` stores such a source as a variant's blob, byte for byte, when it already fits the
/// variant's box and is smaller than the encode (docs/imaging.md, "Pass-through"). So the check is strict:
/// anything a re-encode would drop or change makes a source not web-ready.
///
/// - JPEG: Huffman-coded baseline, extended or progressive (SOF0–2), one or three components; no APP
///   segment but JFIF/JFXX (APP0) and Adobe's (APP14): no EXIF (orientation, GPS, camera data), XMP or
///   ICC profile.
/// - PNG: only `IHDR`, `PLTE`, `tRNS`, `sRGB`, `pHYs`, `IDAT` and `IEND`: no text, `eXIf`, colour chunks
///   (`iCCP`, `cHRM`, `gAMA`) or animation (`acTL`).
/// - WebP: a simple lossy or lossless file, or an extended one whose only feature is alpha (no ICC,
///   EXIF, XMP or animation).
///
/// Every length is bounds-checked; anything malformed is not web-ready.
package enum WebReadyImage {
  /// The format `data` can be served as, or `nil`.
  package static func format(of data: [UInt8]) -> OutputFormat? {
    switch ImageFormat(sniffing: data) {
    case .jpeg: isPlainJPEG(data) ? .jpeg : nil
    case .png: isPlainPNG(data) ? .png : nil
    case .webp: isPlainWebP(data) ? .webp : nil
    default: nil
    }
  }

  static func isPlainJPEG(_ bytes: [UInt8]) -> Bool {
    var offset = 2  // past SOI
    var sawFrame = false
    while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
      var marker = bytes[offset + 1]
      while marker == 0xFF {  // fill bytes
        offset += 1
        guard offset + 1 < bytes.count else { return false }
        marker = bytes[offset + 1]
      }
      offset += 2
      if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
      if marker == 0xDA { return sawFrame }  // the first scan: the headers were all seen
      guard offset + 2 <= bytes.count else { return false }
      let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
      guard length >= 2, offset + length <= bytes.count else { return false }
      switch marker {
      case 0xE0, 0xEE, 0xDB, 0xC4, 0xDD, 0xFE: break  // APP0, APP14, tables, restart interval, comment
      case 0xC0, 0xC1, 0xC2:
        guard length >= 8, [1, 3].contains(bytes[offset + 7]) else { return false }
        sawFrame = true
      default: return false  // other APPn (EXIF, XMP, ICC, …), arithmetic or lossless frames, DNL, …
      }
      offset += length
    }
    return false
  }

  static func isPlainPNG(_ bytes: [UInt8]) -> Bool {
    let allowed: Set<String> = ["IHDR", "PLTE", "tRNS", "sRGB", "pHYs", "IDAT", "IEND"]
    var offset = 8  // past the signature
    while offset + 12 <= bytes.count {
      let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      guard allowed.contains(type), length <= bytes.count - offset - 12 else { return false }
      if type == "IEND" { return true }
      offset += 12 + length
    }
    return false
  }

  static func isPlainWebP(_ bytes: [UInt8]) -> Bool {
    var offset = 12  // past RIFF, the size and WEBP
    var sawImage = false
    while offset + 8 <= bytes.count {
      let type = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
      let length = bytes[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
      guard length <= bytes.count - offset - 8 else { return false }
      switch type {
      case "VP8 ", "VP8L": sawImage = true
      case "ALPH": break
      case "VP8X":
        // Flags: ICC 0x20, alpha 0x10, EXIF 0x08, XMP 0x04, animation 0x02.
        guard offset == 12, length >= 1, bytes[offset + 8] & ~0x10 == 0 else { return false }
      default: return false
      }
      offset += 8 + length + (length & 1)
    }
    return sawImage && offset == bytes.count
  }
}
