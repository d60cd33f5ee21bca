import CLCMS2
import CTurboJPEG
import Testing
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@testable import ThumbifyImaging

/// A tagged JPEG's planes converted in one pass (`MatrixShaperConversion.apply(to:upsampling:)`, the C
/// function `thumbify_convert_planes`) against the same steps taken one at a time: upsampling, BT.601 to
/// RGB (``YCbCrImage/rgb()``), the Swift tables and Little CMS, back to 4:2:0 (``YCbCrImage/init(fullRange:)``).
@Suite("Colour plane conversion", .offThePool)
struct ColourPlaneConversionTests {
  /// Sizes with odd widths and heights, a single row, column and pixel, and several of the C code's
  /// eight-pixel (and eight-block) steps with a remainder; with every chroma factor the JPEG decoder hands over.
  static let cases: [(width: Int, height: Int, factor: Factor)] = [
    (37, 23, .f420), (64, 48, .f420), (1, 1, .f420), (2, 3, .f420), (33, 1, .f420), (1, 17, .f420),
    (37, 23, .f422), (64, 48, .f422), (5, 4, .f422), (37, 23, .f444), (8, 8, .f444), (37, 23, .f440),
    (9, 2, .f440), (131, 9, .f420), (130, 6, .f422),
  ]

  enum Factor: String, Sendable, CustomStringConvertible {
    case f444, f422, f420, f440, f411
    var value: (x: Int, y: Int) {
      switch self {
      case .f444: (1, 1)
      case .f422: (2, 1)
      case .f420: (2, 2)
      case .f440: (1, 2)
      case .f411: (4, 1)
      }
    }
    var description: String { rawValue }
  }

  /// Random full-range planes (every byte possible: clipped and out-of-gamut colours included).
  static func randomPlanes(width: Int, height: Int, factor: Factor, seed: UInt64) -> YCbCrImage {
    var generator = SplitMix(seed: seed)
    let chroma = YCbCrImage.chromaSize(of: Size(width: width, height: height), factor: factor.value)
    func plane(_ width: Int, _ height: Int) -> SamplePlane {
      SamplePlane(width: width, height: height, samples: (0..<width * height).map { _ in generator.byte() })
    }
    return YCbCrImage(
      luma: plane(width, height), cb: plane(chroma.width, chroma.height),
      cr: plane(chroma.width, chroma.height),
      range: .full, chromaFactor: factor.value)
  }

