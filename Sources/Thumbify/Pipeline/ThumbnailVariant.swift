/// One thumbnail to make from a source image: a name, a box, a fit and an output format.
///
/// ```swift
/// let set = try thumbnailer.thumbnails(of: bytes, source: url, variants: [.card, .card2x])
/// ```
public struct ThumbnailVariant: Sendable, Hashable {
  /// The name written to the manifest (`card`, `card2x`, `icon`, …).
  public var name: String
  public var box: Size
  public var fit: Fit
  public var encoding: EncodeOptions
  /// Whether an image smaller than the box is enlarged (never, by default).
  public var allowsUpscaling: Bool

  public init(
    name: String, box: Size, fit: Fit = .contain, format: OutputFormat = .webp, quality: Int = 80,
    allowsUpscaling: Bool = false
  ) {
    self.name = name
    self.box = box
    self.fit = fit
    self.encoding = EncodeOptions(format: format, quality: quality)
    self.allowsUpscaling = allowsUpscaling
  }

  /// A link card's image: 600×315 (the og:image aspect ratio, 1.91:1), contained, WebP.
  public static let card = ThumbnailVariant(name: "card", box: Size(width: 600, height: 315))
  /// The card image for 2× displays: 1200×630, contained, WebP.
  public static let card2x = ThumbnailVariant(name: "card2x", box: Size(width: 1200, height: 630))
  /// A site icon: 64×64, centre-cropped, PNG (icons are small and often have alpha).
  public static let icon = ThumbnailVariant(
    name: "icon", box: Size(width: 64, height: 64), fit: .cover, format: .png)

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
