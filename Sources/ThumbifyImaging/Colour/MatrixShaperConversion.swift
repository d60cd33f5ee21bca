import CColourPlanes
import CLCMS2
import Foundation

/// A matrix/TRC profile's conversion to sRGB as three tables and a matrix: each channel through a
/// 256-entry table to linear light (the profile's tone curve), a 3×3 matrix into linear sRGB (the
/// profile's colorants against sRGB's, both in the ICC's D50 connection space), clipped, and sRGB's
/// encode curve from a 16,384-entry table.
///
/// That is what Little CMS computes for such a profile (perceptual is colorimetric for a matrix/TRC
/// profile, and black-point compensation between two zero black points changes nothing), without its
/// per-pixel formatter and pipeline calls: the planar path converts a tagged JPEG's pixels at the
/// decode's size with it (docs/imaging.md, "Colour management"). It is only used when it agrees with
/// the Little CMS transform to within one level on a 17³ grid (``init(source:transform:)``);
/// otherwise the transform is used as before.
struct MatrixShaperConversion: Sendable {
  /// Sample → linear light, red's 256 entries, then green's, then blue's.
  let linear: [Float]
  /// The matrix's columns: linear sRGB of the profile's linear red, green and blue (the fourth lane 0).
  let red: SIMD4<Float>
  let green: SIMD4<Float>
  let blue: SIMD4<Float>

  /// sRGB's 8-bit encoding of linear light `i / (encodeSteps − 1)`.
  static let encodeTable: [UInt8] = (0..<encodeSteps).map { step in
    let light = Double(step) / Double(encodeSteps - 1)
    let encoded = light <= 0.003_130_8 ? 12.92 * light : 1.055 * pow(light, 1 / 2.4) - 0.055
    return UInt8((encoded * 255).rounded())
  }
  /// The encode table's size: a step is at most 0.2 of a level (sRGB's steepest slope, 12.92, at black).
  static let encodeSteps = 16_384

