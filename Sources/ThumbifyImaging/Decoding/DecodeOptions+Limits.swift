extension DecodeOptions {
  /// Throws unless an image of `size` is non-empty and within ``maxPixels``; called before allocating pixels.
  ///
  /// - Throws: ``ImageError/tooManyPixels(width:height:limit:)``, or ``ImageError/corrupt(format:message:)``
  ///   for an empty or negative size.
  func checkPixels(_ size: Size, format: ImageFormat) throws(ImageError) {
    guard size.width > 0, size.height > 0 else {
      throw .corrupt(
        format: format, message: "The header declares an empty \(size.width)×\(size.height) image.")
    }
    let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
    guard !overflow, pixels <= maxPixels else {
      throw .tooManyPixels(width: size.width, height: size.height, limit: maxPixels)
    }
  }
}
