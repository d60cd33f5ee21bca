import CGIF

/// The bytes giflib reads through ``GIFFile``'s input callback, with a read position.
struct GIFSource {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0
}

/// Owns a giflib decoder handle (`DGifOpen`/`DGifCloseFile`) reading from memory.
///
/// Every failing giflib call becomes ``ImageError/corrupt(format:message:)``
/// carrying `GifErrorString`'s text. Confined to the decode that created it.
final class GIFFile {
  /// A frame's image descriptor.
  struct Frame {
    var left: Int
    var top: Int
    var size: Size
    var isInterlaced: Bool
    var palette: [(UInt8, UInt8, UInt8)]?
  }

  private let handle: UnsafeMutablePointer<GifFileType>

  /// Opens a GIF reading from `source`, which must outlive this object. giflib reads the screen descriptor here.
  init(source: UnsafeMutablePointer<GIFSource>) throws(ImageError) {
    var error: Int32 = 0
    guard let handle = DGifOpen(UnsafeMutableRawPointer(source), Self.read, &error) else {
      throw .corrupt(format: .gif, message: Self.message(error))
    }
    self.handle = handle
  }

  deinit {
    var error: Int32 = 0
    DGifCloseFile(handle, &error)
  }

  /// The logical screen size from the screen descriptor.
  var screenSize: Size { Size(width: Int(handle.pointee.SWidth), height: Int(handle.pointee.SHeight)) }

  /// The global colour table, if the GIF has one.
  var globalPalette: [(UInt8, UInt8, UInt8)]? { Self.palette(handle.pointee.SColorMap) }

  /// The type of the next record. The corresponding C function is `DGifGetRecordType`.
  func nextRecord() throws(ImageError) -> GifRecordType {
    var type = UNDEFINED_RECORD_TYPE
    try check(DGifGetRecordType(handle, &type))
    return type
  }

  /// Reads an extension and its sub-blocks, returning the transparent index of a graphic control extension.
  func skipExtension() throws(ImageError) -> Int? {
    var code: Int32 = 0
    var block: UnsafeMutablePointer<GifByteType>? = nil
    try check(DGifGetExtension(handle, &code, &block))
    var transparentIndex: Int?
    // A graphic control block is [4, packed, delay lo, delay hi, transparent index]; bit 0 flags transparency.
    if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4, block[1] & 1 != 0 {
      transparentIndex = Int(block[4])
    }
    while block != nil {
      try check(DGifGetExtensionNext(handle, &block))
    }
    return transparentIndex
  }

  /// Reads an image descriptor. The corresponding C function is `DGifGetImageDesc`.
  func imageDescriptor() throws(ImageError) -> Frame {
    try check(DGifGetImageDesc(handle))
    let image = handle.pointee.Image
    return Frame(
      left: Int(image.Left), top: Int(image.Top),
      size: Size(width: Int(image.Width), height: Int(image.Height)),
      isInterlaced: image.Interlace, palette: Self.palette(image.ColorMap))
  }

  /// Reads the next row of colour indices into `line`. The corresponding C function is `DGifGetLine`.
  func readLine(into line: inout [UInt8]) throws(ImageError) {
    let count = Int32(line.count)
    let result = line.withUnsafeMutableBufferPointer { DGifGetLine(handle, $0.baseAddress, count) }
    try check(result)
  }

  private func check(_ result: Int32) throws(ImageError) {
    guard result == GIF_OK else { throw .corrupt(format: .gif, message: Self.message(handle.pointee.Error)) }
  }

  private static func palette(_ map: UnsafeMutablePointer<ColorMapObject>?) -> [(UInt8, UInt8, UInt8)]? {
    guard let map, let colors = map.pointee.Colors, map.pointee.ColorCount > 0 else { return nil }
    return (0..<Int(min(map.pointee.ColorCount, 256))).map {
      (colors[$0].Red, colors[$0].Green, colors[$0].Blue)
    }
  }

  private static func message(_ code: Int32) -> String {
    guard let text = GifErrorString(code) else { return "giflib error \(code)." }
    return String(cString: text)
  }

  /// giflib's input callback: copies up to `count` bytes from the ``GIFSource`` in `UserData`.
  private static let read: InputFunc = { file, buffer, count in
    guard let file, let buffer, count > 0, let user = file.pointee.UserData else { return 0 }
    let source = user.assumingMemoryBound(to: GIFSource.self)
    let available = source.pointee.bytes.count - source.pointee.position
    let length = min(Int(count), available)
    guard length > 0, let base = source.pointee.bytes.baseAddress else { return 0 }
    buffer.update(from: base + source.pointee.position, count: length)
    source.pointee.position += length
    return Int32(length)
  }
}
