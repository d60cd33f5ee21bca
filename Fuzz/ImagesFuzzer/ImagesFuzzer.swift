// libFuzzer entry point for the image decoders (JPEG, PNG, WebP, GIF, ICO/CUR, BMP), then the
// resize and encode of what they decode. Built by `scripts/fuzz images` with ThumbifySystem and
// ThumbifyImaging as modules.
import ThumbifyImaging

/// Decodes one input the way the thumbnailer does and checks what the decoders promise.
///
/// The first byte picks the options, the rest is the image (every file in `seeds/` is laid out
/// so; `make-seeds.py` writes them):
///
/// - bits 0–1: the decode target — none (full size), 64×64 `contain`, 64×64 `cover`, 300×157
///   `contain` — so the shrink-on-load paths (JPEG DCT scaling, WebP scaled decode, ICO entry
///   choice, progressive DC) run;
/// - bit 2: the planar path (`decodePlanes`, JPEG and WebP Y′CbCr) instead of RGB;
/// - bit 3: a 64 K-pixel `maxPixels` instead of 4 MP, so the limit checks are hit too;
/// - bit 4: shrink headroom 2 instead of the default 1 (JPEG 1.5);
/// - bit 5: no resize and encode (a decode only, for speed);
/// - bits 6–7: the thumbnail's format, WebP, JPEG or PNG.
///
/// `maxPixels` stays at most 4 MP (16 MB of RGBA) so that a legitimate large decode stays far
/// under libFuzzer's RSS limit: an out-of-memory report is an allocation the limits missed.
@_cdecl("LLVMFuzzerTestOneInput")
public func imagesFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let selector = data[0]
  let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  let targets: [(Size, Fit)?] = [
    nil, (Size(width: 64, height: 64), .contain), (Size(width: 64, height: 64), .cover),
    (Size(width: 300, height: 157), .contain),
  ]
  let target = targets[Int(selector & 3)]
  let isPlanar = selector & 4 != 0
  let maxPixels = selector & 8 != 0 ? 1 << 16 : 4_000_000
  let headroom: Double = selector & 16 != 0 ? 2 : 1
  let encodes = selector & 32 == 0
  let format = [OutputFormat.webp, .jpeg, .png, .webp][Int(selector >> 6)]
  let options = DecodeOptions(
    target: target?.0, fit: target?.1 ?? .contain, maxPixels: maxPixels, maxBytes: 1 << 20,
    shrinkHeadroom: headroom, jpegShrinkHeadroom: selector & 16 != 0 ? nil : 1.5)
  let box = target?.0 ?? Size(width: 64, height: 64)
  let fit = target?.1 ?? .contain
  let decoder = ImageDecoder()

  if isPlanar {
    guard let planes = try? decoder.decodePlanes(bytes, options: options) else { return 0 }
    let image = planes.image
    check(image.width > 0 && image.height > 0, "an empty planar decode")
    check(image.luma.samples.count == image.luma.width * image.luma.height, "a luma plane of the wrong size")
    check(image.cb.samples.count == image.cb.width * image.cb.height, "a Cb plane of the wrong size")
    check(image.cr.samples.count == image.cr.width * image.cr.height, "a Cr plane of the wrong size")
    checkLimits(Size(width: image.width, height: image.height), planes.originalSize, options)
    guard encodes else { return 0 }
    let geometry = ThumbnailGeometry(source: planes.originalSize, box: box, fit: fit)
    let thumbnail = Resampler().resize(planes, geometry: geometry, chromaFactor: (2, 2))
    check(thumbnail.width == geometry.output.width, "a planar resize to the wrong width")
    _ = Placeholder(planes: thumbnail)
    _ = try? WebPEncoder().encode(thumbnail, options: EncodeOptions(format: .webp))
    return 0
  }

  guard let decoded = try? decoder.decode(bytes, options: options) else { return 0 }
  let buffer = decoded.buffer
  check(buffer.width > 0 && buffer.height > 0, "an empty decode")
  check(buffer.pixels.count == buffer.width * buffer.height * buffer.channels, "a buffer of the wrong size")
  checkLimits(Size(width: buffer.width, height: buffer.height), decoded.originalSize, options)
  guard encodes else { return 0 }
  let geometry = ThumbnailGeometry(source: decoded.originalSize, box: box, fit: fit)
  let thumbnail = Resampler().resize(decoded, geometry: geometry)
  check(
    thumbnail.width == geometry.output.width && thumbnail.height == geometry.output.height,
    "a resize to the wrong size")
  _ = Placeholder(image: thumbnail)
  _ = try? ImageEncoder().encode(thumbnail, options: EncodeOptions(format: format))
  return 0
}

/// What `DecodeOptions` promises of a decode of `decoded` pixels from a source of `original`
/// (docs/decoding.md, "Limits": `maxPixels` bounds the full-size image, shrink-on-load or not).
private func checkLimits(_ decoded: Size, _ original: Size, _ options: DecodeOptions) {
  let area = original.width.multipliedReportingOverflow(by: original.height)
  check(!area.overflow && area.partialValue <= options.maxPixels, "\(original) decoded over maxPixels")
  check(decoded.width <= original.width && decoded.height <= original.height, "\(decoded) > \(original)")
  if let target = options.target {
    // Shrink-on-load may reduce the scale only as far as the thumbnail still has its pixels.
    let geometry = ThumbnailGeometry(source: original, box: target, fit: options.fit)
    check(
      geometry.isCovered(by: decoded, source: original), "\(decoded) of \(original) does not cover \(target)")
  }
}

/// Traps (a crash libFuzzer reports with this input) when a promise is broken; unlike
/// `precondition`, `fatalError` keeps its message in an `-O` build.
private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("broken promise: \(message())") }
}
