import Foundation
import Thumbify

/// `thumbify crawl <urls-file|-> --out <dir>`: the nightly job.
enum CrawlCommand: Subcommand {
  static let name = "crawl"

  static let spec = CommandSpec(
    commandName: "thumbify crawl",
    abstract: "Crawl a URL list into link cards, thumbnails and a manifest.",
    discussion: """
      Reads one URL per line ('#' starts a comment; invalid lines are reported with \
      their line number and skipped), fetches each page, extracts its metadata, makes \
      thumbnails of its image and icon, and writes content-addressed blobs and \
      <dir>/manifest.jsonl (one record per URL, in input order). A rerun on the same \
      directory sends conditional requests and keeps unchanged cards; a killed run is \
      resumed. See docs/crawl.md.

      Exit status: 0 when every URL succeeded, 1 when some failed or were invalid (they \
      are in the manifest or the log), 64 for bad usage, 70 when the run could not \
      proceed (directory locked by another run, state or output not writable).
      """,
    arguments: [ArgumentSpec("urls-file", help: "The URL list ('-' reads standard input).")],
    options: [
      .option("out", short: "o", value: "dir", help: "The output directory.", isRequired: true),
      .option(
        "variant", value: "spec",
        help:
          "A thumbnail to make, as name=WxH[,contain|cover][,webp|jpeg|png][,q=N]; repeat for several. "
          + "Names starting with 'icon' are made from the icon. (default: card=600x1200, "
          + "card2x=1200x2400, icon=64x64,cover)",
        isRepeating: true),
      .option(
        "max-age", value: "duration", help: "Refetch entries older than this unconditionally (e.g. 7d, 12h)."),
      .option(
        "timeout", value: "duration",
        help:
          "The deadline of one URL (e.g. 30s, 2m; at most 1h): its page (redirects, retries and their waits "
          + "included) and the image and icon candidates after it share it. Network time only: queue waits "
          + "and decoding do not count. There is no separate per-attempt timeout.",
        default: "30s"),
      .option("concurrency", value: "n", help: "URLs crawled at once.", default: "64"),
      .option("per-host", value: "n", help: "Transfers at once to one host.", default: "2"),
      .flag("allow-private-network", help: "Allow loopback and private addresses (tests, local demos)."),
      .flag("ignore-robots", help: "Do not fetch or honour robots.txt."),
      .option(
        "cacert", value: "file", help: "A PEM file of CA certificates to trust instead of the system's."),
      .option("contact", value: "url", help: "A URL identifying the operator, sent in the User-Agent."),
      .flag("quiet", short: "q", help: "Print nothing but fatal errors."),
    ]
  )

  /// The command line's settings, checked.
  struct Options: Sendable {
    var listPath: String
    var outputDirectory: String
    var configuration: CrawlConfiguration
    /// `--timeout`, `--cacert`, `--contact`, `--per-host`, … (`FetcherOptions`).
    var fetcher: FetcherConfiguration
    var isQuiet: Bool
    var logFormat: LogFormat
  }

  static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
    func integer(_ name: String, _ synopsis: String, range: ClosedRange<Int>) throws(UsageError) -> Int {
      let text = arguments.value(name) ?? ""
      guard let value = Int(text), range.contains(value) else {
        throw UsageError("The value '\(text)' is invalid for '--\(name) <\(synopsis)>'")
      }
      return value
    }
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
    let maxAge = try DurationParser.value("max-age", in: arguments, allowsZero: true)
    var fetcher = try FetcherOptions.configuration(arguments)
    fetcher.maxTransfersPerHost = try integer("per-host", "n", range: 1...256)
    let logFormat = try LogFormat.parse(arguments)
    let concurrency = try integer("concurrency", "n", range: 1...4_096)
    return Options(
      listPath: arguments.positionals[0], outputDirectory: arguments.value("out") ?? ".",
      configuration: CrawlConfiguration(
        concurrency: concurrency, maxAge: maxAge,
        variants: variants.isEmpty ? ThumbnailVariant.crawlDefaults : variants, timeout: fetcher.timeout),
      fetcher: fetcher,
      isQuiet: arguments.flag("quiet"),
      logFormat: logFormat)
  }

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    let options = try parse(arguments)
    let diagnostics = Diagnostics(console: console, format: options.logFormat, command: name)
    func fatal(_ message: String, hint: String? = nil, code: String? = nil) -> Int32 {
      diagnostics.error(message, hint: hint, code: code)
      return ExitCode.fatal
    }
    let listPath = options.listPath
    let isStandardInput = listPath == "-"
    if !isStandardInput {
      do {
        _ = try URLListReader(path: listPath)
      } catch {
        guard case .io(_, _, let message) = error else { return fatal(error.description, code: error.code) }
        return fatal(
          "Cannot read the URL list '\(listPath)': \(message).",
          hint: "Give a readable file, or '-' for standard input.",
          code: error.code)
      }
    }
    let components: Production
    do {
      components = try Production(options: options)
    } catch {
      return fatal(error.description, code: error.code)
    }
    defer { components.shutdown() }
    let total = console.isErrorTerminal && !options.isQuiet && !isStandardInput ? countLines(listPath) : nil
    let progress = CrawlProgress(
      console: console, format: options.logFormat, isQuiet: options.isQuiet, total: total)
    let job = CrawlJob(
      outputDirectory: options.outputDirectory, configuration: options.configuration,
      fetcher: components.fetcher, extractor: components.extractor, thumbnailer: components.thumbnailer,
      robots: components.robots)
    let summary: CrawlJob.Summary
    let list: CrawlJob.ListSource =
      !isStandardInput
      ? .file(listPath)
      : console.inputDescriptor.map { .stream(fileDescriptor: $0) } ?? .bytes(console.readStandardInput())
    do {
      summary = try await job.run(
        list: list,
        onEvent: { progress.record($0) })
    } catch {
      progress.finish()
      return fatal(error.description, code: error.code)
    }
    progress.finish()
    if !options.isQuiet {
      let manifest = OutputLayout(options.outputDirectory).manifest
      console.print(progress.summary(summary, written: components.store.written, manifest: manifest))
    }
    return summary.isAllGood ? ExitCode.success : ExitCode.someFailed
  }

  /// Non-comment, non-blank lines of the list, for the progress bar's total.
  private static func countLines(_ path: String) -> Int? {
    guard let reader = try? URLListReader(path: path) else { return nil }
    var count = 0
    while (try? reader.next()) != nil { count += 1 }
    return count
  }
}
