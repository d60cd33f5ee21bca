import Foundation
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

  /// The largest box side `--size` accepts.
  static let maximumSide = 8192

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    let variant = try variant(from: arguments)
    let diagnostics = Diagnostics(console: console, format: try LogFormat.parse(arguments), command: name)
    let output = OutputLayout(arguments.value("out") ?? ".")
    let sources = arguments.positionals
    let standardInput = sources.contains("-") ? console.readStandardInput() : []
    let inputs = sources.map { $0 == "-" ? ThumbnailBatch.Input.bytes(source: $0, standardInput) : .file($0) }
    let records: [ThumbRecord]
    do {
      records = try await ThumbnailBatch(output: output, variant: variant).run(inputs)
    } catch {
      diagnostics.error(error.description, code: error.code)
      return ExitCode.fatal
    }
    let failures = records.filter { $0.error != nil }
    for failure in failures {
      diagnostics.problem(
        failure.source, code: failure.error?.code ?? "unknown", message: failure.error?.message ?? "",
        fields: ["source": failure.source])
    }
    diagnostics.summary(
      "\(records.count - failures.count) of \(records.count) images thumbnailed; manifest: \(output.manifest)",
      fields: [
        "images": records.count, "thumbnailed": records.count - failures.count, "failed": failures.count,
        "manifest": output.manifest,
      ])
    return failures.isEmpty ? ExitCode.success : ExitCode.someFailed
  }

  /// The variant `--size`, `--fit` and `--format` describe.
  static func variant(from arguments: ParsedArguments) throws(UsageError) -> ThumbnailVariant {
    let sizeText = arguments.value("size") ?? "600x315"
    guard let size = parseSize(sizeText) else {
      throw UsageError("The value '\(sizeText)' is invalid for '--size <WxH>'")
    }
    let fitText = arguments.value("fit") ?? "contain"
    guard let fit = Fit(rawValue: fitText) else {
      throw UsageError("The value '\(fitText)' is invalid for '--fit <fit>'")
    }
    let formatText = arguments.value("format") ?? "webp"
    guard let format = OutputFormat(rawValue: formatText) else {
      throw UsageError("The value '\(formatText)' is invalid for '--format <format>'")
    }
    return ThumbnailVariant(name: "thumb", box: size, fit: fit, format: format)
  }

  /// `600x315` → 600×315; both sides 1…`maximumSide`.
  static func parseSize(_ text: String) -> Size? {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
      (1...maximumSide).contains(width), (1...maximumSide).contains(height)
    else { return nil }
    return Size(width: width, height: height)
  }
}
