import Foundation
import Thumbify

/// The fetcher options `crawl` and `extract` share, parsed and checked once.
enum FetcherOptions {
  /// The fetcher settings from `--timeout`, `--cacert`, `--allow-private-network`,
  /// `--ignore-robots` and `--contact`.
  static func configuration(_ arguments: ParsedArguments) throws(UsageError) -> FetcherConfiguration {
    var configuration = FetcherConfiguration()
    let seconds = try DurationParser.value("timeout", in: arguments, allowsZero: false, maximum: 3600) ?? 30
    configuration.timeout = .milliseconds(Int(seconds * 1000))
    configuration.connectTimeout = min(configuration.connectTimeout, configuration.timeout)
    if let caFile = arguments.value("cacert") {
      guard FileManager.default.isReadableFile(atPath: caFile) else {
        throw UsageError(
          "The value '\(caFile)' is invalid for '--cacert <file>': it is not a readable file",
          hint: "Give a PEM file of CA certificates (--cacert does not read standard input).")
      }
      configuration.caFile = caFile
    }
    if let contact = arguments.value("contact") {
      guard FetcherConfiguration.isValidContactURL(contact) else {
        throw UsageError("The value '\(contact)' is invalid for '--contact <url>'")
      }
      configuration.contactURL = contact
    }
    configuration.allowsPrivateNetwork = arguments.flag("allow-private-network")
    configuration.ignoresRobots = arguments.flag("ignore-robots")
    return configuration
  }
}
