/// The RIFF chunks of a WebP file that libwebp's simple API does not interpret: `EXIF`, `ICCP` and the
/// first `ANMF`.
///
/// Every chunk size is bounds-checked; a malformed chunk ends the walk and
/// leaves the rest unknown (libwebp reports real corruption when it decodes).
struct WebPChunks {
  /// The orientation in the `EXIF` chunk, ``ExifOrientation/up`` without one.
  var orientation: ExifOrientation = .up
  /// The `ICCP` chunk's profile, `nil` without one.
  var profile: EmbeddedProfile?
  /// The payload of the first `ANMF` (animation frame) chunk, if any.
  var firstFrame: ByteReader?

  /// Walks the chunks after the 12-byte `RIFF….WEBP` header.
  init(_ bytes: [UInt8]) {
    let reader = ByteReader(bytes, format: .webp)
    var offset = 12
    while let size = try? reader.u32le(offset + 4),
      let payload = try? reader.window(at: offset + 8, count: Int(size))
    {
      if reader.matches(Array("EXIF".utf8), at: offset) {
        orientation = ExifOrientation(exif: payload) ?? .up
      } else if reader.matches(Array("ICCP".utf8), at: offset), profile == nil {
        profile =
          payload.count <= ColorManagement.maxProfileBytes
          ? .bytes(payload.contents)
          : .malformed(.malformedChunks(format: .webp, message: "The ICCP chunk is \(payload.count) bytes."))
      } else if reader.matches(Array("ANMF".utf8), at: offset), firstFrame == nil {
        firstFrame = payload
      }
      offset += 8 + Int(size) + Int(size & 1)  // chunks are padded to an even size
    }
  }
}
