import Foundation
import Thumbify

/// `thumbify card-key <url>...`: the card file name of each URL.
enum CardKeyCommand: Subcommand {
  static let name = "card-key"

  static let spec = CommandSpec(
    commandName: "thumbify card-key",
    abstract: "Print the card key of URLs: where their card is in <dir>/cards.",
    discussion: """
      The key is the lower-case hex SHA-256 of the URL's UTF-8 after the crawl's \
      normalization (docs/cards.md); the card is <dir>/cards/<key>.json. Prints one \
      key per line, in input order. '-' reads URLs from standard input, one per line \
      (blank lines and lines starting with '#' are skipped, as in a crawl's list). Exits \
      1 when a URL is not an http or https URL (the others are still printed).
      """,
    arguments: [
      ArgumentSpec(
        "urls", help: "The URLs, in any spelling the crawl accepts ('-' reads them from standard input).",
        isRepeating: true)
    ],
    options: [showURL.spec]
  )

  static let showURL = Flag("show-url", help: "Print each key followed by a tab and the normalized URL.")

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    let diagnostics = Diagnostics(console: console, format: try LogFormat.parse(arguments), command: name)
    var status = ExitCode.success
    for url in urls(arguments.positionals, console: console) {
      do {
        let normalized = try URLNormalization.normalize(url)
        let key = CardKey(normalizedURL: normalized)
        console.print(arguments.isSet(showURL) ? "\(key.hex)\t\(normalized)" : key.hex)
      } catch {
        diagnostics.error(error.description, code: error.code, fields: ["url": url])
        status = ExitCode.someFailed
      }
    }
    return status
  }

  /// The arguments with each `-` replaced by the URLs of standard input (read once).
  static func urls(_ positionals: [String], console: Console) -> [String] {
    guard positionals.contains("-") else { return positionals }
    let lines = String(decoding: console.readStandardInput(), as: UTF8.self).split(
      whereSeparator: \.isNewline
    ).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    return positionals.flatMap { $0 == "-" ? lines : [$0] }
  }
}
