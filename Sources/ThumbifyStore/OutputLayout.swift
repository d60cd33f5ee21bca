import Foundation
import ThumbifySystem

/// Every path of a crawl, named once (docs/crawl.md, "Output directory" and "State directory").
///
/// The output directory is what a web server serves; the state directory is kept apart from it
/// (issue 21: `GET /out/.thumbify/state.sqlite` answered 200), so nothing of the state is ever under
/// the output directory.
///
/// ```
/// <out>/manifest.jsonl              one record per input URL, in list order
/// <out>/cards/<key>.json            one card per URL (`CardKey`)
/// <out>/blobs/ab/cd/<sha256>.ext    content-addressed thumbnails
/// <state>/state.sqlite              the crawl state (validators, records, robots, runs)
/// <state>/lock                      the run lock
/// <state>/stdin-urls.txt            a list read from standard input, spooled for the manifest pass
/// <state>/decodes.journal           the sources being decoded (`DecodeJournal`, crash-loop protection)
/// ```
///
/// `thumbify` defaults `<state>` to `$XDG_STATE_HOME/thumbify/<name>-<hash>` (docs/crawl.md); before
/// issue 21 it was `<out>/.thumbify`, moved away by `StateMigration`.
public struct OutputLayout: Sendable, Hashable {
  /// The output directory, as given.
  public var directory: String
  /// The state directory, as given or resolved.
  public var stateDirectory: String

  /// A trailing `/` is dropped from both (`out/` and `out` name the same paths).
  public init(_ directory: String, stateDirectory: String) {
    self.directory = Self.trimmingSlashes(directory)
    self.stateDirectory = Self.trimmingSlashes(stateDirectory)
  }

  package static let manifestName = "manifest.jsonl"
  package static let blobsName = "blobs"
  package static let cardsName = "cards"
  /// The state directory's name inside the output directory before issue 21.
  package static let legacyStateDirectoryName = ".thumbify"

  /// `manifest.jsonl`: one record per listed URL, in list order.
  public var manifest: String { Self.path(Self.manifestName, in: directory) }
  /// `blobs/`: the content-addressed thumbnails, `blobs/ab/cd/<sha256>.<ext>`.
  public var blobs: String { Self.path(Self.blobsName, in: directory) }
  /// `cards/`: one link card per URL, `cards/<key>.json` (`CardKey`).
  public var cards: String { Self.path(Self.cardsName, in: directory) }
  /// The last crawl's run report (`thumbify crawl`), written whole at its end.
  public var lastRun: String { Self.path("last-run.json", in: stateDirectory) }

  package var stateDatabase: String { Self.path("state.sqlite", in: stateDirectory) }
  /// The state directory's run lock's name (a migration leaves it behind).
  package static let lockName = "lock"
  package var lock: String { Self.path(Self.lockName, in: stateDirectory) }
  /// The last merge's report (`thumbify merge`), in the merged directory's state.
  package var lastMerge: String { Self.path("last-merge.json", in: stateDirectory) }

  package var standardInputSpool: String { Self.path("stdin-urls.txt", in: stateDirectory) }
  package var decodeJournal: String { Self.path("decodes.journal", in: stateDirectory) }
  /// Written into a state directory that was copied from ``legacyStateDirectory`` (`StateMigration`):
  /// the old directory's path, so a run killed before it removed the old copy finishes the removal.
  package var migrationRecord: String { Self.path("moved-from", in: stateDirectory) }

  /// `<out>/.thumbify`, where the state was before issue 21.
  package var legacyStateDirectory: String { Self.path(Self.legacyStateDirectoryName, in: directory) }
  /// The old lock inside ``legacyStateDirectory``: a still-running older thumbify holds it.
  package var legacyLock: String { Self.path(Self.lockName, in: legacyStateDirectory) }

  /// `name` inside `directory`, as `FilePath.appending` joins it, but for the empty directory, whose
  /// files have always been named from the root (`/<name>`): a file of the output directory is named
  /// here, not joined by hand.
  package static func path(_ name: String, in directory: String) -> String {
    directory.isEmpty ? "/" + name : FilePath(directory).appending(name).string
  }

