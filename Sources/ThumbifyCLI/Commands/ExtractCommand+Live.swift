import Foundation
import Thumbify

extension ExtractCommand {
  /// `thumbify extract <url>`: `LinkMetadataProvider` over `CurlFetcher`; prints the page
  /// fetch's HTTP facts and the page's metadata under a crawl record's keys.
  static func runLive(url: String, _ arguments: ParsedArguments, console: Console) async throws(UsageError)
    -> Int32
  {
    if arguments.value("url") != nil {
      throw UsageError("Unexpected argument '--url <page-url>' (it goes with --html)")
    }
    let iconSize = try iconSize(arguments)
    let configuration = try FetcherOptions.configuration(arguments)
    let preview: LinkMetadataProvider.Preview
    do {
      let provider = LinkMetadataProvider(
        fetcher: try CurlFetcher(configuration: configuration),
        extractor: MetadataExtractor(iconTargetSize: iconSize))
      preview = try await provider.metadata(for: url)
    } catch {
      console.printError("Error: \(error)")
      return ExitCode.someFailed
    }
    return printJSON(preview, arguments, console: console)
  }
}
