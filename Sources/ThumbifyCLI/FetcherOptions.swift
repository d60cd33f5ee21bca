import Foundation
import Thumbify

/// The fetcher options `crawl`, `serve` and `extract` share, declared and checked once.
enum FetcherOptions {
  static let timeout = Option.duration(
    "timeout",
    help:
      "The deadline of one URL (e.g. 30s, 2m; at most 1h): its page (redirects, retries and their waits "
      + "included) and the image and icon candidates after it share it. Network time only: queue waits "
      + "and decoding do not count. There is no separate per-attempt timeout.",
    default: "30s", allowsZero: false, maximum: 3600)
  static let allowPrivateNetwork = Flag(
    "allow-private-network", help: "Allow loopback and private addresses (tests, local demos).")
  static let ignoreRobots = Flag("ignore-robots", help: "Do not fetch or honour robots.txt.")
  static let cacert = Option(
    .option("cacert", value: "file", help: "A PEM file of CA certificates to trust instead of the system's.")
  ) { path throws(InvalidValue) in
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw InvalidValue(
        reason: "it is not a readable file",
        hint: "Give a PEM file of CA certificates (--cacert does not read standard input).")
    }
    return path
  }
  static let contact = Option(
    .option("contact", value: "url", help: "A URL identifying the operator, sent in the User-Agent.")
  ) { url throws(InvalidValue) in
    guard FetcherConfiguration.isValidContactURL(url) else {
      throw InvalidValue(hint: "Give an absolute http(s) URL or a mailto: address.")
    }
    return url
  }
  /// `--per-host`, as `crawl` and `serve` declare it.
  static let perHost = Option.integer(
    "per-host", help: "Transfers at once to one host.", default: 2, range: 1...256)

  /// The declarations of `configuration(_:)`'s options, in the order the help lists them.
  static let specs: [OptionSpec] = [
    timeout.spec, allowPrivateNetwork.spec, ignoreRobots.spec, cacert.spec, contact.spec,
  ]

  /// The fetcher settings from `--timeout`, `--cacert`, `--allow-private-network`,
  /// `--ignore-robots` and `--contact`.
  static func configuration(_ arguments: ParsedArguments) throws(UsageError) -> FetcherConfiguration {
    var configuration = FetcherConfiguration()
    let seconds = try arguments.required(timeout)
    configuration.timeout = .milliseconds(Int(seconds * 1000))
    configuration.connectTimeout = min(configuration.connectTimeout, configuration.timeout)
    configuration.caFile = try arguments.value(cacert)
    if let url = try arguments.value(contact) { configuration.contactURL = url }
    configuration.allowsPrivateNetwork = arguments.isSet(allowPrivateNetwork)
    configuration.ignoresRobots = arguments.isSet(ignoreRobots)
    return configuration
  }
}
