/// What thumbify needs from a JPEG's marker segments before decoding: the EXIF orientation and
/// the ICC profile.
///
/// TurboJPEG does not report it, so the segments before the first scan are walked
/// here, with every length bounds-checked. A malformed segment ends the walk
/// quietly; TurboJPEG reports real corruption when it decodes.
struct JPEGMarkers {
  /// The orientation from the first APP1 `Exif` segment, ``ExifOrientation/up`` without one.
  var orientation: ExifOrientation = .up
  /// The ICC profile from the APP2 `ICC_PROFILE` segments, `nil` without one.
  var profile: EmbeddedProfile? { profileChunks.profile }
  private var profileChunks = ICCProfileChunks()

  /// Walks the segments of `bytes` up to the first scan (SOS) or the end of the data.
  init(_ bytes: [UInt8]) {
    let reader = ByteReader(bytes, format: .jpeg)
    var sawExif = false
    var offset = 2  // past SOI
    while let prefix = try? reader.u8(offset), prefix == 0xFF {
      var marker: UInt8 = 0xFF
      while marker == 0xFF {  // fill bytes may precede a marker
        offset += 1
        guard let next = try? reader.u8(offset) else { return }
        marker = next
      }
      offset += 1
      if marker == 0x01 || (0xD0...0xD8).contains(marker) { continue }  // markers without a length
      if marker == 0xDA || marker == 0xD9 { return }  // start of scan or end of image
      guard let length = try? reader.u16be(offset), length >= 2,
        let segment = try? reader.window(at: offset + 2, count: Int(length) - 2)
      else { return }
      if marker == 0xE1, !sawExif, segment.matches(Array("Exif".utf8) + [0, 0]) {
        sawExif = true
        orientation = ExifOrientation(exif: segment) ?? .up
      } else if marker == 0xE2, segment.matches(ICCProfileChunks.signature) {
        profileChunks.add(segment)
      }
      offset += Int(length)
    }
  }
}
