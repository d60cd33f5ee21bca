/// One thumbnail to make from a source image: a name, a box, a fit and an output format.
///
/// ```swift
/// let thumbnails = try await metadata.imageThumbnails([.card, .card2x])
/// ```
public struct ThumbnailVariant: Sendable, Hashable {
  /// The name written to the manifest (`card`, `card2x`, `icon`, …).
  public var name: String
  /// The box the thumbnail is fitted into, in pixels.
  public var box: Size
  /// Whether the image fits inside the box (`contain`) or fills and is cropped to it (`cover`).
  public var fit: Fit
  /// The output format, quality and encoder effort.
  public var encoding: EncodeOptions
  /// Whether an image smaller than the box is enlarged (never, by default).
  public var allowsUpscaling: Bool
  /// Whether a web-ready source that already fits the box is stored as it is, in its own format, when
  /// that is smaller than the encode (docs/imaging.md, "Pass-through"): on for ``defaults``, off unless
  /// asked otherwise, so a variant given by its format (`--variant …,jpeg`) always has that format.
  public var passesThrough: Bool
  /// The JPEG quality (1–100) a **JPEG source** is encoded at instead of ``encoding`` (`--variant …,keep-jpeg=N`;
  /// `nil`: every source is encoded as ``encoding`` says). The rule is by the source's format, sniffed from its
  /// bytes, never by guessing its content: a publisher's JPEG is a photo or was already given JPEG's artefacts,
  /// while PNG, GIF, WebP and the rest (illustrations, screenshots, logos) keep ``encoding``. On for
  /// ``card2x`` (docs/imaging.md, "How the default encodings were chosen").
  public var jpegSourceQuality: Int?

  /// A variant named `name`: `box` and `fit`, encoded as `format` at `quality` (1–100) with libwebp's
  /// `webpMethod` (0–6, `nil` for libwebp's default), and a JPEG source as JPEG at `jpegSourceQuality`
  /// when set; smaller images are enlarged only with `allowsUpscaling`.
  public init(
    name: String, box: Size, fit: Fit = .contain, format: OutputFormat = .webp, quality: Int = 80,
    webpMethod: Int? = nil, allowsUpscaling: Bool = false, passesThrough: Bool = false,
    jpegSourceQuality: Int? = nil
  ) {
    self.name = name
    self.box = box
    self.fit = fit
    self.encoding = EncodeOptions(format: format, quality: quality, webpMethod: webpMethod)
    self.allowsUpscaling = allowsUpscaling
    self.passesThrough = passesThrough
    self.jpegSourceQuality = jpegSourceQuality
  }

  /// How a source sniffed as `source` is encoded: JPEG at ``jpegSourceQuality`` for a JPEG source when
  /// that is set, else ``encoding``.
  public func encoding(forSource source: ImageFormat?) -> EncodeOptions {
    guard let jpegSourceQuality, source == .jpeg else { return encoding }
    return EncodeOptions(format: .jpeg, quality: jpegSourceQuality)
  }

  /// A link card's image, 600 px wide: the box is 600×1200, contained, WebP q85 at libwebp method 2
  /// (chosen by measurement: as sharp as q80 at method 4 for half its CPU; docs/imaging.md).
  ///
  /// Landscape and square images get the full width and a height from their aspect ratio; an image
  /// taller than twice its width is capped at twice the width in height (a 1000×5000 infographic
  /// becomes 240×1200). Never upscaled. One of ``defaults``.
  public static let card = ThumbnailVariant(
    name: "card", box: Size(width: 600, height: 1200), quality: 85, webpMethod: 2, passesThrough: true)
  /// The card image for 2× displays: 1200×2400, contained; a JPEG source as baseline JPEG q70,
  /// anything else as WebP q85 at method 2 (chosen by measurement: on photos sharper than the WebP encode for
  /// a tenth of its CPU at a quarter more bytes; illustrations keep WebP, no JPEG ringing; docs/imaging.md).
  /// One of ``defaults``.
  public static let card2x = ThumbnailVariant(
    name: "card2x", box: Size(width: 1200, height: 2400), quality: 85, webpMethod: 2, passesThrough: true,
    jpegSourceQuality: 70)
  /// A site icon: 64×64, centre-cropped (smaller icons are kept at their size), WebP q80 (lossless
  /// alpha is kept). One of ``defaults``.
  public static let icon = ThumbnailVariant(
    name: "icon", box: Size(width: 64, height: 64), fit: .cover, passesThrough: true)

  /// The one default variant set: `card`, `card2x` (made from the card image) and `icon` (from the site
  /// icon), used by `thumbify crawl` without `--variant`, `CrawlConfiguration()`, and the library's
  /// `LinkMetadata.imageThumbnails()` (the image variants) and `iconThumbnail()` (the icon), so that
  /// the library and the crawl make byte-identical blobs from the same picture (docs/imaging.md).
  public static let defaults: [ThumbnailVariant] = [.card, .card2x, .icon]

  /// The image variants of ``defaults`` (`card`, `card2x`).
  public static var defaultImageVariants: [ThumbnailVariant] { defaults.filter { $0.role == .image } }

  /// The decode hint that serves every variant in `variants` from one decode:
  /// the union of their boxes, with `cover` if any variant crops (a cover
  /// decode is never smaller than a contain decode of the same box).
  static func decodeTarget(for variants: [ThumbnailVariant]) -> (target: Size, fit: Fit)? {
    guard !variants.contains(where: \.allowsUpscaling), !variants.isEmpty else { return nil }
    let width = variants.map(\.box.width).max() ?? 0
    let height = variants.map(\.box.height).max() ?? 0
    let fit: Fit = variants.contains { $0.fit == .cover } ? .cover : .contain
    return (Size(width: width, height: height), fit)
  }
}