  /// The tables and matrix of `source` (an RGB or grey matrix/TRC profile), or `nil` when it has no
  /// such tags or the result is more than one level off `transform` (RGB or grey-in-RGB 8-bit in, RGB
  /// 8-bit out) anywhere on a 17³ grid.
  init?(source: ICCProfile, transform: cmsHTRANSFORM) {
    let handle = source.handle
    func table(_ tag: cmsTagSignature) -> [Float]? {
      guard let curve = cmsReadTag(handle, tag) else { return nil }
      return (0..<256).map { Float(cmsEvalToneCurveFloat(OpaquePointer(curve), Float($0) / 255)) }
    }
    func colorant(_ tag: cmsTagSignature, in profile: cmsHPROFILE) -> SIMD3<Double>? {
      guard let xyz = cmsReadTag(profile, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee else {
        return nil
      }
      return SIMD3(xyz.X, xyz.Y, xyz.Z)
    }
    let columns: [SIMD3<Double>]
    switch cmsGetColorSpace(handle) {
    case cmsSigRgbData:
      guard let r = table(cmsSigRedTRCTag), let g = table(cmsSigGreenTRCTag), let b = table(cmsSigBlueTRCTag),
        let sRGB = ICCProfile(sRGB: ())
      else { return nil }
      let tags = [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag]
      let sources = tags.compactMap { colorant($0, in: handle) }
      let targets = tags.compactMap { colorant($0, in: sRGB.handle) }
      guard sources.count == 3, targets.count == 3, let inverse = Self.inverse(targets) else { return nil }
      linear = r + g + b
      // Linear sRGB of each source primary: sRGB's colorant matrix inverted, times the primary's XYZ.
      columns = sources.map { xyz in inverse[0] * xyz.x + inverse[1] * xyz.y + inverse[2] * xyz.z }
    case cmsSigGrayData:
      // Grey is read from the first sample (the decoders expand it to RGB) and lands on the neutral axis.
      guard let k = table(cmsSigGrayTRCTag) else { return nil }
      linear = k + [Float](repeating: 0, count: 512)
      columns = [SIMD3(1, 1, 1), .zero, .zero]
    default:
      return nil
    }
    func lanes(_ column: SIMD3<Double>) -> SIMD4<Float> {
      SIMD4(Float(column.x), Float(column.y), Float(column.z), 0)
    }
    guard columns.allSatisfy({ ($0 * $0).sum().isFinite }) else { return nil }
    red = lanes(columns[0])
    green = lanes(columns[1])
    blue = lanes(columns[2])
    guard agrees(with: transform) else { return nil }
  }

  /// The columns of the inverse of the matrix whose columns are `columns`, or `nil` when it is singular.
  private static func inverse(_ columns: [SIMD3<Double>]) -> [SIMD3<Double>]? {
    let (a, b, c) = (columns[0], columns[1], columns[2])
    // Rows of the inverse are the cross products of pairs of columns over the determinant.
    let rows = [cross(b, c), cross(c, a), cross(a, b)]
    let determinant = (a * rows[0]).sum()
    guard abs(determinant) > 1e-12 else { return nil }
    return (0..<3).map { column in SIMD3(rows[0][column], rows[1][column], rows[2][column]) / determinant }
  }

  private static func cross(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
  }

  /// Converts `count` pixels of `channels` bytes (RGB first; any fourth byte is left as it is) in place.
  ///
  /// Scalar arithmetic on purpose: the generic SIMD conversions (`SIMD4<Int32>(_:rounding:)`,
  /// `clamped`) compiled to calls per lane, which made this 20 times slower (`perf`).
  func apply(_ pixels: UnsafeMutablePointer<UInt8>, count: Int, channels: Int) {
    let (r0, r1, r2) = (red[0], red[1], red[2])
    let (g0, g1, g2) = (green[0], green[1], green[2])
    let (b0, b1, b2) = (blue[0], blue[1], blue[2])
    let scale = Float(Self.encodeSteps - 1)
    @inline(__always) func index(_ light: Float) -> Int {
      // Clipped to 0…1; NaN (a hostile profile's curve) becomes 0 rather than trapping in `Int`.
      Int((light > 0 ? min(light, 1) : 0) * scale + 0.5)
    }
    linear.withUnsafeBufferPointer { linear in
      Self.encodeTable.withUnsafeBufferPointer { encode in
        var pixel = pixels
        for _ in 0..<count {
          let r = linear[Int(pixel[0])]
          let g = linear[256 + Int(pixel[1])]
          let b = linear[512 + Int(pixel[2])]
          pixel[0] = encode[index(r0 * r + g0 * g + b0 * b)]
          pixel[1] = encode[index(r1 * r + g1 * g + b1 * b)]
          pixel[2] = encode[index(r2 * r + g2 * g + b2 * b)]
          pixel += channels
        }
      }
    }
  }

  /// How ``apply(to:upsampling:)`` gives each pixel its chroma before converting it.
  enum ChromaUpsampling: Sendable {
    /// The chroma sample that covers the pixel (``YCbCrImage/rgb()``).
    case nearest
    /// libjpeg's "fancy" triangle filter, as its RGB decode does (4:2:0, 4:2:2 and 4:4:0).
    case triangle
  }

  /// The upsampling the planar decode uses (docs/imaging.md, "Tagged JPEGs on the planar path").
  static let planarUpsampling = ChromaUpsampling.triangle

  /// `image` (opaque Y′CbCr of the profile's RGB) in sRGB, as full-range 4:2:0 planes: each pixel's
  /// chroma (`upsampling`), to RGB, converted, Y′ per pixel and each 2×2 block's Cb and Cr from the mean
  /// of its converted pixels.
  ///
  /// One pass over 2×2 blocks in C (`thumbify_convert_planes`, SSE2 on x86-64) for full-range planes with
  /// chroma factors of 1 or 2, which also keeps Y′'s sixteenths (``YCbCrImage/lumaSixteenths``) for the
  /// plane resize; otherwise (4:1:1, limited range) three passes in Swift, with nearest
  /// chroma: ``YCbCrImage/rgb()``, ``apply(_:count:channels:)``, ``YCbCrImage/init(fullRange:)``.
  ///
  /// - Parameter widestInstructionSet: for tests, the widest the C code may use: 0 portable C, 1 SSE2,
  ///   2 AVX2 where the CPU has it (all give the same bytes).
  /// - Complexity: O(*n*) in the number of pixels.
  func apply(
    to image: YCbCrImage, upsampling: ChromaUpsampling = planarUpsampling, widestInstructionSet: Int = 2
  ) -> YCbCrImage {
    guard image.width > 0, image.height > 0 else { return image }
    if image.range == .full,
      let planes = convertedPlanes(image, upsampling: upsampling, widestInstructionSet: widestInstructionSet)
    {
      return planes
    }
    var rgb = image.rgb()
    let count = rgb.width * rgb.height
    rgb.pixels.withUnsafeMutableBufferPointer { apply($0.baseAddress!, count: count, channels: 3) }
    return YCbCrImage(fullRange: rgb)
  }

  /// ``apply(to:upsampling:)``'s one pass in C, or `nil` where it declines (a chroma factor other than 1
  /// or 2).
  private func convertedPlanes(
    _ image: YCbCrImage, upsampling: ChromaUpsampling, widestInstructionSet: Int
  ) -> YCbCrImage? {
    let (width, height) = (image.width, image.height)
    let chroma = YCbCrImage.chromaSize(of: Size(width: width, height: height), factor: (2, 2))
    var tables = thumbify_matrix_shaper()
    tables.matrix = (red[0], red[1], red[2], green[0], green[1], green[2], blue[0], blue[1], blue[2])
    tables.encode_steps = Int32(Self.encodeSteps)
    var isConverted = false
    var cb = [UInt8]()
    var cr = [UInt8]()
    var sixteenths = [Int16]()
    let luma = [UInt8](unsafeUninitializedCapacity: width * height) { luma, lumaCount in
      sixteenths = [Int16](unsafeUninitializedCapacity: width * height) { sixteenths, sixteenthsCount in
        cb = [UInt8](unsafeUninitializedCapacity: chroma.width * chroma.height) { cb, cbCount in
          cr = [UInt8](unsafeUninitializedCapacity: chroma.width * chroma.height) { cr, crCount in
            linear.withUnsafeBufferPointer { linear in
              Self.encodeTable.withUnsafeBufferPointer { encode in
                image.luma.samples.withUnsafeBufferPointer { y in
                  image.cb.samples.withUnsafeBufferPointer { sourceCb in
                    image.cr.samples.withUnsafeBufferPointer { sourceCr in
                      tables.linear = linear.baseAddress
                      tables.encode = encode.baseAddress
                      isConverted =
                        thumbify_convert_planes(
                          &tables, y.baseAddress, sourceCb.baseAddress, sourceCr.baseAddress, Int32(width),
                          Int32(height), Int32(image.cb.width), Int32(image.cb.height),
                          Int32(image.chromaFactor.x),
                          Int32(image.chromaFactor.y),
                          upsampling == .triangle ? THUMBIFY_CHROMA_TRIANGLE : THUMBIFY_CHROMA_NEAREST,
                          Int32(widestInstructionSet), luma.baseAddress,
                          sixteenths.baseAddress,
                          cb.baseAddress, cr.baseAddress) == 1
                    }
                  }
                }
              }
            }
            crCount = isConverted ? cr.count : 0
          }
          cbCount = isConverted ? cb.count : 0
        }
        sixteenthsCount = isConverted ? sixteenths.count : 0
      }
      lumaCount = isConverted ? luma.count : 0
    }
    guard isConverted else { return nil }
    var planes = YCbCrImage(
      luma: SamplePlane(width: width, height: height, samples: luma),
      cb: SamplePlane(width: chroma.width, height: chroma.height, samples: cb),
      cr: SamplePlane(width: chroma.width, height: chroma.height, samples: cr),
      range: .full, chromaFactor: (2, 2))
    planes.lumaSixteenths = WidePlane(width: width, height: height, samples: sixteenths)
    return planes
  }

  /// Whether ``apply(_:count:channels:)`` is within one level of `transform` on a 17³ RGB grid.
  private func agrees(with transform: cmsHTRANSFORM) -> Bool {
    let steps = (0...16).map { UInt8(min(255, $0 * 16)) }
    var grid = [UInt8]()
    grid.reserveCapacity(17 * 17 * 17 * 3)
    for r in steps {
      for g in steps {
        for b in steps { grid += [r, g, b] }
      }
    }
    let count = grid.count / 3
    var expected = [UInt8](repeating: 0, count: grid.count)
    grid.withUnsafeBytes { source in
      expected.withUnsafeMutableBytes {
        cmsDoTransform(transform, source.baseAddress, $0.baseAddress, cmsUInt32Number(count))
      }
    }
    var ours = grid
    ours.withUnsafeMutableBufferPointer { apply($0.baseAddress!, count: count, channels: 3) }
    return zip(ours, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
  }
}
