/// What can go wrong turning bytes into pixels and pixels into a thumbnail.
///
/// Every case reads as a sentence and, where a C library reported the failure,
/// carries that library's own message (`tjGetErrorStr2`, libpng's error
/// message, libwebp's status).
public enum ImageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The bytes are not an image format thumbify decodes (`format` is set when it was recognised: HEIC).
  case unsupportedFormat(ImageFormat?)
  /// The header declares more pixels than the configured limit; nothing was allocated.
  case tooManyPixels(width: Int, height: Int, limit: Int)
  /// The input is larger than the configured byte limit.
  case tooLarge(bytes: Int, limit: Int)
  /// The data is truncated or corrupt; `message` is the decoding library's own.
  case corrupt(format: ImageFormat, message: String)
  /// An encoder failed; `message` is the encoding library's own.
  case encodingFailed(format: ImageFormat, message: String)

  /// A stable machine-readable code for manifests.
  public var code: String {
    switch self {
    case .unsupportedFormat: "unsupportedFormat"
    case .tooManyPixels: "tooManyPixels"
    case .tooLarge: "tooLarge"
    case .corrupt: "undecodableImage"
    case .encodingFailed: "encodingFailed"
    }
  }

  public var description: String {
    switch self {
    case .unsupportedFormat(let format?):
      "The image is \(format.rawValue.uppercased()), which thumbify does not decode."
    case .unsupportedFormat(nil):
      "The data is not an image in a format thumbify recognises."
    case .tooManyPixels(let width, let height, let limit):
      "The image is \(width)×\(height) pixels, more than the limit of \(limit) pixels."
    case .tooLarge(let bytes, let limit):
      "The image is \(bytes) bytes, more than the limit of \(limit) bytes."
    case .corrupt(let format, let message):
      "The \(format.rawValue.uppercased()) image could not be decoded: \(message)"
    case .encodingFailed(let format, let message):
      "The \(format.rawValue.uppercased()) thumbnail could not be encoded: \(message)"
    }
  }
}
