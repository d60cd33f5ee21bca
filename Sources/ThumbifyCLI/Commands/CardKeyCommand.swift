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
      key per line, in input order. Exits 1 when a URL is not an http or https URL \
      (the others are still printed).
      """,
    arguments: [
      ArgumentSpec("urls", help: "The URLs, in any spelling the crawl accepts.", isRepeating: true)
    ],
    options: [.flag("show-url", help: "Print each key followed by a tab and the normalized URL.")]
  )

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    var status = ExitCode.success
    for url in arguments.positionals {
      do {
        let normalized = try URLNormalization.normalize(url)
        let key = CardKey(normalizedURL: normalized)
        console.print(arguments.flag("show-url") ? "\(key.hex)\t\(normalized)" : key.hex)
      } catch {
        console.printError("thumbify card-key: \(error.description)")
        status = ExitCode.someFailed
      }
    }
    return status
  }
}
