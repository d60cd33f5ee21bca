import CLinux
import Foundation
import Thumbify

/// `thumbify serve --out <dir> [--cards <dir>]`: cards on demand over HTTP (docs/serve.md).
enum ServeCommand: Subcommand {
  static let name = "serve"

  static let spec = CommandSpec(
    commandName: "thumbify serve",
    abstract: "Answer link cards over HTTP, fetching the URLs the crawl has not seen.",
    discussion: """
      GET /v1/card?url=<url>[&variants=<name,...>] answers the card JSON of cards/<key>.json: \
      from the crawl's --cards directory when it has the URL, else fetched live through \
      the crawl's pipeline (one fetch for concurrent requests of one URL) and stored in \
      --out with the crawl's layout (blobs, cards, manifest, state). 200 with the card; 422 \
      with {"error": {...}} when the page failed; 400 for a bad or private URL; 401 without \
      a valid token (--token-file); 429 past --rate-limit; 503 when busy or stopping; 504 \
      past the deadline. GET /blobs/..., /cards/<key>.json, /healthz and /metrics \
      (Prometheus) are served too. See docs/serve.md.

      SIGTERM or SIGINT stops accepting connections, answers what is in flight (at most \
      the --timeout deadline), writes the manifest and exits 0; a second signal stops at once.

      Exit status:

        0    stopped by a signal, after finishing what was in flight
        64   bad usage (a non-loopback --listen without --token-file or --public)
        70   cannot listen, or the output directory is locked or unwritable
      """,
    options: [
      out.spec, cards.spec, StateOption.state.spec, listen.spec, tokenFile.spec, isPublic.spec,
      maxConnections.spec, maxClientConnections.spec, maxLive.spec, rateLimit.spec, clientTimeout.spec,
      threads.spec,
      VariantOptions.variant.spec, FetcherOptions.timeout.spec, FetcherOptions.perHost.spec,
      FetcherOptions.allowPrivateNetwork.spec, FetcherOptions.ignoreRobots.spec, FetcherOptions.cacert.spec,
      FetcherOptions.contact.spec,
    ] + RenderOptions.specs
  )

