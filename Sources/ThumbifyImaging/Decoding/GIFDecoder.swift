import CGIF

/// Decodes the first frame of a GIF through giflib.
///
/// The screen descriptor (read by `DGifOpen`) and the frame descriptor are
/// checked against the pixel limit before any pixel buffer is allocated. The
/// frame is drawn at its offset on a transparent canvas of the logical screen
/// size, honouring the transparent index of its graphic control extension and
/// GIF's four-pass interlacing; lines go into a ``ShrinkingCanvas`` as giflib
/// decodes them, so a decode for a thumbnail holds only the box-shrunk canvas.
/// Output is RGBA (``ImageDecoder`` reduces it to RGB when every pixel is opaque).
struct GIFDecoder: ImageDecoding {
  func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
    try data.withUnsafeBufferPointer { (gif) throws(ImageError) -> DecodedImage in
      var source = GIFSource(bytes: gif)
      return try withUnsafeMutablePointer(to: &source) { (pointer) throws(ImageError) -> DecodedImage in
        let file = try GIFFile(source: pointer)
        return try Self.firstFrame(of: file, options: options)
      }
    }
  }

  /// Reads records up to the first image and draws it.
  private static func firstFrame(of file: GIFFile, options: DecodeOptions) throws(ImageError) -> DecodedImage
  {
    var transparentIndex: Int?
    while true {
      switch try file.nextRecord() {
      case IMAGE_DESC_RECORD_TYPE:
        return try drawFrame(of: file, transparentIndex: transparentIndex, options: options)
      case EXTENSION_RECORD_TYPE:
        if let index = try file.skipExtension() { transparentIndex = index }
      case TERMINATE_RECORD_TYPE:
        throw .corrupt(format: .gif, message: "The GIF ends without an image.")
      default:
        throw .corrupt(format: .gif, message: "The GIF has an unknown record.")
      }
    }
  }

  private static func drawFrame(of file: GIFFile, transparentIndex: Int?, options: DecodeOptions)
    throws(ImageError)
    -> DecodedImage
  {
    let frame = try file.imageDescriptor()
    var canvas = file.screenSize
    if canvas.width == 0 || canvas.height == 0 {
      canvas = Size(width: frame.left + frame.size.width, height: frame.top + frame.size.height)
    }
    try options.checkPixels(canvas, format: .gif)
    try options.checkPixels(frame.size, format: .gif)
    guard let palette = frame.palette ?? file.globalPalette else {
      throw .corrupt(format: .gif, message: "The GIF has neither a global nor a local colour table.")
    }
    var shrunk = ShrinkingCanvas(
      source: canvas, factor: ShrinkingCanvas.factor(for: canvas, options: options), channels: 4,
      rowsInOrder: !frame.isInterlaced)
    var line = [UInt8](repeating: 0, count: frame.size.width)
    let visible = min(frame.size.width, max(0, canvas.width - frame.left))
    var rgba = [UInt8](repeating: 0, count: visible * 4)
    for row in Self.rowOrder(height: frame.size.height, isInterlaced: frame.isInterlaced) {
      try file.readLine(into: &line)
      let y = frame.top + row
      guard y < canvas.height, visible > 0 else { continue }
      for column in 0..<visible {
        let index = Int(line[column])
        let color = index == transparentIndex ? nil : index < palette.count ? palette[index] : (0, 0, 0)
        rgba[column * 4] = color?.0 ?? 0
        rgba[column * 4 + 1] = color?.1 ?? 0
        rgba[column * 4 + 2] = color?.2 ?? 0
        rgba[column * 4 + 3] = color == nil ? 0 : 255
      }
      rgba.withUnsafeBufferPointer { shrunk.add($0.baseAddress!, count: visible, y: y, x0: frame.left) }
    }
    return DecodedImage(
      buffer: shrunk.finish(), format: .gif, originalSize: canvas, exactScale: shrunk.exactScale)
  }

  /// The frame rows in the order they are stored: 0, 8, 16…, 4, 12…, 2, 6…, 1, 3… when interlaced.
  static func rowOrder(height: Int, isInterlaced: Bool) -> [Int] {
    guard isInterlaced else { return Array(0..<height) }
    return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in
      Array(stride(from: start, to: height, by: step))
    }
  }
}
