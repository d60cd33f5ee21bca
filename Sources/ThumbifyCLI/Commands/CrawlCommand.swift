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
      resumed. URLs missing from the list keep their cards and records (listed after \
      the others) unless --prune is given. The run report goes to last-run.json in the \
      state directory. See docs/crawl.md.

      Exit status:

        0    success: no URL failed, or no more than --max-failures
        1    more failed, stale or invalid URLs than --max-failures allows
             (they are in the manifest, the log and last-run.json)
        64   bad usage
        70   the run could not proceed: directory locked by another run, state
             or output not writable, list unreadable, --prune over --prune-max
        130  stopped by SIGINT (Ctrl-C), after committing what was finished
        143  stopped by SIGTERM, after committing what was finished

      SIGINT (Ctrl-C) or SIGTERM stops the crawl: no new URL is taken and no new \
      request is sent (requests waiting behind a host's limit end 'stopped'), pages in \
      flight get 2 s to finish and are then cancelled, what is finished is saved, the \
      manifest lists what is known, and the next run on the directory does only the \
      rest. A second signal cancels at once; a third exits on the spot.
      """,
    arguments: [ArgumentSpec("urls-file", help: "The URL list ('-' reads standard input).")],
    options: [
      out.spec, StateOption.state.spec, VariantOptions.variant.spec, maxAge.spec, FetcherOptions.timeout.spec,
      concurrency.spec, FetcherOptions.perHost.spec, FetcherOptions.allowPrivateNetwork.spec,
      FetcherOptions.ignoreRobots.spec, FetcherOptions.cacert.spec, FetcherOptions.contact.spec,
      maxFailures.spec, prune.spec, pruneMax.spec, forcePrune.spec, dropGoneAfter.spec, metrics.spec,
      shard.spec, shards.spec, baseline.spec, baselineState.spec,
    ]
      + RenderOptions.specs + OEmbedOptions.specs + [Flag.quiet.spec]
  )

  static let out = Option.text(
    "out", short: "o", value: "dir", help: "The output directory.", isRequired: true)
  static let maxAge = Option.duration(
    "max-age", help: "Refetch entries older than this unconditionally (e.g. 7d, 12h).", allowsZero: true)
  static let concurrency = Option.integer(
    "concurrency", help: "URLs crawled at once.", default: 64, range: 1...4_096)
  static let maxFailures = Option.threshold(
    "max-failures",
    help:
      "Exit 0 while no more URLs than this failed, are stale or are invalid lines: a count, or a share "
      + "of the URLs listed.",
    default: "0")
  static let prune = Flag(
    "prune",
    help:
      "Remove the cards, manifest records and state of URLs missing from the list (kept without it); "
      + "'thumbify gc' then removes their blobs.")
  // The default is in the text, not `default:` (which the parser would fill in, and the check that
  // --prune-max is only given with --prune could not tell).
  static let pruneMax = Option.threshold(
    "prune-max",
    help:
      "With --prune, refuse (exit 70, nothing removed) to remove more than this of the known URLs. "
      + "(default: 20%)")
  static let forcePrune = Flag("force-prune", help: "With --prune, remove them however many there are.")
  static let dropGoneAfter = Option.duration(
    "drop-gone-after",
    help:
      "Drop listed pages that answered 404 or 410 on every run for at least this long (e.g. 7d): "
      + "their manifest records and cards are removed, and counted; without it a gone page keeps its "
      + "last card, marked stale.",
    allowsZero: false)
  static let metrics = Option.text(
    "metrics", value: "file",
    help: "Write a Prometheus textfile (node_exporter's textfile collector) with the run's counts.")
  static let baseline = Option.text(
    "baseline", value: "dir",
    help:
      "The previous night's merged directory ('thumbify merge --out'), read only: the URLs of this crawl "
      + "(its shard's) that its state does not know are fetched conditionally from the baseline's "
      + "validators, keep the baseline's card when they fail, and are kept when unlisted; its blobs "
      + "and cards are brought in as they are used (docs/crawl.md, \"--baseline\").")
  static let baselineState = Option.text(
    "baseline-state", value: "dir",
    help: "The baseline's state directory (default: the baseline directory's default state directory).")
  static let shard = Option(
    .option(
      "shard", value: "k/n",
      help:
        "Crawl only shard K of N: the URLs whose registrable domain (IP literals: host and port) hashes to "
        + "K modulo N. Without it, a Slurm array task (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT) is one "
        + "shard, and so is a Kubernetes Indexed Job's (JOB_COMPLETION_INDEX) or an AWS Batch array's "
        + "(AWS_BATCH_JOB_ARRAY_INDEX) with --shards. Give each shard its own --out and --state (docs/crawl.md, "
        + "\"Sharded crawls\").")
  ) { text throws(InvalidValue) in
    guard let shard = Shard(text), shard.count <= ShardSelection.maximumCount else {
      throw InvalidValue(reason: "give K/N with 0 <= K < N")
    }
    return shard
  }
  static let shards = Option.integer(
    "shards", help: "The number of shards, for an array index taken from the environment (see --shard).",
    range: 1...ShardSelection.maximumCount)

  /// The command line's settings, checked.
  struct Options: Sendable {
    var listPath: String
    var outputDirectory: String
    var configuration: CrawlConfiguration
    /// `--timeout`, `--cacert`, `--contact`, `--per-host`, … (`FetcherOptions`).
    var fetcher: FetcherConfiguration
    var isQuiet: Bool
    var logFormat: LogFormat
    /// `--max-failures`: above it the run exits 1.
    var maxFailures: Threshold
    /// `--prune`, `--prune-max`, `--force-prune`: `nil` keeps the URLs missing from the list.
    var pruneLimit: Threshold?
    var isPruneForced: Bool
    /// `--drop-gone-after <duration>` in seconds: `nil` keeps gone pages (stale).
    var dropGoneAfter: Double?
    /// `--metrics <file>`.
    var metricsPath: String?
    /// `--shard K/N`, or the array task the environment names (`ShardSelection`).
    var shard: ShardSelection?
    /// `--baseline <dir>` and `--baseline-state <dir>`.
    var baseline: String?
    var baselineState: String?
  }

  static func parse(_ arguments: ParsedArguments, environment: [String: String] = [:]) throws(UsageError)
    -> Options
  {
    var fetcher = try FetcherOptions.configuration(arguments)
    fetcher.maxTransfersPerHost = try arguments.required(FetcherOptions.perHost)
    let render = try RenderOptions.parse(arguments)
    let isPruning = arguments.isSet(prune)
    if !isPruning && arguments.has(pruneMax) { throw UsageError("'--prune-max' needs '--prune'") }
    if !isPruning && arguments.isSet(forcePrune) { throw UsageError("'--force-prune' needs '--prune'") }
    let shard: ShardSelection?
    let (given, count) = (try arguments.value(Self.shard), try arguments.value(shards))
    do {
      shard = try ShardSelection(shard: given, shards: count, environment: environment)
    } catch {
      throw UsageError(error.message)
    }
    if shard != nil && isPruning {
      throw UsageError(
        "'--prune' cannot be used by a shard: a shard's list is a part of the corpus; prune the merged "
          + "directory's URLs with an unsharded crawl")
    }
    if arguments.has(baselineState) && !arguments.has(baseline) {
      throw UsageError("'--baseline-state' needs '--baseline'")
    }
    let variants = try VariantOptions.variants(arguments)
    var configuration = CrawlConfiguration(
      concurrency: try arguments.required(concurrency), maxAge: try arguments.value(maxAge),
      variants: variants.isEmpty ? ThumbnailVariant.defaults : variants, timeout: fetcher.timeout,
      render: render.mode, renderBudget: render.budget)
    configuration.oembed = try arguments.required(OEmbedOptions.mode)
    return Options(
      listPath: arguments.positionals[0], outputDirectory: try arguments.required(out),
      configuration: configuration,
      fetcher: fetcher,
      isQuiet: arguments.isSet(.quiet),
      logFormat: try LogFormat.parse(arguments),
      maxFailures: try arguments.required(maxFailures),
      pruneLimit: isPruning ? try arguments.value(pruneMax) ?? .percent(20) : nil,
      isPruneForced: arguments.isSet(forcePrune),
      dropGoneAfter: try arguments.value(dropGoneAfter),
      metricsPath: try arguments.value(metrics), shard: shard, baseline: try arguments.value(baseline),
      baselineState: try arguments.value(baselineState))
  }

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    let options = try parse(arguments, environment: console.environment)
    let diagnostics = Diagnostics(console: console, format: options.logFormat, command: name)
    if let shard = options.shard, !options.isQuiet {
      diagnostics.note(shard.description, event: "shard")
    }
    if !diagnostics.canRead(list: options.listPath) { return ExitCode.fatal }
    let (layout, baseline, stages): (OutputLayout, OutputLayout?, CrawlStages)
    do throws(Diagnostics.Fatal) {
      (layout, baseline, stages) = try prepare(options, arguments: arguments, console: console)
    } catch {
      return diagnostics.fatal(error)
    }
    defer { stages.shutdown() }
    let isStandardInput = options.listPath == "-"
    let total =
      console.isErrorTerminal && !options.isQuiet && !isStandardInput
        && URLListReader.isRereadable(options.listPath)
      ? countLines(options.listPath, shard: options.shard?.shard) : nil
    let progress = CrawlProgress(
      console: console, format: options.logFormat, isQuiet: options.isQuiet, total: total)
    progress.start()
    let job = makeJob(options, layout: layout, baseline: baseline, stages: stages, progress: progress)
    let signals = stopSignals(for: job, progress: progress)
    defer { signals.cancel() }
    let started = Date()
    /// Writes last-run.json and the metrics file; a failure to write them is reported, and fatal.
    func report(_ summary: CrawlJob.Summary?, error: String?, status: Int32) -> Int32 {
      var report = RunReport(
        summary: summary, error: error, exitStatus: status, started: started, finished: Date(),
        written: stages.store.written, fetchedBytes: stages.counting.fetchedBytes,
        maxFailures: options.maxFailures, lastSuccess: nil)
      do {
        try report.write(to: layout, metrics: options.metricsPath)
      } catch {
        // A run that already failed for a storage reason has said so; the report's failure adds nothing.
        if status != ExitCode.fatal { diagnostics.error(error.description, code: error.code) }
        return ExitCode.fatal
      }
      return status
    }
    let list: CrawlJob.ListSource =
      !isStandardInput
      ? .file(options.listPath)
      : console.inputDescriptor.map { .stream(fileDescriptor: $0) } ?? .bytes(console.readStandardInput())
    let summary: CrawlJob.Summary
    do {
      summary = try await job.run(list: list, onEvent: { progress.record($0) })
    } catch {
      progress.finish()
      var message = error.description
      if case .pruneRefused = error {
        message += " Check the URL list, or rerun with a larger --prune-max or with --force-prune."
      }
      let status = diagnostics.fatal(Diagnostics.Fatal(message, code: error.code))
      // A refused second run must not overwrite the report of the run that holds the directory.
      if case .locked = error { return status }
      return report(nil, error: message, status: status)
    }
    progress.finish()
    if !options.isQuiet {
      console.print(
        progress.summary(
          summary, written: stages.store.written, manifest: layout.manifest, report: layout.lastRun))
    }
    // A signal decides the status even when it came too late to stop the run (the summary says).
    let status =
      signals.first.map { StopSignals.exitCode(for: $0) }
      ?? RunReport.exitStatus(summary, maxFailures: options.maxFailures)
    return report(summary, error: nil, status: status)
  }

  /// What a run needs before it starts, each checked before any fetch: a writable `--metrics`
  /// directory, the output layout (its state moved where it belongs), the `--baseline`'s state, and
  /// the production stages (libcurl; Chromium when rendering).
  private static func prepare(_ options: Options, arguments: ParsedArguments, console: Console)
    throws(Diagnostics.Fatal) -> (OutputLayout, OutputLayout?, CrawlStages)
  {
    if let metrics = options.metricsPath, let directory = RunReport.unwritableMetricsDirectory(metrics) {
      throw Diagnostics.Fatal(
        "Cannot write the metrics file '\(metrics)': the directory '\(directory.path)' "
          + (directory.exists ? "is not writable." : "does not exist."),
        hint: "Point --metrics into an existing writable directory (node_exporter's textfile directory).",
        code: "storageFailed")
    }
    let layout: OutputLayout
    do {
      layout = try StateOption.layout(
        arguments, outputDirectory: options.outputDirectory, console: console, isQuiet: options.isQuiet,
        isJSON: options.logFormat == .json, command: name)
    } catch {
      throw Diagnostics.Fatal(error.description)
    }
    let baseline = try options.baseline.map { directory throws(Diagnostics.Fatal) in
      try baselineLayout(directory, state: options.baselineState, environment: console.environment)
    }
    do {
      let stages = try CrawlStages(
        fetcher: options.fetcher, configuration: options.configuration,
        outputDirectory: options.outputDirectory, environment: console.environment)
      return (layout, baseline, stages)
    } catch {
      switch error {
      case .fetch(let error): throw Diagnostics.Fatal(error.description, code: error.code)
      case .render(let error):
        throw Diagnostics.Fatal(error.description, hint: RenderOptions.missingBrowserHint, code: error.code)
      }
    }
  }

  /// The layout of `--baseline <directory>`, whose crawl state must be readable.
  private static func baselineLayout(_ directory: String, state: String?, environment: [String: String])
    throws(Diagnostics.Fatal) -> OutputLayout
  {
    let resolved: OutputLayout
    do {
      resolved = try OutputLayout.resolving(directory, stateDirectory: state, environment: environment)
    } catch {
      throw Diagnostics.Fatal(error.description, code: error.code)
    }
    guard access(resolved.stateDatabase, R_OK) == 0 else {
      throw Diagnostics.Fatal(
        "The baseline '\(directory)' has no crawl state in '\(resolved.stateDirectory)'.",
        hint: "Give the merged directory's state with --baseline-state <dir>.", code: "storageFailed")
    }
    return resolved
  }

  /// The crawl job over `stages`, pruning and dropping gone pages as the options say.
  private static func makeJob(
    _ options: Options, layout: OutputLayout, baseline: OutputLayout?, stages: CrawlStages,
    progress: CrawlProgress
  ) -> CrawlJob {
    let pruning = options.pruneLimit.map { limit in
      CrawlJob.Pruning(limit: limit, isForced: options.isPruneForced, onRemoved: { progress.pruned($0) })
    }
    let droppingGone = options.dropGoneAfter.map { seconds in
      CrawlJob.GoneDropping(after: .milliseconds(Int64(seconds * 1000)), onDropped: { progress.dropped($0) })
    }
    return CrawlJob(
      layout: layout, configuration: options.configuration,
      fetcher: stages.fetcher, extractor: stages.extractor, thumbnailer: stages.thumbnailer,
      robots: stages.robots, pruning: pruning, shard: options.shard?.shard, baseline: baseline,
      droppingGone: droppingGone, renderer: stages.renderer)
  }

  /// SIGINT/SIGTERM: the first stops taking URLs (cancelling what is in flight after 2 s), the
  /// second cancels at once.
  private static func stopSignals(for job: CrawlJob, progress: CrawlProgress) -> StopSignals {
    StopSignals(
      onFirst: { signal in
        job.stop(cancellingAfter: .seconds(2))
        progress.note(
          "Stopping (\(signal == SIGTERM ? "SIGTERM" : "SIGINT")): taking no new URL, saving what is "
            + "finished; a second signal cancels what is in flight.")
      },
      onSecond: {
        job.stopNow()
        progress.note("Stopping at once: cancelling what is in flight.")
      })
  }

  /// Non-comment, non-blank lines of the list, for the progress bar's total.
  private static func countLines(_ path: String, shard: Shard?) -> Int? {
    guard let reader = try? URLListReader(path: path) else { return nil }
    reader.shard = shard
    var count = 0
    while (try? reader.next()) != nil { count += 1 }
    return count
  }
}

extension Diagnostics {
  /// Whether the URL list at `path` can be opened (standard input, `-`, always can), checked before a
  /// run takes its lock; when not, says why (exit 70 follows).
  func canRead(list path: String) -> Bool {
    guard path != "-" else { return true }
    do {
      _ = try URLListReader(path: path)
      return true
    } catch {
      guard case .io(_, _, let message) = error else {
        self.error(error.description, code: error.code)
        return false
      }
      self.error(
        "Cannot read the URL list '\(path)': \(message).",
        hint: "Give a readable file, or '-' for standard input.",
        code: error.code)
      return false
    }
  }
}
