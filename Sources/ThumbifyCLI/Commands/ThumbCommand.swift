import Thumbify

/// `thumbify thumb <images>... --out <dir>`: thumbnails for local image files.
enum ThumbCommand: Subcommand {
  static let name = "thumb"

  static let spec = CommandSpec(
    commandName: "thumbify thumb",
    abstract: "Make thumbnails of local image files.",
    discussion: """
      Writes content-addressed blobs under <dir>/blobs and one JSON record per \
      input to <dir>/manifest.jsonl, in input order. Exits 0 when every image \
      succeeded and 1 when any failed (the others are still written).
      """,
    arguments: [
      ArgumentSpec(
        "images", help: "Image files ('-' reads one image from standard input).", isRepeating: true)
    ],
    options: [
      .option("out", short: "o", value: "dir", help: "The output directory.", isRequired: true),
      .option("size", value: "WxH", help: "The box thumbnails fit into.", default: "600x315"),
      .option(
        "fit", value: "fit", help: "contain (fit inside) or cover (fill and crop).", default: "contain"),
      .option("format", value: "format", help: "webp, jpeg or png.", default: "webp"),
    ]
  )

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    console.printError("thumbify thumb is not built yet.")
    return ExitCode.fatal
  }
}
