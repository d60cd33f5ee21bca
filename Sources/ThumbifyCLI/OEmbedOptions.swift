import Thumbify

/// `--oembed`, which `crawl` and `extract` share (docs/metadata.md, "oEmbed").
enum OEmbedOptions {
  static let specs: [OptionSpec] = [
    .option(
      "oembed", value: "mode",
      help:
        "Fetch the oEmbed endpoint a page declares (<link rel=alternate type=application/json+oembed>) "
        + "within the URL's timeout and fill what the page lacks: never; discovered.",
      default: OEmbedMode.discovered.rawValue, choices: OEmbedMode.allCases.map(\.rawValue))
  ]

  /// `--oembed`'s mode.
  static func parse(_ arguments: ParsedArguments) throws(UsageError) -> OEmbedMode {
    let text = arguments.value("oembed") ?? OEmbedMode.discovered.rawValue
    guard let mode = OEmbedMode(rawValue: text) else {
      throw UsageError(
        "The value '\(text)' is invalid for '--oembed <mode>'", hint: "Give never or discovered.")
    }
    return mode
  }
}
