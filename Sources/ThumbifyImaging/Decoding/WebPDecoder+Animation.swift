import CWebP

extension WebPDecoder {
  /// Decodes the first frame of an animated WebP onto its canvas.
  ///
  /// libwebp's simple API refuses animations, so the first `ANMF` chunk is
  /// found here and its `ALPH`+`VP8 `/`VP8L` chunks, which `WebPDecode`
  /// accepts on their own, are decoded at full size and placed at the frame's
  /// offset on a transparent canvas. Animations are not shrunk on load.
  func decodeFirstFrame(_ data: [UInt8], chunks: WebPChunks, canvas: Size, options: DecodeOptions)
    throws(ImageError)
    -> DecodedImage
  {
    guard let frame = chunks.firstFrame else {
      throw .corrupt(format: .webp, message: "The animation has no frame.")
    }
    func u24(_ offset: Int) throws(ImageError) -> Int {
      Int(try frame.u8(offset)) | Int(try frame.u8(offset + 1)) << 8 | Int(try frame.u8(offset + 2)) << 16
    }
    let (x, y) = (try u24(0) * 2, try u24(3) * 2)
    let size = Size(width: try u24(6) + 1, height: try u24(9) + 1)
    try options.checkPixels(size, format: .webp)
    // The frame's bitstream follows its 16-byte header; the chunk's own size may not leave room for it.
    let payload = try frame.window(at: 16, count: max(0, frame.count - 16))
    let bitstream = Array(payload.bytes[payload.start..<payload.end])
    var features = WebPBitstreamFeatures()
    let status = bitstream.withUnsafeBufferPointer {
      thumbify_webp_get_features($0.baseAddress, $0.count, &features)
    }
    guard status == VP8_STATUS_OK else { throw Self.error(status) }
    guard Int(features.width) == size.width, Int(features.height) == size.height else {
      throw .corrupt(format: .webp, message: "The first frame's bitstream does not match its \(size) header.")
    }
    let pixels = try Self.decodeBitstream(bitstream, size: size, scaled: false, hasAlpha: true)
    var output = [UInt8](repeating: 0, count: canvas.width * canvas.height * 4)
    for row in 0..<size.height where y + row < canvas.height {
      let width = min(size.width, canvas.width - x)
      guard width > 0 else { break }
      let source = row * size.width * 4
      let target = ((y + row) * canvas.width + x) * 4
      output.replaceSubrange(target..<target + width * 4, with: pixels.pixels[source..<source + width * 4])
    }
    let buffer = PixelBuffer(width: canvas.width, height: canvas.height, channels: 4, pixels: output)
    return DecodedImage(
      buffer: buffer.oriented(chunks.orientation), format: .webp,
      originalSize: chunks.orientation.upright(canvas))
  }
}
