import CWebP
import ThumbifyImaging

extension TestImages {
  /// WebP bytes from libwebp's simple encoder: lossy RGB/RGBA by `quality`, or lossless.
  package static func webp(_ buffer: PixelBuffer, quality: Float = 90, isLossless: Bool = false) -> [UInt8] {
    var output: UnsafeMutablePointer<UInt8>? = nil
    let stride = Int32(buffer.bytesPerRow)
    let (w, h) = (Int32(buffer.width), Int32(buffer.height))
    let size = buffer.pixels.withUnsafeBufferPointer { p -> Int in
      switch (buffer.channels, isLossless) {
      case (4, true): WebPEncodeLosslessRGBA(p.baseAddress, w, h, stride, &output)
      case (4, false): WebPEncodeRGBA(p.baseAddress, w, h, stride, quality, &output)
      case (_, true): WebPEncodeLosslessRGB(p.baseAddress, w, h, stride, &output)
      default: WebPEncodeRGB(p.baseAddress, w, h, stride, quality, &output)
      }
    }
    defer { WebPFree(output) }
    guard size > 0, let output else { return [] }
    return Array(UnsafeBufferPointer(start: output, count: size))
  }

  /// An extended WebP of `buffer` (lossy) with an `EXIF` chunk holding `orientation`.
  package static func webpWithExifOrientation(_ buffer: PixelBuffer, _ orientation: Int) -> [UInt8] {
    let exif = Array("Exif".utf8) + [0, 0] + tiffOrientation(UInt16(orientation), isLittleEndian: true)
    return webpFile(
      vp8x(flags: 0x08, width: buffer.width, height: buffer.height) + webpChunks(webp(buffer))
        + riffChunk("EXIF", exif))
  }

  /// A RIFF chunk: four-character code, little-endian size, payload, pad byte.
  package static func riffChunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
    Array(fourCC.utf8) + le32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
  }

  /// A `RIFF….WEBP` file around `chunks`.
  package static func webpFile(_ chunks: [UInt8]) -> [UInt8] {
    Array("RIFF".utf8) + le32(chunks.count + 4) + Array("WEBP".utf8) + chunks
  }

  /// The chunks of a simple WebP file (everything after `RIFF….WEBP`).
  package static func webpChunks(_ file: [UInt8]) -> [UInt8] { Array(file[12...]) }

  /// A VP8X chunk for a `width`×`height` canvas with `flags` (0x02 animation, 0x08 EXIF, 0x10 alpha).
  package static func vp8x(flags: UInt8, width: Int, height: Int) -> [UInt8] {
    riffChunk(
      "VP8X", [flags, 0, 0, 0] + Array(le32(width - 1).prefix(3)) + Array(le32(height - 1).prefix(3)))
  }

  package static func le32(_ value: Int) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
  }
}
