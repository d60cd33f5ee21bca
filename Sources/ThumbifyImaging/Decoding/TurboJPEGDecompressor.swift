import CTurboJPEG

/// Owns a TurboJPEG decompression handle and turns its failures into ``ImageError``.
///
/// The corresponding C functions are `tjInitDecompress` and `tjDestroy`. A
/// handle is not thread-safe; each decode makes its own (it costs a few microseconds).
final class TurboJPEGDecompressor {
  /// The header facts `tjDecompressHeader3` reports.
  struct Header {
    var size: Size
    var subsampling: Int32
    var colorspace: Int32
  }

  private let handle: tjhandle

  /// Creates a handle, or throws the library's message when it cannot.
  init() throws(ImageError) {
    guard let handle = tjInitDecompress() else {
      throw .corrupt(format: .jpeg, message: String(cString: tjGetErrorStr2(nil)))
    }
    self.handle = handle
  }

  deinit { tjDestroy(handle) }

  /// The supported scaling factors as (numerator, denominator) pairs (`tjGetScalingFactors`).
  static let scalingFactors: [(num: Int, denom: Int)] = {
    var count: Int32 = 0
    guard let factors = tjGetScalingFactors(&count), count > 0 else { return [(1, 1)] }
    return (0..<Int(count)).map { (Int(factors[$0].num), Int(factors[$0].denom)) }
  }()

  /// Reads the frame header. The corresponding C function is `tjDecompressHeader3`.
  func header(_ jpeg: UnsafeBufferPointer<UInt8>) throws(ImageError) -> Header {
    var (width, height, subsampling, colorspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
    guard let base = jpeg.baseAddress,
      tjDecompressHeader3(handle, base, UInt(jpeg.count), &width, &height, &subsampling, &colorspace) == 0
    else { throw .corrupt(format: .jpeg, message: lastError) }
    // TurboJPEG 2.1 reports success with a 0×0 size when the data ends before the frame header.
    guard width > 0, height > 0 else {
      throw .corrupt(format: .jpeg, message: "The data ends before the JPEG frame header (SOF).")
    }
    return Header(
      size: Size(width: Int(width), height: Int(height)), subsampling: subsampling, colorspace: colorspace)
  }

  /// Decodes into `destination` at `size` (one of the scaled sizes) in `pixelFormat`.
  ///
  /// The corresponding C function is `tjDecompress2`. A warning is accepted
  /// unless it reports truncated data ("Premature end of …"), which is thrown
  /// as ``ImageError/corrupt(format:message:)`` like an error.
  func decompress(
    _ jpeg: UnsafeBufferPointer<UInt8>, into destination: UnsafeMutableBufferPointer<UInt8>, size: Size,
    pixelFormat: TJPF
  ) throws(ImageError) {
    guard let base = jpeg.baseAddress, let output = destination.baseAddress else {
      throw .corrupt(format: .jpeg, message: "There is no data.")
    }
    // TJFLAG_LIMITSCANS refuses progressive JPEGs with more than 500 scans (a CPU bomb).
    let result = tjDecompress2(
      handle, base, UInt(jpeg.count), output, Int32(size.width), 0, Int32(size.height),
      Int32(pixelFormat.rawValue), TJFLAG_LIMITSCANS)
    guard result != 0 else { return }
    let message = lastError
    if tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue), !Self.isTruncation(message) { return }
    throw .corrupt(format: .jpeg, message: message)
  }

  /// Decodes the Y, Cb and Cr planes (only Y for grayscale) at `size` into `planes`, each `widths[i]` samples wide.
  ///
  /// The corresponding C function is `tjDecompressToYUVPlanes`: libjpeg's raw
  /// data output, without chroma upsampling or colour conversion. Warnings
  /// are handled as in ``decompress(_:into:size:pixelFormat:)``.
  func decompressToPlanes(
    _ jpeg: UnsafeBufferPointer<UInt8>, into planes: [UnsafeMutablePointer<UInt8>], widths: [Int], size: Size
  ) throws(ImageError) {
    guard let base = jpeg.baseAddress else { throw .corrupt(format: .jpeg, message: "There is no data.") }
    var pointers: [UnsafeMutablePointer<UInt8>?] = planes.map { $0 }
    var strides = widths.map { Int32($0) }
    while pointers.count < 3 {
      pointers.append(nil)
      strides.append(0)
    }
    let result = tjDecompressToYUVPlanes(
      handle, base, UInt(jpeg.count), &pointers, Int32(size.width), &strides, Int32(size.height),
      TJFLAG_LIMITSCANS)
    guard result != 0 else { return }
    let message = lastError
    if tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue), !Self.isTruncation(message) { return }
    throw .corrupt(format: .jpeg, message: message)
  }

  /// Whether a libjpeg warning says the data ended early.
  static func isTruncation(_ message: String) -> Bool {
    message.lowercased().contains("premature end")
  }

  private var lastError: String { String(cString: tjGetErrorStr2(handle)) }
}
