import CRsvg

/// Rasterizes SVG (icons, mostly) with librsvg straight at the size the thumbnail needs.
///
/// A vector has no pixels to shrink: the natural size (`width`/`height` in absolute units, else
/// the `viewBox`, else the target box) is scaled by the fit's factor into the target, upscaling
/// included, so a 16-unit `viewBox` gives a crisp 64×64 icon rather than a resized 16 px one.
/// That render size is the ``DecodedImage/originalSize``: the resizer then has nothing left to do.
/// Without a target, the natural size is rendered.
///
/// Hostile input is bounded before librsvg sees it (``SVGLimits``) and by librsvg itself. The
/// handle is made from bytes with no base file, so librsvg resolves no URL (`<image href>`,
/// `<use>`, CSS `@import`, XInclude: all refused, only `data:` URLs load); it runs no script.
struct SVGDecoder: ImageDecoding {
  var limits = SVGLimits()

  func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageError) -> DecodedImage {
    try limits.check(data)
    let handle = try data.withUnsafeBufferPointer {
      (bytes) throws(ImageError) -> UnsafeMutablePointer<RsvgHandle> in
      var error: UnsafeMutablePointer<GError>?
      guard let handle = rsvg_handle_new_from_data(bytes.baseAddress, gsize(bytes.count), &error) else {
        throw Self.error(error, doing: "parse")
      }
      return handle
    }
    defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
    // CSS's 96 px per inch, set rather than inherited from librsvg's process-wide default.
    rsvg_handle_set_dpi(handle, 96)
    let natural = Self.naturalSize(handle) ?? options.target ?? Size(width: 64, height: 64)
    let size = Self.renderSize(natural: natural, options: options)
    try options.checkPixels(size, format: .svg)
    let buffer = try Self.render(handle, size: size)
    return DecodedImage(buffer: buffer, format: .svg, originalSize: size)
  }

  /// The size the document declares: its `width`/`height` in pixels (librsvg converts absolute
  /// units at 96 dpi), else its `viewBox`'s; `nil` when it declares neither (or only percentages).
  ///
  /// The corresponding C functions are `rsvg_handle_get_intrinsic_size_in_pixels` and
  /// `rsvg_handle_get_intrinsic_dimensions`.
  static func naturalSize(_ handle: UnsafeMutablePointer<RsvgHandle>) -> Size? {
    var width = 0.0
    var height = 0.0
    if rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0,
      let size = size(width: width, height: height)
    {
      return size
    }
    var hasWidth: gboolean = 0
    var hasHeight: gboolean = 0
    var hasViewBox: gboolean = 0
    var lengthW = RsvgLength()
    var lengthH = RsvgLength()
    var viewBox = RsvgRectangle()
    rsvg_handle_get_intrinsic_dimensions(
      handle, &hasWidth, &lengthW, &hasHeight, &lengthH, &hasViewBox, &viewBox)
    guard hasViewBox != 0 else { return nil }
    return size(width: viewBox.width, height: viewBox.height)
  }

  /// A positive, finite size rounded to pixels (at least 1), or `nil`.
  static func size(width: Double, height: Double) -> Size? {
    guard width.isFinite, height.isFinite, width > 0, height > 0, width < 1e9, height < 1e9 else {
      return nil
    }
    return Size(width: max(1, Int(width.rounded())), height: max(1, Int(height.rounded())))
  }

  /// `natural` scaled by the fit's factor into the target (up or down), or `natural` without a target.
  static func renderSize(natural: Size, options: DecodeOptions) -> Size {
    guard let target = options.target else { return natural }
    let scaleX = Double(target.width) / Double(natural.width)
    let scaleY = Double(target.height) / Double(natural.height)
    let scale = options.fit == .cover ? max(scaleX, scaleY) : min(scaleX, scaleY)
    return Size(
      width: max(1, Int((Double(natural.width) * scale).rounded())),
      height: max(1, Int((Double(natural.height) * scale).rounded())))
  }

  /// Renders the whole document into a `size` viewport of a cairo ARGB32 surface and returns
  /// straight-alpha RGBA (cairo's pixels are premultiplied, native-endian: B, G, R, A on x86 and ARM).
  ///
  /// The corresponding C function is `rsvg_handle_render_document`.
  static func render(_ handle: UnsafeMutablePointer<RsvgHandle>, size: Size) throws(ImageError) -> PixelBuffer
  {
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height))
    else { throw .corrupt(format: .svg, message: "cairo could not create a \(size) surface.") }
    defer { cairo_surface_destroy(surface) }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
      throw .corrupt(format: .svg, message: "cairo could not create a \(size) surface.")
    }
    defer { cairo_destroy(context) }
    var viewport = RsvgRectangle(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
    var error: UnsafeMutablePointer<GError>?
    guard rsvg_handle_render_document(handle, context, &viewport, &error) != 0 else {
      throw Self.error(error, doing: "render")
    }
    cairo_surface_flush(surface)
    guard let data = cairo_image_surface_get_data(surface) else {
      throw .corrupt(format: .svg, message: "cairo's surface has no pixels.")
    }
    let stride = Int(cairo_image_surface_get_stride(surface))
    let count = size.width * size.height
    let pixels = [UInt8](unsafeUninitializedCapacity: count * 4) { out, initialized in
      for y in 0..<size.height {
        let row = data + y * stride
        for x in 0..<size.width {
          let (b, g, r, a) = (row[x * 4], row[x * 4 + 1], row[x * 4 + 2], row[x * 4 + 3])
          let index = (y * size.width + x) * 4
          out[index] = unpremultiply(r, a)
          out[index + 1] = unpremultiply(g, a)
          out[index + 2] = unpremultiply(b, a)
          out[index + 3] = a
        }
      }
      initialized = count * 4
    }
    return PixelBuffer(width: size.width, height: size.height, channels: 4, pixels: pixels)
  }

  /// A premultiplied sample as straight alpha, rounded.
  @inline(__always)
  static func unpremultiply(_ value: UInt8, _ alpha: UInt8) -> UInt8 {
    guard alpha != 0 else { return 0 }
    guard alpha != 255 else { return value }
    return UInt8(min(255, (Int(value) * 255 + Int(alpha) / 2) / Int(alpha)))
  }

  /// The error for a failed librsvg call, carrying (and freeing) its `GError` message.
  static func error(_ error: UnsafeMutablePointer<GError>?, doing action: String) -> ImageError {
    guard let error else { return .corrupt(format: .svg, message: "librsvg could not \(action) it.") }
    defer { g_error_free(error) }
    let message = error.pointee.message.map { String(cString: $0) } ?? "no message"
    return .corrupt(format: .svg, message: "librsvg could not \(action) it: \(message)")
  }
}
