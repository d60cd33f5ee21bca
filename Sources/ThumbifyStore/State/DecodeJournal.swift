import CDecodeJournal
import Foundation
import Synchronization
import ThumbifySystem

/// Crash-loop protection (docs/errors.md, "A decoder that crashes"): a crawl that dies while decoding
/// one image must not die on it again the next night.
///
/// Before CPU work starts on a source, `decoding(sha:url:_:)` appends `begin <sha> <url>` to
/// `<out>/.thumbify/decodes.journal` (one `write`, no fsync: a process death loses nothing the kernel
/// has; a machine crash is not a decoder's doing), and `end <sha>` after it. A fatal signal on the
/// decoding thread (a Swift trap, a C library's bad access, an abort) appends `crash <sha>` first
/// (`CDecodeJournal`). The next crawl's `open` reads what the dead run left:
///
/// - a `crash` line names the source that killed it: poisoned at once;
/// - a `begin` without its `end` was in flight when the process died of something else (`kill -9`, the
///   OOM killer, a reboot): one death is forgiven (a kill in the middle of a good decode is common),
///   a second death with the same source in flight poisons it.
///
/// A poisoned source is not decoded: its image gets `crashedDecoder`. The record of deaths is kept in
/// the state database per thumbify version, so an upgrade (which may fix the decoder) tries again, and
/// a changed image is a new source. A source that decodes once again loses its forgiven death.
package final class DecodeJournal: Sendable {
  /// A source a dead run left in the journal.
  package struct Death: Sendable, Equatable {
    package var sourceSHA256: String
    package var url: String
    /// True when the journal holds its `crash` line (a fatal signal while it was decoded).
    package var crashed: Bool
  }

  /// What a journal file holds: its attempt token and the sources that began and did not end.
  struct Contents: Equatable {
    var attempt: String?
    var deaths: [Death] = []
  }

  private let descriptor: Int32
  private let path: String
  /// Sources not to decode (SHA-256).
  package let poisoned: Set<String>
  /// Sources with a forgiven death on record, cleared when they decode again.
  private let suspects: Mutex<Set<String>>
  private let state: StateStore
  /// The image URLs of poisoned sources met (and skipped) by this run.
  private let skips = Mutex<Set<String>>([])

  /// Reads what the previous run left at `path`, records its deaths in `state`, then starts the file
  /// afresh for this run. Call it under the run lock.
  package init(path: String, state: StateStore, version: String = ThumbifyVersion.current)
    throws(StoreError)
  {
    let left = try Self.read(path)
    if let attempt = left.attempt, !left.deaths.isEmpty {
      try state.recordDecodeDeaths(left.deaths, attempt: attempt, version: version)
    }
    let known = try state.decodeDeaths(version: version)
    poisoned = known.poisoned
    suspects = Mutex(known.suspects)
    self.state = state
    self.path = path
    // Only now that the deaths are committed may the file that told of them go.
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw SystemCall.error("open the decode journal", path)
    }
    self.descriptor = descriptor
    // A token for this attempt: recording the same journal twice (a run that dies before truncating
    // it) counts its deaths once.
    try append("attempt \(UInt64.random(in: 1...UInt64.max))\n")
  }

  deinit { close(descriptor) }

  /// The image URLs whose poisoned sources this run skipped.
  package var skipped: [String] { skips.withLock { $0.sorted() } }

  /// Whether `sha`, fetched from `url`, must not be decoded; remembers the URL as skipped when so.
  package func isPoisoned(_ sha: String, url: String) -> Bool {
    guard poisoned.contains(sha) else { return false }
    skips.withLock { _ = $0.insert(url) }
    return true
  }

  /// Runs `body`, the CPU work on the source `sha` fetched from `url`, between its journal lines.
  ///
  /// A journal that cannot be written does not stop the decode (the protection is lost, not the image).
  package func decoding<T, E: Error>(sha: String, url: String, _ body: () throws(E) -> T) throws(E) -> T {
    let begin = "begin \(sha) \(Self.oneLine(url))\n"
    let crash = "crash \(sha)\n"
    begin.withCString { beginLine in
      crash.withCString { crashLine in
        _ = thumbify_journal_begin(descriptor, beginLine, strlen(beginLine), crashLine, strlen(crashLine))
      }
    }
    defer {
      let end = "end \(sha)\n"
      _ = end.withCString { thumbify_journal_end(descriptor, $0, strlen($0)) }
      if suspects.withLock({ $0.remove(sha) != nil }) { try? state.forgetDecodeDeaths(sha) }
    }
    return try body()
  }

  private func append(_ line: String) throws(StoreError) {
    let status = line.withCString { thumbify_journal_end(descriptor, $0, strlen($0)) }
    guard status == 0 else {
      throw SystemCall.error("write the decode journal", path)
    }
  }

  /// A URL as one journal field: no line breaks (normalized URLs have none; this is a backstop).
  private static func oneLine(_ url: String) -> String {
    String(url.prefix(2048)).replacingOccurrences(of: "\n", with: "%0A").replacingOccurrences(
      of: "\r", with: "%0D")
  }

  /// The journal at `path`, or empty contents when there is none.
  static func read(_ path: String) throws(StoreError) -> Contents {
    guard let file = fopen(path, "r") else {
      if Errno.current == .noSuchFileOrDirectory { return Contents() }
      throw SystemCall.error("read the decode journal", path)
    }
    defer { fclose(file) }
    var parser = Parser()
    var buffer: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(buffer) }
    while getline(&buffer, &capacity, file) > 0, let buffer {
      parser.consume(String(cString: buffer))
    }
    return parser.contents
  }

  /// Parses journal lines; a line it does not know (a torn last line, say) is ignored.
  struct Parser {
    private var attempt: String?
    private var open: [String: (url: String, count: Int)] = [:]
    private var order: [String] = []
    private var crashed: Set<String> = []

    mutating func consume(_ line: String) {
      guard line.hasSuffix("\n") else { return }
      let fields = line.dropLast().split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count >= 2 else { return }
      let sha = String(fields[1])
      switch fields[0] {
      case "attempt": attempt = sha
      case "begin" where fields.count == 3 && Self.isDigest(sha):
        if open[sha] == nil { order.append(sha) }
        open[sha, default: (String(fields[2]), 0)].count += 1
      case "end" where fields.count == 2:
        if let entry = open[sha] { open[sha] = entry.count > 1 ? (entry.url, entry.count - 1) : nil }
      case "crash" where fields.count == 2 && Self.isDigest(sha):
        crashed.insert(sha)
      default: break
      }
    }

    var contents: Contents {
      let deaths = order.compactMap { sha in
        open[sha].map { Death(sourceSHA256: sha, url: $0.url, crashed: crashed.contains(sha)) }
      }
      return Contents(attempt: attempt, deaths: deaths)
    }

    private static func isDigest(_ text: String) -> Bool {
      text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
  }
}
