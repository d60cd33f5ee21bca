import Thumbify

/// `--variant <spec>`, the repeatable option `crawl` and `thumb` share.
enum VariantOptions {
  /// The `--variant` values, parsed (`ThumbnailVariant(specification:)`), in the order given.
  static func variants(_ arguments: ParsedArguments) throws(UsageError) -> [ThumbnailVariant] {
    var variants: [ThumbnailVariant] = []
    for text in arguments.values("variant") {
      guard let variant = ThumbnailVariant(specification: text) else {
        throw UsageError("The value '\(text)' is invalid for '--variant <spec>'")
      }
      if variants.contains(where: { $0.name == variant.name }) {
        throw UsageError("The variant name '\(variant.name)' is given twice")
      }
      variants.append(variant)
    }
    return variants
  }
}
