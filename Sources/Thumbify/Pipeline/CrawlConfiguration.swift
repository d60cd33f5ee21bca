import Foundation

/// Everything a crawl can be told: variants, limits, freshness. A value type; the CLI fills it from flags.
public struct CrawlConfiguration: Sendable {
  /// Pages processed at once (each holds at most one page body and one image body).
  public var concurrency: Int
  /// Image candidates tried, best first, before a card goes without an image.
  public var maxImageCandidates: Int
  /// Icon candidates tried, best first (the extractor's list, then `/favicon.ico`).
  public var maxIconCandidates: Int
  /// Entries older than this (seconds since their last 2xx fetch) are fetched unconditionally and
  /// reprocessed; `nil` means always revalidate with conditional requests.
  public var maxAge: Double?
  /// The thumbnails made for card images and icons.
  public var variants: [Variant]
  /// Threads for decode/resize/encode work.
  public var cpuThreads: Int

  public init(
    concurrency: Int = 64, maxImageCandidates: Int = 3, maxIconCandidates: Int = 4, maxAge: Double? = nil,
    variants: [Variant] = Variant.defaults, cpuThreads: Int = ProcessInfo.processInfo.activeProcessorCount
  ) {
    self.concurrency = max(1, concurrency)
    self.maxImageCandidates = max(1, maxImageCandidates)
    self.maxIconCandidates = max(1, maxIconCandidates)
    self.maxAge = maxAge
    self.variants = variants
    self.cpuThreads = max(1, cpuThreads)
  }

  /// The variants made from the card image.
  public var imageVariants: [Variant] { variants.filter { $0.role == .image } }
  /// The variants made from the icon.
  public var iconVariants: [Variant] { variants.filter { $0.role == .icon } }

  /// One thumbnail to make from each source image.
  ///
  /// Written on the command line as `name=WxH[,contain|cover][,webp|jpeg|png][,q=N]`. A variant whose
  /// name starts with `icon` is made from the site icon; every other one from the card image. With
  /// `contain` (the default) the image is scaled to fit inside W×H keeping its aspect ratio — so W is
  /// the width for landscape images and H caps the height of tall ones; with `cover` it fills W×H and
  /// the overflow is cropped around the centre. Images are never upscaled.
  public struct Variant: Sendable, Hashable, CustomStringConvertible {
    public enum Role: String, Sendable { case image, icon }

    public var name: String
    public var size: Size
    public var fit: Fit
    public var format: OutputFormat
    public var quality: Int

    public init(name: String, size: Size, fit: Fit = .contain, format: OutputFormat = .webp, quality: Int = 80) {
      self.name = name
      self.size = size
      self.fit = fit
      self.format = format
      self.quality = quality
    }

    public var role: Role { name.hasPrefix("icon") ? .icon : .image }

    /// The defaults: `card` 600 px and `card2x` 1200 px wide (height capped at twice the width), and a
    /// 64×64 `icon`, all WebP at quality 80.
    public static let defaults: [Variant] = [
      Variant(name: "card", size: Size(width: 600, height: 1200)),
      Variant(name: "card2x", size: Size(width: 1200, height: 2400)),
      Variant(name: "icon", size: Size(width: 64, height: 64)),
    ]

    /// The canonical spelling, `card=600x1200,contain,webp,q=80`.
    public var description: String { "\(name)=\(size),\(fit.rawValue),\(format.rawValue),q=\(quality)" }

    /// Parses `name=WxH[,contain|cover][,webp|jpeg|png][,q=N]`; `nil` when malformed.
    public init?(parsing text: String) {
      let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard let head = parts.first, let equals = head.firstIndex(of: "=") else { return nil }
      let name = String(head[..<equals])
      guard !name.isEmpty,
        name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
      else { return nil }
      let dimensions = head[head.index(after: equals)...].lowercased().split(separator: "x")
      guard dimensions.count == 2, let width = Int(dimensions[0]), let height = Int(dimensions[1]),
        (1...8192).contains(width), (1...8192).contains(height)
      else { return nil }
      self.init(name: name, size: Size(width: width, height: height))
      for option in parts.dropFirst() {
        if let fit = Fit(rawValue: option) {
          self.fit = fit
        } else if let format = OutputFormat(rawValue: option == "jpg" ? "jpeg" : option) {
          self.format = format
        } else if option.hasPrefix("q="), let quality = Int(option.dropFirst(2)), (1...100).contains(quality) {
          self.quality = quality
        } else {
          return nil
        }
      }
    }
  }
}

extension [CrawlConfiguration.Variant] {
  /// A stable key naming this list of variants (thumbnails are cached per source hash and key).
  var cacheKey: String { map(\.description).joined(separator: ";") }
}