  static let out = Option.text(
    "out", short: "o", value: "dir", help: "Where live results are stored (the crawl's layout).",
    isRequired: true)
  static let cards = Option.text(
    "cards", value: "dir",
    help:
      "A crawl's output directory to answer from first (read only; reloaded when its manifest is replaced).")
  static let listen = Option(
    .option(
      "listen", value: "address",
      help: "host:port (IPv6 as [::1]:port) or a Unix socket path (anything with a '/').",
      default: "127.0.0.1:8080")
  ) { text throws(InvalidValue) in
    guard let address = ListenAddress(text) else {
      throw InvalidValue(hint: "Give an address and port (127.0.0.1:8080, [::1]:8080) or a Unix socket path.")
    }
    return address
  }
  static let tokenFile = Option.text(
    "token-file", value: "file",
    help: "Bearer tokens accepted, one a line; every route but /healthz needs one.")
  static let isPublic = Flag("public", help: "Allow a non-loopback --listen without --token-file.")
  static let maxConnections = Option.integer(
    "max-connections", help: "Open connections at once.", default: 512, range: 1...65_536)
  static let maxClientConnections = Option.integer(
    "max-client-connections", help: "Open connections from one client address (TCP).", default: 64,
    range: 1...65_536)
  static let maxLive = Option.integer(
    "max-live", help: "Live fetches (distinct URLs) at once; past it 503.", default: 32, range: 1...4_096)
  static let rateLimit = Option.integer(
    "rate-limit", help: "Card requests per client (token, else address) per minute; 0 for none.",
    default: 600,
    range: 0...1_000_000)
  static let threads = Option.integer(
    "threads",
    help: "Threads answering HTTP (each polls its own connections; cached cards are answered on them).",
    default: 1, range: 1...256)
  static let clientTimeout = Option.duration(
    "client-timeout", help: "Close a connection idle (or trickling its request) this long.", default: "10s",
    allowsZero: false, maximum: 3600)

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    let logFormat = try LogFormat.parse(arguments)
    let diagnostics = Diagnostics(console: console, format: logFormat, command: name)
    // glibc gives each thread that allocates an arena of its own (up to 8 per core); a long-running
    // server's dozen threads each kept what they had freed (docs/serve.md, "Memory"). Two arenas,
    // and `malloc_trim` after each manifest write below, keep RSS near what is in use.
    mallopt(M_ARENA_MAX, 2)
    let address = try arguments.required(listen)
    let tokenFile = try arguments.value(tokenFile)
    if !address.isLocal && tokenFile == nil && !arguments.isSet(isPublic) {
      throw UsageError(
        "Listening on \(address) needs '--token-file <file>' (or '--public')",
        hint: "Anyone who can reach the address could make the server fetch URLs.")
    }
    let variants = try VariantOptions.variants(arguments)
    var fetcher = try FetcherOptions.configuration(arguments)
    fetcher.maxTransfersPerHost = try arguments.required(FetcherOptions.perHost)
    let render = try RenderOptions.parse(arguments)
    let maxConnections = try arguments.required(maxConnections)
    let maxClientConnections = try arguments.required(maxClientConnections)
    let maxLive = try arguments.required(maxLive)
    let perMinute = try arguments.required(rateLimit)
    let threads = try arguments.required(threads)
    let clientTimeout = try arguments.required(clientTimeout)
    let cardsDirectory = try arguments.value(cards)
    func fatal(_ message: String, code: String? = nil) -> Int32 {
      diagnostics.error(message, code: code)
      return ExitCode.fatal
    }
    var tokens = Set<String>()
    if let tokenFile {
      guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
        return fatal("Cannot read the token file '\(tokenFile)'.", code: "storageFailed")
      }
      tokens = Set(
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
          !$0.isEmpty && !$0.hasPrefix("#")
        })
      guard !tokens.isEmpty else {
        return fatal("The token file '\(tokenFile)' holds no token.", code: "storageFailed")
      }
    }
    let outputDirectory = try arguments.required(out)
    let layout: OutputLayout
    do {
      layout = try StateOption.layout(
        arguments, outputDirectory: outputDirectory, console: console, isQuiet: false,
        isJSON: logFormat == .json,
        command: name)
    } catch {
      return fatal(error.description, code: error.code)
    }
    fetcher.maxConcurrentTransfers = max(maxLive * 2, 8)
    // A host that failed repeatedly is skipped for 5 minutes, not for the life of the server.
    fetcher.retry.hostSkipDuration = .seconds(300)
    let configuration = CrawlConfiguration(
      concurrency: maxLive, variants: variants.isEmpty ? ThumbnailVariant.defaults : variants,
      timeout: fetcher.timeout, render: render.mode, renderBudget: render.budget)
    let curl: CurlFetcher
    do {
      // robots.txt verdicts are fetched again after a day and kept for 10,000 origins at most: the
      // server runs for weeks and asks any number of hosts (docs/serve.md, "Memory").
      curl = try CurlFetcher(
        configuration: fetcher, robots: RobotsCache(maxAge: .seconds(86_400), maxOrigins: 10_000))
    } catch {
      return fatal(error.description, code: error.code)
    }
    defer { curl.shutdown() }
    let renderer: ChromiumRenderer?
    do {
      renderer = try CrawlStages.renderer(
        mode: render.mode, budget: render.budget, fetcher: curl, environment: console.environment)
    } catch {
      diagnostics.error(error.description, hint: RenderOptions.missingBrowserHint, code: error.code)
      return ExitCode.fatal
    }
    defer { renderer?.shutdown() }
    let service: CardService
    do {
      service = try CardService(
        configuration: CardService.Configuration(
          crawl: configuration, layout: layout, cardsDirectory: cardsDirectory,
          maxLiveFetches: maxLive,
          allowsPrivateNetwork: fetcher.allowsPrivateNetwork),
        fetcher: curl,
        extractor: MetadataExtractor(iconTargetSize: configuration.iconVariants.map(\.box.width).max() ?? 64),
        thumbnailer: Thumbnailer(decoder: ImageDecoder(), store: BlobStore(root: layout.directory)),
        renderer: renderer)
    } catch {
      return fatal(error.description, code: error.code)
    }
    let router = ServeRouter(
      service: service, outputDirectory: layout.directory, cardsDirectory: cardsDirectory,
      tokens: tokens,
      perMinute: perMinute)
    let access = AccessLog(diagnostics: diagnostics, metrics: router.metrics)
    var limits = HTTPServer.Limits()
    limits.connections = maxConnections
    limits.connectionsPerClient = maxClientConnections
    limits.idleTimeout = max(1, Int(clientTimeout.rounded(.up)))
    limits.threads = threads
    let server: HTTPServer
    do {
      server = try HTTPServer(
        address: address, limits: limits, handler: { router.handle($0) },
        onComplete: { access.record($0, $1, $2) })
    } catch {
      _ = try? await service.stop(grace: .zero)
      return fatal(error.description, code: "listen")
    }
    let shown: String =
      if case .inet(let host, _) = address {
        ListenAddress.inet(host: host, port: server.port).description
      } else { address.description }
    diagnostics.note("Listening on \(shown)", event: "listening")
    let (stops, stopper) = AsyncStream.makeStream(of: Bool.self)
    let signals = StopSignals(
      onFirst: { _ in stopper.yield(false) },
      onSecond: { stopper.yield(true) })
    defer { signals.cancel() }
    // The manifest of --out is rewritten a few seconds after live results came in.
    let manifests = Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: .seconds(5))
        do throws(CardServiceError) {
          try service.writeManifestIfNeeded()
        } catch {
          diagnostics.error(error.description, code: error.code)
        }
        malloc_trim(0)
      }
    }
    var iterator = stops.makeAsyncIterator()
    _ = await iterator.next()
    diagnostics.note(
      "Stopping: taking no new connection, finishing the requests in flight.", event: "stopping")
    router.startDraining()
    server.quiesce()
    let grace = service.liveDeadline + .seconds(1)
    let isImmediate = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        let end = ContinuousClock.now + grace
        while server.activeRequests > 0, ContinuousClock.now < end {
          try? await Task.sleep(for: .milliseconds(20))
        }
        return false
      }
      group.addTask {
        var iterator = stops.makeAsyncIterator()
        return await iterator.next() ?? false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      stopper.finish()
      return first
    }
    server.stop()
    manifests.cancel()
    do throws(CardServiceError) {
      try await service.stop(grace: isImmediate ? .zero : .seconds(1))
    } catch {
      return fatal(error.description, code: error.code)
    }
    diagnostics.note("Stopped.", event: "stopped")
    return ExitCode.success
  }
}

/// One line per request on standard error (`--log-format json`: one object), and the metrics.
struct AccessLog: Sendable {
  let diagnostics: Diagnostics
  let metrics: ServeMetrics

  func record(_ request: HTTPRequest, _ response: HTTPResponse, _ duration: Duration) {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    metrics.record(
      route: response.route, status: response.status, seconds: seconds, source: response.logFields["source"],
      code: response.status >= 400 ? response.logFields["code"] : nil)
    let milliseconds = (seconds * 1000 * 10).rounded() / 10
    diagnostics.event(
      "request",
      text:
        "\(request.client) \"\(request.method) \(request.target)\" \(response.status) \(response.byteCount) \(milliseconds)ms",
      fields: {
        var fields: [String: Any] = [
          "method": request.method, "target": request.target, "client": request.client,
          "status": response.status, "bytes": response.byteCount, "ms": milliseconds,
        ]
        for (key, value) in response.logFields { fields[key] = value }
        return fields
      }())
  }
}