  /// Adobe RGB's and ProPhoto's tables and matrix, and their Little CMS transforms.
  static func conversions() throws -> [(tables: MatrixShaperConversion, transform: ColorTransform)] {
    try [TestImages.RGBSpace.adobeRGB, .proPhoto].map { space in
      guard
        case .convert(let transform, _) = ColorManagement.plan(
          for: TestImages.iccProfile(space), layout: .rgb)
      else { throw ConversionMissing() }
      return (try #require(transform.matrixShaper), transform)
    }
  }

  struct ConversionMissing: Error {}

  /// libjpeg's "fancy" upsampling (jdsample.c: h2v2, h2v1, h1v2) to full-resolution chroma, written out
  /// sample by sample as libjpeg does: 3/4 of the nearer sample and 1/4 of the further one in each
  /// direction, edges repeated, its rounding biases.
  static func triangleUpsampled(_ image: YCbCrImage) -> YCbCrImage {
    let (fx, fy) = image.chromaFactor
    guard fx > 1 || fy > 1 else { return image }
    let (width, height) = (image.width, image.height)
    func upsample(_ plane: SamplePlane) -> SamplePlane {
      func sample(_ column: Int, _ row: Int) -> Int {
        Int(
          plane.samples[
            min(max(row, 0), plane.height - 1) * plane.width + min(max(column, 0), plane.width - 1)])
      }
      var samples = [UInt8](repeating: 0, count: width * height)
      for y in 0..<height {
        for x in 0..<width {
          let (i, j) = (x / fx, y / fy)
          let side = x % 2 == 1 ? i + 1 : i - 1
          let other = y % 2 == 1 ? j + 1 : j - 1
          let value: Int
          switch (fx, fy) {
          case (2, 2):
            let near = 3 * sample(i, j) + sample(i, other)
            let far = 3 * sample(side, j) + sample(side, other)
            value = (3 * near + far + (x % 2 == 1 ? 7 : 8)) >> 4
          case (2, 1): value = (3 * sample(i, j) + sample(side, j) + (x % 2 == 1 ? 2 : 1)) >> 2
          default: value = (3 * sample(i, j) + sample(i, other) + (y % 2 == 1 ? 2 : 1)) >> 2
          }
          samples[y * width + x] = UInt8(value)
        }
      }
      return SamplePlane(width: width, height: height, samples: samples)
    }
    return YCbCrImage(
      luma: image.luma, cb: upsample(image.cb), cr: upsample(image.cr), range: .full, chromaFactor: (1, 1))
  }

  /// The largest difference between two images' samples, plane by plane; `Int.max` when their sizes differ.
  static func largestDifference(_ a: YCbCrImage, _ b: YCbCrImage) -> Int {
    guard a.luma.width == b.luma.width, a.luma.height == b.luma.height, a.cb.width == b.cb.width,
      a.cb.height == b.cb.height, a.chromaFactor == b.chromaFactor
    else { return .max }
    return zip([a.luma, a.cb, a.cr], [b.luma, b.cb, b.cr]).map { plane in
      zip(plane.0.samples, plane.1.samples).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }.max() ?? 0
  }

  /// The steps one at a time: `image`'s per-pixel chroma already in place (factor 1) or nearest, to
  /// RGB, converted by `convert`, back to 4:2:0 planes.
  static func stepByStep(_ image: YCbCrImage, _ convert: (UnsafeMutablePointer<UInt8>, Int) -> Void)
    -> YCbCrImage
  {
    var rgb = image.rgb()
    let count = rgb.width * rgb.height
    rgb.pixels.withUnsafeMutableBufferPointer { convert($0.baseAddress!, count) }
    return YCbCrImage(fullRange: rgb)
  }

  /// Y′ in sixteenths of a level of converted RGB pixels, rounded.
  static func sixteenths(_ rgb: PixelBuffer) -> [Int16] {
    (0..<(rgb.width * rgb.height)).map { pixel in
      let (r, g, b) = (
        Int(rgb.pixels[3 * pixel]), Int(rgb.pixels[3 * pixel + 1]), Int(rgb.pixels[3 * pixel + 2])
      )
      return Int16((4899 * r + 9617 * g + 1868 * b + 512) >> 10)
    }
  }

  @Test(arguments: cases.indices)
  func theOnePassIsTheStepsOneAtATime(index: Int) throws {
    let (width, height, factor) = Self.cases[index]
    for (number, conversion) in try Self.conversions().enumerated() {
      // Given random planes of that size and subsampling
      let image = Self.randomPlanes(
        width: width, height: height, factor: factor, seed: UInt64(index * 10 + number))

      // When they are converted in one pass, with each upsampling (and with the AVX2, SSE2 and portable C
      // code), and step by step (Swift's tables and Little CMS on the same upsampled pixels)
      for upsampling in [MatrixShaperConversion.ChromaUpsampling.nearest, .triangle] {
        let fused = conversion.tables.apply(to: image, upsampling: upsampling)
        let narrower = [1, 0].map {
          conversion.tables.apply(to: image, upsampling: upsampling, widestInstructionSet: $0)
        }
        let upsampled = upsampling == .triangle ? Self.triangleUpsampled(image) : image
        var converted = upsampled.rgb()
        converted.pixels.withUnsafeMutableBufferPointer {
          conversion.tables.apply($0.baseAddress!, count: converted.width * converted.height, channels: 3)
        }
        let swift = YCbCrImage(fullRange: converted)
        let littleCMS = Self.stepByStep(upsampled) { pixels, count in
          conversion.transform.apply(from: UnsafeRawPointer(pixels), to: pixels, count: count)
        }

        // Then the one pass gives the Swift steps' bytes, within one level of Little CMS's, as 4:2:0
        let label = "\(width)×\(height) \(factor) \(upsampling) profile \(number)"
        #expect(fused.chromaFactor == (2, 2), "\(label)")
        #expect(Self.largestDifference(fused, swift) == 0, "\(label)")
        #expect(narrower.allSatisfy { Self.largestDifference($0, fused) == 0 }, "\(label): SSE2 or C differs")
        // and Y′ to a sixteenth of a level: the converted pixels' own
        #expect(fused.lumaSixteenths?.samples == Self.sixteenths(converted), "\(label)")
        #expect(
          narrower.allSatisfy { $0.lumaSixteenths == fused.lumaSixteenths }, "\(label): SSE2 or C differs")
        #expect(Self.largestDifference(fused, littleCMS) <= 1, "\(label)")
        #expect(
          Self.largestDifference(fused, image) > 8 || width * height < 16, "\(label): nothing converted")
      }
    }
  }

  @Test func aChromaFactorOfFourIsConvertedStepByStep() throws {
    // Given 4:1:1 planes, which the one pass declines
    let conversion = try Self.conversions()[0]
    let image = Self.randomPlanes(width: 37, height: 9, factor: .f411, seed: 411)

    // When they are converted
    let converted = conversion.tables.apply(to: image, upsampling: .triangle)

    // Then they were converted by the Swift steps (nearest chroma), to 4:2:0
    let swift = Self.stepByStep(image) { conversion.tables.apply($0, count: $1, channels: 3) }
    #expect(Self.largestDifference(converted, swift) == 0)
  }

  @Test func theTriangleIsLibjpegsOwnUpsampling() throws {
    // Given a 4:2:0 JPEG of smooth colours, and an identity conversion (sRGB's own curve both ways)
    var generator = SplitMix(seed: 420)
    let (width, height) = (45, 31)
    let pixels = (0..<width * height).flatMap { index -> [UInt8] in
      let (x, y) = (index % width, index / width)
      return [UInt8(x * 5), UInt8(y * 8), UInt8(128 + Int(generator.byte() % 64) - 32)]
    }
    let jpeg = TestImages.jpeg(pixels, width: width, height: height, subsampling: TJSAMP_420)
    let sRGB = try #require(ICCProfile(sRGB: ()))
    let transform = try #require(
      ColorTransform(from: sRGB, format: thumbify_lcms_rgb_8, toSRGB: thumbify_lcms_rgb_8))
    let identity = try #require(transform.matrixShaper, "sRGB has no tables")

    // When its planes are converted with the triangle, and libjpeg decodes it to RGB (its fancy upsampling)
    let planes = try #require(try ImageDecoder().decodePlanes(jpeg, options: DecodeOptions()))
    let fused = identity.apply(to: planes.image, upsampling: .triangle)
    let nearest = identity.apply(to: planes.image, upsampling: .nearest)
    let libjpeg = YCbCrImage(fullRange: try ImageDecoder().decode(jpeg, options: DecodeOptions()).buffer)

    // Then the triangle's planes are libjpeg's within a level (its BT.601 constants are rounded
    // differently), and closer than the nearest sample's
    #expect(Self.largestDifference(fused, libjpeg) <= 1)
    #expect(Self.largestDifference(nearest, libjpeg) > 1)
  }
}
