import CPNG
import CPNGRows

/// Decodes PNG row by row through libpng (`thumbify_png_read_rows` in `Sources/CPNGRows`).
///
/// Palette, gray, 16-bit, tRNS and interlaced images all come out as 8-bit
/// RGB, or RGBA (straight alpha) when the image has an alpha channel or tRNS,
/// with the transforms of libpng's simplified API: 16-bit samples without
/// gAMA/sRGB are taken as sRGB-encoded, as browsers do. The header is checked
/// against the pixel limit before any pixel memory is allocated, and rows go
/// into a ``ShrinkingCanvas`` as libpng inflates them, so a decode for a
/// thumbnail holds only the box-shrunk image (a 49-megapixel PNG for a
/// 1200-pixel thumbnail: about 40 MB, not 150–200 MB). Adam7 passes are
/// placed pixel by pixel, which also keeps clear of libpng 1.6.39's garbled
/// interlaced 16-bit reads in its simplified API. An `iCCP` profile, or a `cHRM` (and `gAMA`) that is
/// not sRGB's (``ChromaticityProfile``), is converted to sRGB (``ColorManagement``) and an `eXIf`
/// orientation applied, both to the shrunk pixels.
struct PNGDecoder: ImageDecoding {
  func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
    try data.withUnsafeBufferPointer { (png) throws(ImageError) -> DecodedImage in
      let reader = try Self.read(UnsafeRawBufferPointer(png), options: options)
      var buffer = reader.buffer
      let profile = reader.rows.profile.map { ColorManagement.convert(&buffer, from: $0) }
      let orientation = reader.rows.orientation
      return DecodedImage(
        buffer: buffer.oriented(orientation), format: .png,
        originalSize: orientation.upright(reader.rows.size),
        exactScale: reader.scale, profile: profile)
    }
  }

  /// Decodes PNG bytes held in memory at full size or box-shrunk; ICO entries call this directly.
  static func decode(_ png: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageError) -> PixelBuffer
  {
    try read(png, options: options).buffer
  }

  /// The decoded (possibly shrunk) pixels as stored (neither oriented nor colour-converted), the
  /// reader's facts (size, profile, orientation), the shrink's scale, and whether the rows came from the
  /// whole-image path (libdeflate and thumbify's unfiltering) rather than libpng's row reads.
  static func read(_ png: UnsafeRawBufferPointer, options: DecodeOptions)
    throws(ImageError) -> (buffer: PixelBuffer, rows: RowReader, scale: Double?, isWholeImage: Bool)
  {
    let reader = RowReader(options: options)
    var message = [CChar](repeating: 0, count: 256)
    let status = withExtendedLifetime(reader) {
      thumbify_png_read_rows(
        png.baseAddress?.assumingMemoryBound(to: UInt8.self), png.count,
        Unmanaged.passUnretained(reader).toOpaque(),
        { context, header in
          Unmanaged<RowReader>.fromOpaque(context!).takeUnretainedValue().begin(header!.pointee) ? 1 : 0
        },
        { context, pixels, count, y, x0, step in
          Unmanaged<RowReader>.fromOpaque(context!).takeUnretainedValue().canvas!.add(
            pixels!, count: Int(count), y: Int(y), x0: Int(x0), step: Int(step))
        },
        &message, message.count)
    }
    if let error = reader.error { throw error }
    guard status == 1 || status == 2, var canvas = reader.canvas else {
      let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw .corrupt(format: .png, message: text.isEmpty ? "libpng reported no message." : text)
    }
    return (canvas.finish(), reader, canvas.exactScale, status == 2)
  }

  /// The state libpng's callbacks reach through their context pointer.
  final class RowReader {
    let options: DecodeOptions
    var canvas: ShrinkingCanvas?
    var size = Size(width: 0, height: 0)
    var error: ImageError?
    /// The iCCP profile, one made from cHRM and gAMA, or libpng's warning for a colour chunk it dropped.
    var profile: EmbeddedProfile?
    /// The eXIf chunk's orientation, ``ExifOrientation/up`` without one.
    var orientation = ExifOrientation.up

    init(options: DecodeOptions) { self.options = options }

    /// Checks the header and sets up the canvas; `false` stops the read.
    func begin(_ header: thumbify_png_header) -> Bool {
      size = Size(width: Int(header.width), height: Int(header.height))
      if let icc = header.icc_profile, header.icc_profile_length > 0 {
        profile = .bytes(Array(UnsafeBufferPointer(start: icc, count: Int(header.icc_profile_length))))
      } else if header.has_chromaticities != 0 {
        let xy = withUnsafeBytes(of: header.chromaticities) { Array($0.bindMemory(to: Int32.self)) }
        profile = ChromaticityProfile(chromaticities: xy, fileGamma: header.file_gamma).embedded
      } else if let warning = header.colour_warning {
        // libpng dropped the chunk and said so only in a warning: record it, the image is sRGB.
        profile = .malformed(.malformedChunks(format: .png, message: "libpng: " + String(cString: warning)))
      }
      if let exif = header.exif, header.exif_length > 0 {
        let tiff = Array(UnsafeBufferPointer(start: exif, count: Int(header.exif_length)))
        orientation = ExifOrientation(exif: ByteReader(tiff, format: .png)) ?? .up
      }
      do throws(ImageError) {
        try options.checkPixels(size, format: .png)
      } catch {
        self.error = error
        return false
      }
      canvas = ShrinkingCanvas(
        source: size, factor: ShrinkingCanvas.factor(for: size, orientation: orientation, options: options),
        channels: Int(header.channels), rowsInOrder: header.interlaced == 0)
      return true
    }
  }

  /// Whether the header says the image has no alpha: a gray, RGB or palette colour
  /// type (IHDR byte 25: 0, 2 or 3) and no tRNS chunk before the first IDAT.
  /// `false` for anything it cannot read, so damaged files keep the RGB path
  /// and libpng's own error.
  static func isOpaque(_ data: [UInt8]) -> Bool {
    guard data.count > 33, [0, 2, 3].contains(data[25]) else { return false }
    var offset = 33  // the signature (8) and IHDR (4 + 4 + 13 + 4)
    while offset + 8 <= data.count {
      let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
      if type == "IDAT" { return true }
      if type == "tRNS" || length > data.count { return false }
      offset += 12 + length
    }
    return false
  }
}
