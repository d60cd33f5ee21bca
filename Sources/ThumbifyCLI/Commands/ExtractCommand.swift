import Foundation
import Thumbify

/// `thumbify extract <url>` (live) and `thumbify extract --html <file> --url <page-url>`
/// (offline): one page's metadata as JSON.
enum ExtractCommand: Subcommand {
  static let name = "extract"

  static let spec = CommandSpec(
    commandName: "thumbify extract",
    abstract: "Print one page's link-preview metadata as JSON.",
    discussion: """
      Prints one JSON object with sorted keys, the first fields of a manifest record: \
      {"schema", "url", "originalURL", "fetch", "metadata"}. originalURL is the URL \
      asked for, url where the link leads (the page's canonical URL when it is on the \
      page's host, else the URL after redirects); metadata.canonicalURL is the canonical \
      URL the page declares on any host, for de-duplication. With <url>, fetches the \
      page (robots.txt, redirects, limits and the private-network guard of \
      docs/fetching.md apply); fetch holds the final URL, \
      redirect chain, status and validators. With --html, reads a saved page ('-' \
      reads standard input) and no network, and prints no fetch; --url is the address \
      the page was fetched from, which relative URLs resolve against. Fields that are \
      unknown are omitted. With --render, the page is rendered in headless Chromium \
      first when it needs it (auto) or always, and render says which fields came \
      from the rendered DOM (renderError why it could not be rendered; the served \
      HTML's metadata is printed then). The live form fetches the oEmbed endpoint the \
      page declares (--oembed discovered, within --timeout) and fills what the page \
      lacks; --html only names it (metadata.oembed). See docs/metadata.md for every field and its precedence, \
      docs/extract.schema.json for the shape.
      """,
    arguments: [
      ArgumentSpec(
        "url", help: "The page to fetch (the live form; '-' reads the URL from standard input).",
        isOptional: true)
    ],
    options: [
      html.spec, pageURL.spec, contentType.spec, iconSize.spec, compact.spec,
      FetcherOptions.timeout.withHelp(
        "Live form: the deadline of the page fetch (e.g. 30s, 2m; at most 1h), its redirects, retries and "
          + "their waits included (network time; no separate per-attempt timeout)."
      ).spec,
      FetcherOptions.cacert.withHelp("Live form: trust the CAs in this PEM file.").spec,
      FetcherOptions.allowPrivateNetwork.withHelp(
        "Live form: allow private, loopback and reserved addresses."
      )
      .spec,
      FetcherOptions.ignoreRobots.withHelp("Live form: do not read robots.txt.").spec,
      FetcherOptions.contact.withHelp("Live form: a URL for site owners, sent in the User-Agent.").spec,
    ] + RenderOptions.specs + OEmbedOptions.specs
  )

  static let html = Option.text("html", value: "file", help: "A saved page to read instead of fetching.")
  static let pageURL = Option(
    .option("url", value: "page-url", help: "The URL the saved page was fetched from.")
  ) {
    text throws(InvalidValue) in
    guard WebURL(text) != nil else { throw InvalidValue(reason: "it must be an absolute http(s) URL") }
    return text
  }
  static let contentType = Option.text(
    "content-type", value: "value", help: "The page's HTTP Content-Type header (its charset wins).")
  static let iconSize = Option.integer(
    "icon-size", value: "px", help: "The icon size icons are ranked for.", default: 64, range: 1...4096)
  static let compact = Flag("compact", help: "Print the JSON on one line instead of indented.")

  /// The largest `--html` file read.
  static let maximumFileBytes = 64 << 20

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    guard let htmlPath = try arguments.value(html) else {
      if let url = arguments.positionals.first {
        return try await runLive(url: url, arguments, console: console)
      }
      throw UsageError("Missing expected argument '--html <file>'")
    }
    if let positional = arguments.positionals.first {
      throw UsageError("Unexpected argument '\(positional)' (use --url with --html)")
    }
    _ = try arguments.required(OEmbedOptions.mode)
    if try RenderOptions.parse(arguments).mode != .never {
      throw UsageError(
        "'--render' needs the live form (extract <url>): a saved page's scripts have no server to fetch from")
    }
    let pageURL = try arguments.required(pageURL)
    let iconSize = try arguments.required(iconSize)
    let diagnostics = Diagnostics(console: console, format: try LogFormat.parse(arguments), command: name)
    let html: [UInt8]
    if htmlPath == "-" {
      html = console.readStandardInput()
    } else {
      do {
        // A local file may be a saved page larger than a fetch's page cap; an endless one (/dev/zero)
        // stops at the limit.
        html = try FileSystem.readFile(htmlPath, limit: Self.maximumFileBytes)
      } catch {
        guard case .io(_, _, let message) = error else { return ExitCode.someFailed }
        diagnostics.error("Cannot read '\(htmlPath)': \(message).", code: error.code)
        return ExitCode.someFailed
      }
    }
    let metadata = MetadataExtractor(iconTargetSize: iconSize).extract(
      html: html, pageURL: pageURL, contentType: try arguments.value(contentType))
    // The live form's envelope without `fetch`: one shape for both forms.
    let preview = LinkMetadataProvider.Preview(
      originalURL: pageURL, pageURL: WebURL(pageURL)?.description ?? pageURL, fetch: nil, metadata: metadata)
    return printJSON(preview, arguments, console: console)
  }

  /// Prints `value` as JSON with sorted keys (indented unless `--compact`).
  static func printJSON(_ value: some Encodable, _ arguments: ParsedArguments, console: Console) -> Int32 {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      arguments.isSet(compact)
      ? [.sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    do {
      let data = try encoder.encode(value)
      console.print(String(decoding: data, as: UTF8.self))
      return ExitCode.success
    } catch {
      Diagnostics(console: console, format: (try? LogFormat.parse(arguments)) ?? .text, command: name)
        .error("Cannot encode the metadata as JSON: \(error).")
      return ExitCode.fatal
    }
  }
}
