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

  /// What the options ask for, checked.
  struct Options {
    var logFormat: LogFormat
    var address: ListenAddress
    var tokenFile: String?
    var outputDirectory: String
    var cardsDirectory: String?
    var fetcher: FetcherConfiguration
    var crawl: CrawlConfiguration
    var maxLive: Int
    var perMinute: Int
    var limits: HTTPServer.Limits
  }

  static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
    let address = try arguments.required(listen)
    let tokenFile = try arguments.value(tokenFile)
    if !address.isLocal && tokenFile == nil && !arguments.isSet(isPublic) {
      throw UsageError(
        "Listening on \(address) needs '--token-file <file>' (or '--public')",
        hint: "Anyone who can reach the address could make the server fetch URLs.")
    }
    var fetcher = try FetcherOptions.configuration(arguments)
    fetcher.maxTransfersPerHost = try arguments.required(FetcherOptions.perHost)
    let variants = try VariantOptions.variants(arguments)
    let render = try RenderOptions.parse(arguments)
    let maxLive = try arguments.required(maxLive)
    var limits = HTTPServer.Limits()
    limits.connections = try arguments.required(maxConnections)
    limits.connectionsPerClient = try arguments.required(maxClientConnections)
    limits.idleTimeout = max(1, Int(try arguments.required(clientTimeout).rounded(.up)))
    limits.threads = try arguments.required(threads)
    return Options(
      logFormat: try LogFormat.parse(arguments), address: address, tokenFile: tokenFile,
      outputDirectory: try arguments.required(out), cardsDirectory: try arguments.value(cards),
      fetcher: fetcher,
      crawl: CrawlConfiguration(
        concurrency: maxLive, variants: variants.isEmpty ? ThumbnailVariant.defaults : variants,
        timeout: fetcher.timeout, render: render.mode, renderBudget: render.budget),
      maxLive: maxLive, perMinute: try arguments.required(rateLimit), limits: limits)
  }

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    let options = try parse(arguments)
    let diagnostics = Diagnostics(console: console, format: options.logFormat, command: name)
    // glibc gives each thread that allocates an arena of its own (up to 8 per core); a long-running
    // server's dozen threads each kept what they had freed (docs/serve.md, "Memory"). Two arenas,
    // and `malloc_trim` after each manifest write, keep RSS near what is in use.
    mallopt(M_ARENA_MAX, 2)
    let service: CardService
    let router: ServeRouter
    let server: HTTPServer
    do throws(Diagnostics.Fatal) {
      (service, router) = try start(options, arguments: arguments, console: console)
      server = try await listen(options, router: router, service: service, diagnostics: diagnostics)
    } catch {
      return diagnostics.fatal(error)
    }
    let shown: String =
      if case .inet(let host, _) = options.address {
        ListenAddress.inet(host: host, port: server.port).description
      } else { options.address.description }
    diagnostics.note("Listening on \(shown)", event: "listening")
    do throws(CardServiceError) {
      try await serveUntilStopped(server, router: router, service: service, diagnostics: diagnostics)
    } catch {
      diagnostics.error(error.description, code: error.code)
      return ExitCode.fatal
    }
    diagnostics.note("Stopped.", event: "stopped")
    return ExitCode.success
  }

  /// The service over `--out` (and `--cards`) and its router, with the tokens of `--token-file`.
  private static func start(_ options: Options, arguments: ParsedArguments, console: Console)
    throws(Diagnostics.Fatal) -> (CardService, ServeRouter)
  {
    let tokens = try options.tokenFile.map { path throws(Diagnostics.Fatal) in try readTokens(path) } ?? []
    let layout: OutputLayout
    do {
      layout = try StateOption.layout(
        arguments, outputDirectory: options.outputDirectory, console: console, isQuiet: false,
        isJSON: options.logFormat == .json, command: name)
    } catch {
      throw Diagnostics.Fatal(error.description, code: error.code)
    }
    let service: CardService
    do {
      service = try CardService(
        configuration: CardService.Configuration(
          crawl: options.crawl, layout: layout, cardsDirectory: options.cardsDirectory,
          maxLiveFetches: options.maxLive, allowsPrivateNetwork: options.fetcher.allowsPrivateNetwork),
        fetcher: options.fetcher, environment: console.environment)
    } catch {
      let hint = if case .setup(.render) = error { RenderOptions.missingBrowserHint } else { String?.none }
      throw Diagnostics.Fatal(error.description, hint: hint, code: error.code)
    }
    let router = ServeRouter(
      service: service, outputDirectory: layout.directory, cardsDirectory: options.cardsDirectory,
      tokens: tokens, perMinute: options.perMinute)
    return (service, router)
  }

  /// The bearer tokens of `path`: one a line, blank lines and `#` comments left out.
  private static func readTokens(_ path: String) throws(Diagnostics.Fatal) -> Set<String> {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw Diagnostics.Fatal("Cannot read the token file '\(path)'.", code: "storageFailed")
    }
    let tokens = Set(
      text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
        !$0.isEmpty && !$0.hasPrefix("#")
      })
    guard !tokens.isEmpty else {
      throw Diagnostics.Fatal("The token file '\(path)' holds no token.", code: "storageFailed")
    }
    return tokens
  }

  /// The HTTP server over `router`, listening; the service is stopped when it cannot listen.
  private static func listen(
    _ options: Options, router: ServeRouter, service: CardService, diagnostics: Diagnostics
  ) async throws(Diagnostics.Fatal) -> HTTPServer {
    let access = AccessLog(diagnostics: diagnostics, metrics: router.metrics)
    do {
      return try HTTPServer(
        address: options.address, limits: options.limits, handler: { router.handle($0) },
        onComplete: { access.record($0, $1, $2) })
    } catch {
      // The service holds the output directory's lock and state; let go of them before exiting.
      _ = try? await service.stop(grace: .zero)
      throw Diagnostics.Fatal(error.description, code: "listen")
    }
  }

  /// Serves until SIGTERM or SIGINT, rewriting `--out`'s manifest every 5 s; then stops taking
  /// connections, answers what is in flight (at most the live deadline; a second signal: at once),
  /// and stops the service.
  private static func serveUntilStopped(
    _ server: HTTPServer, router: ServeRouter, service: CardService, diagnostics: Diagnostics
  ) async throws(CardServiceError) {
    let (stops, stopper) = AsyncStream.makeStream(of: Bool.self)
    let signals = StopSignals(
      onFirst: { _ in stopper.yield(false) },
      onSecond: { stopper.yield(true) })
    defer { signals.cancel() }
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
    defer { manifests.cancel() }
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
    try await service.stop(grace: isImmediate ? .zero : .seconds(1))
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
