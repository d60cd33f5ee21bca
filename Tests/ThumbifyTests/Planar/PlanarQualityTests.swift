import Foundation
import Testing

@testable import Thumbify

/// The planar path's pixels against the RGB path and the double-precision reference.
@Suite("Planar path quality")
struct PlanarQualityTests {
  static let boxes: [(Size, Fit)] = [
    (Size(width: 600, height: 315), .contain), (Size(width: 150, height: 150), .contain),
    (Size(width: 64, height: 64), .cover),
  ]

  /// Per-channel PSNR (dB) of `a` against `b`, both RGB of one size.
  static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> [Double] {
    (0..<3).map { channel in
      var squared = 0.0
      for index in stride(from: channel, to: a.pixels.count, by: 3) {
        let difference = Double(a.pixels[index]) - Double(b.pixels[index])
        squared += difference * difference
      }
      let mse = max(squared / Double(a.pixels.count / 3), 1e-9)
      return 10 * log10(255 * 255 / mse)
    }
  }

  @Test(arguments: [1, 3, 4, 8])
  func planeResizeMatchesTheRGBResizeOnGray(seed: Int) {
    // Given a textured gray image as a plane and as RGB with R = G = B
    let (width, height) = (301 + seed, 157 + 2 * seed)
    let samples = (0..<(width * height)).map {
      UInt8(truncatingIfNeeded: ($0 * 7919 / (seed + 3)) ^ ($0 / width))
    }
    let plane = SamplePlane(width: width, height: height, samples: samples)
    let rgb = PixelBuffer(
      width: width, height: height, channels: 3, pixels: samples.flatMap { [$0, $0, $0] })

    // When both are resized (with and without a crop region, reductions that pre-shrink and not)
    for output in [Size(width: 37, height: 19), Size(width: 150, height: 80), Size(width: 64, height: 64)] {
      let region = ThumbnailGeometry.Region(
        x: 3.25, y: 1.5, width: Double(width) - 9.5, height: Double(height) - 4)
      let planar = Resampler().resize(plane, to: output, region: region)
      let reference = Resampler().resize(rgb, to: output, region: region)

      // Then they are the same samples
      #expect(
        planar.samples == stride(from: 0, to: reference.pixels.count, by: 3).map { reference.pixels[$0] })
    }
  }

  @Test(arguments: PlanarPathTests.photos, 0..<3)
  func planarThumbnailsMatchTheReference(name: String, box: Int) throws {
    // Given a photo and a thumbnail box
    let bytes = try Fixtures.photoBytes(name)
    let (target, fit) = Self.boxes[box]
    // JPEG headroom 1 for both paths, so they decode at the same DCT scale (at 1.5 the RGB
    // path decodes larger than the planar one's chroma-covering rule, whose chroma is then
    // sharper than the reference's upsampled-then-filtered chroma).
    let options = DecodeOptions(target: target, fit: fit, jpegShrinkHeadroom: 1)

    // When the planar path makes the thumbnail (chroma at full size, as for PNG output)
    let planes = try #require(try ImageDecoder().decodePlanes(bytes, options: options, chromaFactor: (1, 1)))
    let geometry = ThumbnailGeometry(source: planes.originalSize, box: target, fit: fit)
    let planar = Resampler().resize(planes, geometry: geometry, chromaFactor: (1, 1)).rgb()

    // Then it matches the double-precision reference of the full RGB decode (SSIM on luma) …
    let full = try ImageDecoder().decode(bytes, options: DecodeOptions()).buffer
    let reference = ReferenceResampler().resize(full, geometry: geometry)
    let ssim = try #require(StructuralSimilarity.ssim(planar, reference))
    #expect(ssim >= 0.98, "SSIM \(ssim)")

    // … and its colours are as close to the reference as the RGB path's (per-channel PSNR)
    let rgbPath = Resampler().resize(try ImageDecoder().decode(bytes, options: options), geometry: geometry)
    let planarPSNR = Self.psnr(planar, reference)
    let rgbPSNR = Self.psnr(rgbPath, reference)
    for channel in 0..<3 {
      #expect(planarPSNR[channel] >= rgbPSNR[channel] - 0.5, "PSNR \(planarPSNR) vs RGB path \(rgbPSNR)")
    }
  }

  @Test(arguments: PlanarPathTests.photos)
  func planarWebPCardsMatchTheRGBPath(name: String) throws {
    // Given a photo's card made by both paths
    let bytes = try Fixtures.photoBytes(name)
    let root = try Fixtures.temporaryDirectory()
    let planar = try Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: root))
      .thumbnails(of: bytes, source: name, variants: [.card])
    let rgb = try Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: root), usesPlanarPath: false)
      .thumbnails(of: bytes, source: name, variants: [.card])
    func pixels(_ set: ThumbnailSet) throws -> PixelBuffer {
      let data = try #require(FileManager.default.contents(atPath: root + "/" + set.variants[0].path))
      return try ImageDecoder().decode([UInt8](data), options: DecodeOptions()).buffer
    }

    // Then the planar card is as close to the reference as the RGB card, in luma and per channel
    let full = try ImageDecoder().decode(bytes, options: DecodeOptions())
    let geometry = ThumbnailGeometry(source: full.originalSize, box: ThumbnailVariant.card.box, fit: .contain)
    let reference = ReferenceResampler().resize(full.buffer, geometry: geometry)
    let (planarCard, rgbCard) = (try pixels(planar), try pixels(rgb))
    let planarSSIM = try #require(StructuralSimilarity.ssim(planarCard, reference))
    let rgbSSIM = try #require(StructuralSimilarity.ssim(rgbCard, reference))
    #expect(planarSSIM >= rgbSSIM - 0.002, "SSIM \(planarSSIM) vs RGB path \(rgbSSIM)")
    let planarPSNR = Self.psnr(planarCard, reference)
    let rgbPSNR = Self.psnr(rgbCard, reference)
    for channel in 0..<3 {
      #expect(planarPSNR[channel] >= rgbPSNR[channel] - 0.5, "PSNR \(planarPSNR) vs RGB path \(rgbPSNR)")
    }
  }
}
