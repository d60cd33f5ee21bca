import Foundation
import Thumbify

extension ExtractCommand {
  /// `thumbify extract <url>`: `LinkMetadataProvider` over `CurlFetcher`; prints the page
  /// fetch's HTTP facts and the page's metadata under a crawl record's keys.
  static func runLive(url: String, _ arguments: ParsedArguments, console: Console) async throws(UsageError)
    -> Int32
  {
    if arguments.has(pageURL) {
      throw UsageError("Unexpected argument '--url <page-url>' (it goes with --html)")
    }
    let iconSize = try arguments.required(iconSize)
    let configuration = try FetcherOptions.configuration(arguments)
    let diagnostics = Diagnostics(console: console, format: try LogFormat.parse(arguments), command: name)
    let render = try RenderOptions.parse(arguments)
    let oembed = try arguments.required(OEmbedOptions.mode)
    let url = url == "-" ? try urlFromStandardInput(console) : url
    let preview: LinkMetadataProvider.Preview
    do {
      let fetcher = try CurlFetcher(configuration: configuration)
      let renderer: ChromiumRenderer?
      do {
        renderer = try CrawlStages.renderer(
          mode: render.mode, budget: render.budget, fetcher: fetcher, environment: console.environment)
      } catch {
        diagnostics.error(error.description, hint: RenderOptions.missingBrowserHint, code: error.code)
        return ExitCode.fatal
      }
      defer { renderer?.shutdown() }
      let provider = LinkMetadataProvider(
        fetcher: fetcher, extractor: MetadataExtractor(iconTargetSize: iconSize),
        timeout: configuration.timeout,
        render: renderer.map { RenderStep(mode: render.mode, renderer: .success($0)) } ?? .never,
        oembed: oembed)
      preview = try await provider.preview(for: url)
    } catch {
      // A refusal the command line can lift names its flag (`--allow-private-network`).
      diagnostics.error(
        error.description, hint: Diagnostics.hint(forCode: error.code), code: error.code, fields: ["url": url]
      )
      return ExitCode.someFailed
    }
    return printJSON(preview, arguments, console: console)
  }

  /// `extract -`: the one URL on standard input (surrounding blank space and lines ignored).
  static func urlFromStandardInput(_ console: Console) throws(UsageError) -> String {
    let lines = String(decoding: console.readStandardInput(), as: UTF8.self).split(
      whereSeparator: \.isNewline
    )
    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    guard lines.count == 1, let url = lines.first else {
      throw UsageError(
        "Standard input holds \(lines.count) URLs; 'extract -' reads exactly one",
        hint: "For many URLs use 'thumbify crawl -'.")
    }
    return url
  }
}
