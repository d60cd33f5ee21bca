extension ThumbnailVariant {
  /// Whether a crawl makes this variant from the card image or from the site icon.
  public enum Role: String, Sendable {
    /// Made from the page's card image.
    case image
    /// Made from the site's icon.
    case icon
  }

  /// `icon` for variants whose name starts with `icon`, else `image`.
  public var role: Role { name.hasPrefix("icon") ? .icon : .image }

  /// The canonical spelling, `card=600x1200,contain,webp,q=80` (and `,m=N` when the variant sets
  /// libwebp's method, `,pass` when it ``passesThrough``, `,keep-jpeg=N` when it has a ``jpegSourceQuality``).
  public var specification: String {
    "\(name)=\(box),\(fit.rawValue),\(encoding.format.rawValue),q=\(encoding.quality)"
      + (encoding.webpMethod.map { ",m=\($0)" } ?? "") + (passesThrough ? ",pass" : "")
      + (jpegSourceQuality.map { ",keep-jpeg=\($0)" } ?? "")
  }

  /// Parses a `--variant` value:
  /// `name=WxH[,contain|cover][,webp|jpeg|png|avif][,q=N][,m=N][,pass][,keep-jpeg=N]`; `nil` when malformed.
  /// `m` is libwebp's method, 0–6; `pass` sets ``passesThrough``; `keep-jpeg=N` (1–100) sets
  /// ``jpegSourceQuality``.
  ///
  /// A name starting with `icon` makes the variant from the site icon; any other from the card image.
  public init?(specification text: String) {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard let head = parts.first, let equals = head.firstIndex(of: "=") else { return nil }
    let name = String(head[..<equals])
    guard !name.isEmpty,
      name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    else { return nil }
    let dimensions = head[head.index(after: equals)...].lowercased().split(
      separator: "x", omittingEmptySubsequences: false)
    guard dimensions.count == 2, let width = Int(dimensions[0]), let height = Int(dimensions[1]),
      (1...8192).contains(width), (1...8192).contains(height)
    else { return nil }
    self.init(name: name, box: Size(width: width, height: height))
    for option in parts.dropFirst() {
      if let fit = Fit(rawValue: option) {
        self.fit = fit
      } else if let format = OutputFormat(rawValue: option == "jpg" ? "jpeg" : option) {
        encoding.format = format
      } else if option.hasPrefix("q="), let quality = Int(option.dropFirst(2)), (1...100).contains(quality) {
        encoding.quality = quality
      } else if option.hasPrefix("m="), let method = Int(option.dropFirst(2)), (0...6).contains(method) {
        encoding.webpMethod = method
      } else if option == "pass" {
        passesThrough = true
      } else if option.hasPrefix("keep-jpeg="), let quality = Int(option.dropFirst(10)),
        (1...100).contains(quality)
      {
        jpegSourceQuality = quality
      } else {
        return nil
      }
    }
  }
}

extension [ThumbnailVariant] {
  /// A stable key naming this list of variants (thumbnails are cached per source hash and key).
  var cacheKey: String { map(\.specification).joined(separator: ";") }
}
