import Foundation
import Thumbify

/// The fetcher options `crawl` and `extract` share, parsed and checked once.
enum FetcherOptions {
  // The declarations every command taking these options shares: one text, one meaning.
  static let timeoutSpec = OptionSpec.option(
    "timeout", value: "duration",
    help:
      "The deadline of one URL (e.g. 30s, 2m; at most 1h): its page (redirects, retries and their waits "
      + "included) and the image and icon candidates after it share it. Network time only: queue waits "
      + "and decoding do not count. There is no separate per-attempt timeout.",
    default: "30s")
  static let allowPrivateNetworkSpec = OptionSpec.flag(
    "allow-private-network", help: "Allow loopback and private addresses (tests, local demos).")
  static let ignoreRobotsSpec = OptionSpec.flag("ignore-robots", help: "Do not fetch or honour robots.txt.")
  static let cacertSpec = OptionSpec.option(
    "cacert", value: "file", help: "A PEM file of CA certificates to trust instead of the system's.")
  static let contactSpec = OptionSpec.option(
    "contact", value: "url", help: "A URL identifying the operator, sent in the User-Agent.")

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
