/// Decodes ICO and CUR files: picks the best entry for the target and decodes it as PNG or as a DIB.
///
/// The best entry is the smallest whose larger side is at least the target's
/// larger side, else the largest; among equal sizes the deepest wins. Without a
/// target the largest is decoded. Sizes and depths are read from each entry's
/// own PNG or DIB header (a directory's are often wrong, and a CUR's depth
/// fields hold the hotspot), falling back to the directory.
struct ICODecoder: ImageDecoding {
  /// ``ImageFormat/ico`` or ``ImageFormat/cur``.
  let format: ImageFormat

  /// One directory entry.
  struct Entry: Equatable {
    var size: Size
    var bitDepth: Int
    var offset: Int
    var length: Int
    var isPNG: Bool
  }

  func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
    let reader = ByteReader(data, format: format)
    let entries = try Self.entries(reader)
    guard let entry = Self.bestEntry(entries, target: options.target) else {
      throw .corrupt(format: format, message: "The icon directory has no entries.")
    }
    let buffer: PixelBuffer
    if entry.isPNG {
      buffer = try data.withUnsafeBufferPointer { (bytes) throws(ImageError) -> PixelBuffer in
        let slice = UnsafeRawBufferPointer(
          UnsafeBufferPointer(rebasing: bytes[entry.offset..<(entry.offset + entry.length)]))
        return try PNGDecoder.decode(slice, options: options)
      }
    } else {
      let dib = try reader.window(at: entry.offset, count: entry.length)
      buffer = try DIBDecoder.decode(dib, pixelOffset: nil, isIconEntry: true, options: options)
    }
    return DecodedImage(
      buffer: buffer, format: format, originalSize: Size(width: buffer.width, height: buffer.height))
  }

  /// The directory entries; one whose data lies outside the file makes it corrupt (truncated).
  static func entries(_ reader: ByteReader) throws(ImageError) -> [Entry] {
    let count = Int(try reader.u16le(4))
    var entries: [Entry] = []
    for index in 0..<count {
      let base = 6 + index * 16
      let width = Int(try reader.u8(base))
      let height = Int(try reader.u8(base + 1))
      let length = Int(try reader.u32le(base + 8))
      let offset = Int(try reader.u32le(base + 12))
      guard length > 0, let data = try? reader.window(at: offset, count: length) else {
        throw .corrupt(
          format: reader.format,
          message:
            "Icon entry \(index + 1) of \(count) claims \(length) bytes at offset \(offset), outside the \(reader.count)-byte file."
        )
      }
      var entry = Entry(
        size: Size(width: width == 0 ? 256 : width, height: height == 0 ? 256 : height),
        bitDepth: reader.format == .ico ? Int(try reader.u16le(base + 6)) : 0, offset: offset, length: length,
        isPNG: data.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
      if entry.isPNG, let width = try? data.u32be(16), let height = try? data.u32be(20),
        let depth = try? data.u8(24),
        let type = try? data.u8(25)
      {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(type)] ?? 1
        entry.size = Size(width: Int(width), height: Int(height))
        entry.bitDepth = Int(depth) * channels
      } else if !entry.isPNG, let width = try? data.i32le(4), let height = try? data.i32le(8),
        let depth = try? data.u16le(14)
      {
        entry.size = Size(width: Int(width), height: abs(Int(height)) / 2)
        entry.bitDepth = Int(depth)
      }
      entries.append(entry)
    }
    return entries
  }

  /// The entry to decode for `target` (see the type's discussion).
  static func bestEntry(_ entries: [Entry], target: Size?) -> Entry? {
    func side(_ entry: Entry) -> Int { max(entry.size.width, entry.size.height) }
    let largestFirst = entries.sorted { (side($0), $0.bitDepth) > (side($1), $1.bitDepth) }
    guard let target else { return largestFirst.first }
    let needed = max(target.width, target.height)
    let bigEnough = entries.filter { side($0) >= needed }
    return bigEnough.min { (side($0), -$0.bitDepth) < (side($1), -$1.bitDepth) } ?? largestFirst.first
  }
}
