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
      input to <dir>/manifest.jsonl, in input order: a crawl's manifest record \
      (docs/manifest.schema.json; originalURL is the path as given, image the \
      thumbnails), so 'thumbify report <dir>' shows them. --variant works as in \
      crawl; without it, --size, --fit, --format and --quality describe one \
      variant named thumb. Exits 0 when every image succeeded and 1 when any \
      failed (the others are still written).
      """,
    arguments: [
      ArgumentSpec(
        "images", help: "Image files ('-' reads one image from standard input).", isRepeating: true)
    ],
    options: [
      CrawlCommand.out.spec, StateOption.state.spec, variant.spec, size.spec, fit.spec, format.spec,
      quality.spec,
      quiet.spec,
    ]
  )

  static let variant = VariantOptions.variant.withHelp(
    "A thumbnail to make, as name=WxH[,contain|cover][,webp|jpeg|png|avif][,q=N][,m=N][,pass]; repeat for several "
      + "(instead of --size, --fit, --format and --quality).")
  // No `default:` for these four, so that `variants(from:)` sees whether they were given; the help
  // says the defaults as the formatter would.
  static let size = Option(
    .option("size", value: "WxH", help: "The box thumbnails fit into. (default: 600x315)")
  ) {
    text throws(InvalidValue) in
    guard let size = parseSize(text) else {
      throw InvalidValue(hint: "Give a width and a height from 1 to \(maximumSide), as 600x315.")
    }
    return size
  }
  static let fit = Option(
    .option("fit", value: "fit", help: "contain (fit inside) or cover (fill and crop). (default: contain)")
  ) { text throws(InvalidValue) in
    guard let fit = Fit(rawValue: text) else { throw InvalidValue(hint: "Give contain or cover.") }
    return fit
  }
  static let format = Option(
    .option("format", value: "format", help: "webp, jpeg, png or avif. (default: webp)")
  ) {
    text throws(InvalidValue) in
    guard let format = OutputFormat(rawValue: text) else {
      throw InvalidValue(hint: "Give webp, jpeg, png or avif.")
    }
    return format
  }
  static let quality = Option.integer(
    "quality", value: "1-100", help: "The encoder quality (webp and jpeg). (default: 80)", range: 1...100)
  static let quiet = Flag.quiet.withHelp("Print nothing but fatal errors (failures are in the manifest).")

  /// The largest box side `--size` accepts.
  static let maximumSide = 8192

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    let variants = try variants(from: arguments)
    let diagnostics = Diagnostics(console: console, format: try LogFormat.parse(arguments), command: name)
    let outputDirectory = try arguments.required(CrawlCommand.out)
    let output: OutputLayout
    do {
      // The run lock is in the state directory: a thumb run and a crawl of one directory exclude
      // each other only when they name the same state.
      output = try StateOption.layout(
        arguments, outputDirectory: outputDirectory, console: console, isQuiet: false,
        isJSON: diagnostics.format == .json, command: name)
    } catch {
      diagnostics.error(error.description)
      return ExitCode.fatal
    }
    let sources = arguments.positionals
    let standardInput = sources.contains("-") ? console.readStandardInput() : []
    let inputs = sources.map { $0 == "-" ? ThumbnailBatch.Input.bytes(source: $0, standardInput) : .file($0) }
    let records: [CrawlRecord]
    do {
      records = try await ThumbnailBatch(output: output, variants: variants).run(inputs)
    } catch {
      diagnostics.error(error.description, code: error.code)
      return ExitCode.fatal
    }
    let failures = records.filter { $0.error != nil }
    if arguments.isSet(quiet) { return failures.isEmpty ? ExitCode.success : ExitCode.someFailed }
    for failure in failures {
      diagnostics.problem(
        failure.originalURL, code: failure.error?.code ?? "unknown", message: failure.error?.message ?? "",
        fields: ["source": failure.originalURL])
    }
    diagnostics.summary(
      "\(records.count - failures.count) of \(records.count) images thumbnailed; manifest: \(output.manifest)",
      fields: [
        "images": records.count, "thumbnailed": records.count - failures.count, "failed": failures.count,
        "manifest": output.manifest,
      ])
    return failures.isEmpty ? ExitCode.success : ExitCode.someFailed
  }

  /// The `--variant`s, else the one variant `--size`, `--fit`, `--format` and `--quality` describe.
  static func variants(from arguments: ParsedArguments) throws(UsageError) -> [ThumbnailVariant] {
    let variants = try VariantOptions.variants(arguments)
    guard variants.isEmpty else {
      // Which of the two would win is not obvious: refuse the mix.
      for spec in [size.spec, fit.spec, format.spec, quality.spec] where arguments.has(spec) {
        throw UsageError(
          "'--\(spec.long)' cannot be combined with '--variant' (give it in the --variant spec)")
      }
      return variants
    }
    return [
      ThumbnailVariant(
        name: "thumb", box: try arguments.value(size) ?? Size(width: 600, height: 315),
        fit: try arguments.value(fit) ?? .contain, format: try arguments.value(format) ?? .webp,
        quality: try arguments.value(quality) ?? 80)
    ]
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
