import Foundation
import Testing
import ThumbifyImaging

/// Test inputs: the repository's sample photos and synthetic images.
package enum Fixtures {
  /// The repository root, found from this file's path.
  package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The names of the files in `samples/photos` that are images.
  package static let photoNames = [
    "storm.jpg", "raindrops-progressive.jpg", "greenmeadow.jpg", "ladybird.webp",
    "yellowflower.webp", "freshflower-alpha.png",
  ]

  package static func photoBytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: root.appendingPathComponent("samples/photos/\(name)")))
  }

  /// A sample photo's pixels, decoded by the C libraries directly.
  package static func photo(_ name: String) throws -> PixelBuffer {
    let decoded = LibraryDecoder.pixels(of: try photoBytes(name))
    return try #require(decoded)
  }

  /// A smooth RGB gradient with some texture, `width`×`height`.
  package static func gradient(width: Int, height: Int) -> PixelBuffer {
    var pixels: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        pixels += [
          UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), UInt8((x ^ y) & 0xFF),
        ]
      }
    }
    return PixelBuffer(width: width, height: height, channels: 3, pixels: pixels)
  }

  /// A fresh empty directory under the temporary directory.
  package static func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "thumbify-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}
