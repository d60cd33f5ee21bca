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
    let configuration = try fetcherConfiguration(arguments)
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

  /// The fetcher settings from `--timeout`, `--cacert`, `--allow-private-network`,
  /// `--ignore-robots` and `--contact`.
  static func fetcherConfiguration(_ arguments: ParsedArguments) throws(UsageError) -> FetcherConfiguration {
    var configuration = FetcherConfiguration()
    let timeoutText = arguments.value("timeout") ?? "30"
    guard let seconds = Double(timeoutText), seconds > 0, seconds <= 3600 else {
      throw UsageError("The value '\(timeoutText)' is invalid for '--timeout <seconds>'")
    }
    configuration.timeout = .milliseconds(Int(seconds * 1000))
    configuration.connectTimeout = min(configuration.connectTimeout, configuration.timeout)
    if let caFile = arguments.value("cacert") {
      guard FileManager.default.isReadableFile(atPath: caFile) else {
        throw UsageError("The value '\(caFile)' is invalid for '--cacert <file>': it is not a readable file")
      }
      configuration.caFile = caFile
    }
    if let contact = arguments.value("contact") {
      guard contact.hasPrefix("http://") || contact.hasPrefix("https://") || contact.hasPrefix("mailto:"),
        !contact.contains(where: { $0.isWhitespace || $0 == "(" || $0 == ")" })
      else {
        throw UsageError("The value '\(contact)' is invalid for '--contact <url>'")
      }
      configuration.contactURL = contact
    }
    configuration.allowsPrivateNetwork = arguments.flag("allow-private-network")
    configuration.ignoresRobots = arguments.flag("ignore-robots")
    return configuration
  }
}
