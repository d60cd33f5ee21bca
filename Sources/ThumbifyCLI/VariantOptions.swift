import Thumbify

/// `--variant <spec>`, the repeatable option `crawl` and `serve` share.
enum VariantOptions {
  static let variant = Option(
    .option(
      "variant", value: "spec",
      help:
        "A thumbnail to make, as name=WxH[,fit][,format][,q=N][,m=N][,pass][,keep-jpeg=N] (fit: contain or "
        + "cover; format: webp, jpeg, png or avif); repeat for several. Names starting with 'icon' are made from the icon; 'pass' stores a web-ready source "
        + "that fits as it is when smaller; 'keep-jpeg=N' encodes a JPEG source as JPEG at quality N. (default: "
        + "card=600x1200,q=85,m=2,pass, card2x=1200x2400,q=85,m=2,pass,keep-jpeg=70, icon=64x64,cover,pass)",
      isRepeating: true)
  ) { text throws(InvalidValue) in
    guard let variant = ThumbnailVariant(specification: text) else { throw InvalidValue() }
    return variant
  }

  /// The `--variant` values, in the order given.
  static func variants(_ arguments: ParsedArguments) throws(UsageError) -> [ThumbnailVariant] {
    let variants = try arguments.values(variant)
    for (index, variant) in variants.enumerated()
    where variants[..<index].contains(where: { $0.name == variant.name }) {
      throw UsageError("The variant name '\(variant.name)' is given twice")
    }
    return variants
  }
}