  /// The served-tree paths of `directory` (for readers of the manifest or cards that need no state).
  package static func manifest(in directory: String) -> String {
    path(manifestName, in: trimmingSlashes(directory))
  }
  package static func cards(in directory: String) -> String {
    path(cardsName, in: trimmingSlashes(directory))
  }
  /// The card file of `key` in the output directory `directory`: `<directory>/cards/<key>.json`.
  package static func card(_ key: CardKey, in directory: String) -> String {
    path(key.fileName, in: cards(in: directory))
  }
  /// The report `thumbify report` writes into the output directory `directory` by default.
  package static func report(in directory: String) -> String {
    path("index.html", in: trimmingSlashes(directory))
  }

  /// A blob's path relative to the output directory, `blobs/ab/cd/<sha256>.<ext>`: fanned out by the
  /// digest's first two bytes so that no directory holds more than a small share of the blobs.
  package static func blobPath(sha256: String, fileExtension: String) -> String {
    blobPath(fileName: sha256 + "." + fileExtension)
  }

  /// The same for a blob's file name, `<sha256>.<ext>` (its first four characters name the folders).
  package static func blobPath(fileName: String) -> String {
    let characters = Array(fileName.utf8.prefix(4))
    let first = String(decoding: characters.prefix(2), as: UTF8.self)
    let second = String(decoding: characters.dropFirst(2), as: UTF8.self)
    return FilePath(blobsName).appending(first, second, fileName).string
  }

  private static func trimmingSlashes(_ path: String) -> String {
    var path = path
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    return path
  }
}

extension OutputLayout {
  /// The layout of `directory` with its state in `stateDirectory`, or in the default state directory
  /// when that is nil (`--state` omitted).
  package static func resolving(
    _ directory: String, stateDirectory: String?, environment: [String: String]
  ) throws(StoreError) -> OutputLayout {
    if let stateDirectory { return OutputLayout(directory, stateDirectory: stateDirectory) }
    return OutputLayout(
      directory, stateDirectory: try defaultStateDirectory(for: directory, environment: environment))
  }

  /// `${XDG_STATE_HOME:-$HOME/.local/state}/thumbify/<basename>-<16 hex>`, where the hex digits begin
  /// the SHA-256 of the output directory's absolute, symlink-resolved path: one state per output
  /// directory however it is spelled, and a name an operator can recognise.
  ///
  /// Not a sibling `<out>.state`: the usual deployment serves the parent of `<out>`, which would serve
  /// a sibling too.
  ///
  /// - Throws: `StoreError.io` when neither `XDG_STATE_HOME` nor `HOME` is set (or they are relative,
  ///   which the XDG specification says to ignore).
  package static func defaultStateDirectory(for directory: String, environment: [String: String])
    throws(StoreError) -> String
  {
    let base: String
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      base = state
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      base = path(".local/state", in: home)
    } else {
      throw .io(
        path: directory, operation: "find a state directory for",
        message: "neither XDG_STATE_HOME nor HOME is set; give one with --state <dir>")
    }
    let resolved = resolvedPath(directory)
    var name = String(resolved.split(separator: "/").last ?? "root")
    // A component is at most 255 bytes; the digest's 17 need room.
    while name.utf8.count > 64 { name.removeLast() }
    let digest = SHA256Digest.hex(of: Array(resolved.utf8)).prefix(16)
    return path("thumbify/\(name)-\(digest)", in: trimmingSlashes(base))
  }

  /// `path` made absolute with every symlink resolved. Components that do not exist yet (a crawl's
  /// first run creates `<out>`) are appended to the resolved part that does, `.` and `..` applied.
  static func resolvedPath(_ path: String) -> String {
    let absolute: String
    if path.hasPrefix("/") {
      absolute = path
    } else {
      absolute = Self.path(path, in: FileManager.default.currentDirectoryPath)
    }
    var existing = absolute.split(separator: "/").map(String.init)
    var missing: [String] = []
    while true {
      let candidate = "/" + existing.joined(separator: "/")
      if let resolved = realpath(candidate, nil) {
        defer { free(resolved) }
        var components = String(cString: resolved).split(separator: "/").map(String.init)
        for component in missing.reversed() {
          switch component {
          case ".": continue
          case "..": if !components.isEmpty { components.removeLast() }
          default: components.append(component)
          }
        }
        return "/" + components.joined(separator: "/")
      }
      guard let last = existing.popLast() else { return absolute }
      missing.append(last)
    }
  }
}
