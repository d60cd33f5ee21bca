/// Every path in an output directory, named once (docs/crawl.md, "Output directory").
///
/// ```
/// <out>/manifest.jsonl            one record per input URL, in list order
/// <out>/cards/<key>.json          one card per URL (`CardKey`)
/// <out>/blobs/ab/cd/<sha256>.ext  content-addressed thumbnails
/// <out>/.thumbify/state.sqlite    the crawl state (validators, records, robots, runs)
/// <out>/.thumbify/lock            the run lock
/// <out>/.thumbify/stdin-urls.txt  a list read from standard input, spooled for the manifest pass
/// <out>/.thumbify/decodes.journal the sources being decoded (`DecodeJournal`, crash-loop protection)
/// ```
public struct OutputLayout: Sendable, Hashable {
  /// The output directory, as given.
  public var directory: String

  /// A trailing `/` is dropped (`out/` and `out` name the same paths).
  public init(_ directory: String) {
    var directory = directory
    while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
    self.directory = directory
  }

  public static let manifestName = "manifest.jsonl"
  public static let blobsName = "blobs"
  public static let cardsName = "cards"
  public static let stateDirectoryName = ".thumbify"

  public var manifest: String { inside(Self.manifestName) }
  public var blobs: String { inside(Self.blobsName) }
  public var cards: String { inside(Self.cardsName) }
  public var stateDirectory: String { inside(Self.stateDirectoryName) }
  public var stateDatabase: String { stateDirectory + "/state.sqlite" }
  public var lock: String { stateDirectory + "/lock" }
  public var standardInputSpool: String { stateDirectory + "/stdin-urls.txt" }
  public var decodeJournal: String { stateDirectory + "/decodes.journal" }
  /// The last crawl's run report (`thumbify crawl`), written whole at its end.
  public var lastRun: String { stateDirectory + "/last-run.json" }

  private func inside(_ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
