import CGIF

extension TestImages {
  /// One frame of a test GIF: colour indices, placement and an optional transparent index.
  package struct GIFFrame {
    package var left = 0
    package var top = 0
    package var width: Int
    package var height: Int
    package var indices: [UInt8]
    package var transparentIndex: UInt8?
    package var isInterlaced = false

    // The memberwise initializer, `package` (a synthesized one is internal).
    package init(
      left: Int = 0, top: Int = 0, width: Int, height: Int, indices: [UInt8], transparentIndex: UInt8? = nil,
      isInterlaced: Bool = false
    ) {
      self.left = left
      self.top = top
      self.width = width
      self.height = height
      self.indices = indices
      self.transparentIndex = transparentIndex
      self.isInterlaced = isInterlaced
    }
  }

  /// GIF bytes written by giflib (`EGifOpen` … `EGifCloseFile`) with a global palette of `palette` colours.
  package static func gif(
    screenWidth: Int, screenHeight: Int, palette: [(UInt8, UInt8, UInt8)], frames: [GIFFrame]
  )
    -> [UInt8]
  {
    final class Sink { var bytes: [UInt8] = [] }
    let sink = Sink()
    let write: OutputFunc = { file, data, count in
      guard let file, let data, let user = file.pointee.UserData else { return 0 }
      Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue().bytes += UnsafeBufferPointer(
        start: data, count: Int(count))
      return count
    }
    var error: Int32 = 0
    guard let file = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), write, &error) else { return [] }
    EGifSetGifVersion(file, true)
    var colors = palette.map { GifColorType(Red: $0.0, Green: $0.1, Blue: $0.2) }
    while colors.count & (colors.count - 1) != 0 || colors.count < 2 {
      colors.append(GifColorType(Red: 0, Green: 0, Blue: 0))
    }
    let map = GifMakeMapObject(Int32(colors.count), &colors)
    defer { GifFreeMapObject(map) }
    EGifPutScreenDesc(file, Int32(screenWidth), Int32(screenHeight), 8, 0, map)
    for frame in frames {
      if let index = frame.transparentIndex {
        var control: [UInt8] = [1, 10, 0, index]
        EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, 4, &control)
      }
      EGifPutImageDesc(
        file, Int32(frame.left), Int32(frame.top), Int32(frame.width), Int32(frame.height),
        frame.isInterlaced, nil)
      // GIF interlacing stores rows in four passes: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
      let passes = frame.isInterlaced ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
      for row in passes.flatMap({ stride(from: $0.0, to: frame.height, by: $0.1) }) {
        var line = Array(frame.indices[(row * frame.width)..<((row + 1) * frame.width)])
        EGifPutLine(file, &line, Int32(frame.width))
      }
    }
    EGifCloseFile(file, &error)
    return sink.bytes
  }
}
