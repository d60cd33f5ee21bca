extension ImageFormat {
  /// Recognises an image format from its leading bytes.
  ///
  /// Only the bytes are consulted, never a file name or a Content-Type. HEIC is
  /// recognised so the error can name it, although it is not decoded.
  ///
  /// - Parameter bytes: The start of the encoded image (the first 1 KB suffices).
  /// - Returns: The format, or `nil` when the bytes match none thumbify knows.
  package init?(sniffing bytes: [UInt8]) {
    let reader = ByteReader(bytes, format: .jpeg)
    if reader.matches([0xFF, 0xD8, 0xFF]) {
      self = .jpeg
    } else if reader.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      self = .png
    } else if reader.matches(Array("RIFF".utf8)) && reader.matches(Array("WEBP".utf8), at: 8) {
      self = .webp
    } else if reader.matches(Array("GIF87a".utf8)) || reader.matches(Array("GIF89a".utf8)) {
      self = .gif
    } else if reader.matches(Array("BM".utf8)) && reader.count >= 26 {
      self = .bmp
    } else if let format = Self.iconFormat(reader) {
      self = format
    } else if let format = Self.isoMediaFormat(reader) {
      self = format
    } else if Self.isSVG(bytes) {
      self = .svg
    } else {
      return nil
    }
  }

  /// ICO (type 1) or CUR (type 2): a zero reserved word, the type, and at least one entry.
  private static func iconFormat(_ reader: ByteReader) -> ImageFormat? {
    guard reader.count >= 22, let reserved = try? reader.u16le(0), reserved == 0,
      let type = try? reader.u16le(2), let count = try? reader.u16le(4), count > 0,
      let entryReserved = try? reader.u8(6 + 3), entryReserved == 0
    else { return nil }
    switch type {
    case 1: return .ico
    case 2: return .cur
    default: return nil
    }
  }

  /// AVIF and HEIC: an ISO-BMFF `ftyp` box whose major or compatible brands name them.
  private static func isoMediaFormat(_ reader: ByteReader) -> ImageFormat? {
    guard reader.matches(Array("ftyp".utf8), at: 4), let size = try? reader.u32be(0), size >= 16 else {
      return nil
    }
    let end = min(Int(size), reader.count, 256)
    var brands: [String] = []
    var offset = 8
    while offset + 4 <= end {
      if offset != 12 {  // bytes 12..<16 are the minor version, not a brand
        brands.append(String(decoding: reader.bytes[offset..<offset + 4], as: UTF8.self))
      }
      offset += 4
    }
    if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
    let hevc: Set = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs"]
    if brands.contains(where: hevc.contains) { return .heic }
    // A bare HEIF (`mif1`/`msf1`) names its codec only in its items: an `av01` item type
    // (`infe`) or sample entry near the start makes it AVIF, anything else HEIF as before.
    guard brands.contains(where: { $0 == "mif1" || $0 == "msf1" }) else { return nil }
    return contains(Array("av01".utf8), in: reader.bytes.prefix(4096)) ? .avif : .heic
  }

  /// Whether `needle` occurs in `haystack`.
  private static func contains(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Bool {
    guard haystack.count >= needle.count else { return false }
    let start = haystack.startIndex
    return (start...(haystack.endIndex - needle.count)).contains {
      haystack[$0..<$0 + needle.count].elementsEqual(needle)
    }
  }

  /// SVG: text (after an optional BOM and whitespace) that opens with `<` and has an `<svg` tag near the start.
  private static func isSVG(_ bytes: [UInt8]) -> Bool {
    var index = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else { return false }
    let head = bytes[index..<min(bytes.count, index + 4096)].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    let tag = Array("<svg".utf8)
    guard head.count >= tag.count else { return false }
    return (0...(head.count - tag.count)).contains { head[$0..<$0 + tag.count].elementsEqual(tag) }
  }
}
