import CTurboJPEG
import Foundation
import Testing
import ThumbifyImaging

/// Builds test inputs in memory with the real encoders, so tests need no binary fixtures.
package enum TestImages {
  /// Expects `decode` to fail with `.corrupt(.jpeg, …)` carrying libjpeg's message.
  package static func expectCorruptJPEG(_ decode: () throws(ImageError) -> Void) {
    do {
      try decode()
      Issue.record("a cut-off JPEG decoded")
    } catch {
      guard case .corrupt(.jpeg, let message) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(!message.isEmpty)
    }
  }

  /// An RGB image whose pixel at (x, y) is `color(x, y)`.
  package static func rgb(width: Int, height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8))
    -> PixelBuffer
  {
    let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, count in
      var index = 0
      for y in 0..<height {
        for x in 0..<width {
          (buffer[index], buffer[index + 1], buffer[index + 2]) = color(x, y)
          index += 3
        }
      }
      count = index
    }
    return PixelBuffer(width: width, height: height, channels: 3, pixels: pixels)
  }

  /// The four quadrant colours of the asymmetric orientation picture: top-left red, top-right green,
  /// bottom-left blue, bottom-right white.
  package static let quadrantColors: [(UInt8, UInt8, UInt8)] = [
    (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255),
  ]

  /// An image split into quadrants coloured `colors` (top-left, top-right, bottom-left, bottom-right).
  package static func quadrants(width: Int, height: Int, colors: [(UInt8, UInt8, UInt8)]) -> PixelBuffer {
    rgb(width: width, height: height) { x, y in
      colors[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]
    }
  }

  /// JPEG bytes compressed by TurboJPEG (`tjCompress2`).
  ///
  /// - Parameters:
  ///   - samples: Packed samples in `pixelFormat` (RGB, gray or CMYK).
  ///   - subsampling: A `TJSAMP` value; gray images need `TJSAMP_GRAY`.
  package static func jpeg(
    _ samples: [UInt8], width: Int, height: Int, pixelFormat: TJPF = TJPF_RGB,
    subsampling: TJSAMP = TJSAMP_420, quality: Int32 = 95, isProgressive: Bool = false
  ) -> [UInt8] {
    guard let handle = tjInitCompress() else { return [] }
    defer { tjDestroy(handle) }
    var output: UnsafeMutablePointer<UInt8>? = nil
    var size: UInt = 0
    let flags = isProgressive ? TJFLAG_PROGRESSIVE : 0
    let result = samples.withUnsafeBufferPointer {
      tjCompress2(
        handle, $0.baseAddress, Int32(width), 0, Int32(height), Int32(pixelFormat.rawValue), &output, &size,
        Int32(subsampling.rawValue), quality, flags)
    }
    defer { tjFree(output) }
    guard result == 0, let output else { return [] }
    return Array(UnsafeBufferPointer(start: output, count: Int(size)))
  }

  /// JPEG bytes of an RGB buffer.
  package static func jpeg(_ buffer: PixelBuffer, quality: Int32 = 95, isProgressive: Bool = false) -> [UInt8]
  {
    jpeg(
      buffer.pixels, width: buffer.width, height: buffer.height, quality: quality,
      isProgressive: isProgressive)
  }

  /// A TIFF structure holding only IFD0 with an orientation tag, in either byte order.
  package static func tiffOrientation(_ value: UInt16, isLittleEndian: Bool) -> [UInt8] {
    func u16(_ v: UInt16) -> [UInt8] {
      isLittleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
    }
    func u32(_ v: UInt32) -> [UInt8] {
      let be = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
      return isLittleEndian ? be.reversed() : be
    }
    var tiff = Array((isLittleEndian ? "II" : "MM").utf8) + u16(42) + u32(8)
    tiff += u16(2)  // two entries: an unrelated one first, then orientation
    tiff += u16(0x010F) + u16(2) + u32(4) + Array("ACME".utf8)  // Make, ASCII, 4 bytes inline
    tiff += u16(0x0112) + u16(3) + u32(1) + u16(value) + u16(0)
    tiff += u32(0)  // no next IFD
    return tiff
  }

  /// `jpeg` with an APP1 Exif segment carrying `orientation` inserted right after SOI.
  package static func withExifOrientation(_ jpeg: [UInt8], _ orientation: Int, isLittleEndian: Bool = false)
    -> [UInt8]
  {
    let payload =
      Array("Exif".utf8) + [0, 0] + tiffOrientation(UInt16(orientation), isLittleEndian: isLittleEndian)
    let length = payload.count + 2
    let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
  }

  /// The RGBA or RGB sample at (x, y).
  package static func pixel(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
    let start = (y * buffer.width + x) * buffer.channels
    return Array(buffer.pixels[start..<start + buffer.channels])
  }

  /// For each orientation, which upright quadrant (0 TL, 1 TR, 2 BL, 3 BR) is stored at the stored
  /// top-left, top-right, bottom-left and bottom-right — read off the EXIF definitions
  /// ("row 0 is the visual right side, column 0 the visual top" for 6, and so on).
  package static let storedQuadrants: [Int: [Int]] = [
    1: [0, 1, 2, 3],
    2: [1, 0, 3, 2],
    3: [3, 2, 1, 0],
    4: [2, 3, 0, 1],
    5: [0, 2, 1, 3],
    6: [1, 3, 0, 2],
    7: [3, 1, 2, 0],
    8: [2, 0, 3, 1],
  ]

  /// The upright 64×32 quadrant picture (red top-left) as a camera with `orientation` stores it.
  package static func storedPicture(_ orientation: Int) -> PixelBuffer {
    let swaps = orientation >= 5
    let colors = storedQuadrants[orientation, default: []].map { TestImages.quadrantColors[$0] }
    return TestImages.quadrants(width: swaps ? 32 : 64, height: swaps ? 64 : 32, colors: colors)
  }

  /// Whether two samples differ by at most `tolerance` in every channel.
  package static func isClose(_ a: [UInt8], _ b: [UInt8], tolerance: Int) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
  }

  /// The committed fixture at `Tests/ThumbifyImagingTestSupport/Fixtures/<name>`.
  package static func fixture(_ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures").appendingPathComponent(name)
    return Array(try Data(contentsOf: url))
  }

  /// The message of the ``ImageError/corrupt(format:message:)`` that decoding `bytes` throws, or `nil` when
  /// decoding succeeds or fails any other way (so `#expect(… != nil)` fails then).
  package static func corruptionMessage(decoding bytes: [UInt8], format: ImageFormat) -> String? {
    do {
      _ = try ImageDecoder().decode(bytes, options: DecodeOptions())
      return nil
    } catch {
      guard case .corrupt(format, let message) = error else { return nil }
      return message
    }
  }
}
