import Thumbify

/// `--oembed`, which `crawl` and `extract` share (docs/metadata.md, "oEmbed").
enum OEmbedOptions {
  static let mode = Option<OEmbedMode>.choice(
    "oembed", value: "mode",
    help:
      "Fetch the oEmbed endpoint a page declares (<link rel=alternate type=application/json+oembed>) "
      + "within the URL's timeout and fill what the page lacks: never; discovered.",
    default: .discovered)

  static let specs: [OptionSpec] = [mode.spec]
}
