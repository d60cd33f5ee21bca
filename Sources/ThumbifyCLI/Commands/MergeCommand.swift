import Foundation
import Thumbify

/// `thumbify merge <shard-dir>... --out <dir>`: one output directory from a sharded crawl's.
enum MergeCommand: Subcommand {
  static let name = "merge"

  static let spec = CommandSpec(
    commandName: "thumbify merge",
    abstract: "Merge the output directories of a sharded crawl into one.",
    discussion: """
      Joins the --out directories of 'thumbify crawl --shard K/N', given in shard order \
      (0 to N-1): blobs (hard links on one file system, else copies, each checked \
      against its SHA-256 name), cards, manifest.jsonl and the crawl state, so that the \
      next crawl, unsharded or sharded with --baseline, starts from the merged one. With \
      --list (the list the shards crawled) the manifest is in the list's order, as an \
      unsharded crawl's, then each shard's kept records; without it, the shards' \
      manifests follow one another. Running it again writes nothing new; a killed merge \
      is finished by running it again. The report goes to last-merge.json in the merged \
      state directory. See docs/crawl.md, "Merging shards".

      Exit status:

        0    success
        1    merged, but listed URLs had no record in their shard, or blobs did not
             match their names (left out)
        64   bad usage
        70   the merge could not proceed: a directory locked by a run, a shard
             without manifest or state, output or state not writable
      """,
    arguments: [
      ArgumentSpec("shard-dir", help: "The shards' output directories, shard 0 first.", isRepeating: true)
    ],
    options: [
      .option("out", short: "o", value: "dir", help: "The merged output directory.", isRequired: true),
      StateOption.spec,
      .option(
        "shard-state", value: "dir",
        help:
          "A shard's state directory, once per shard in the order of the shard directories (default: "
          + "each shard's default state directory, as crawl finds it).",
        isRepeating: true),
      .option(
        "list", value: "urls-file",
        help:
          "The URL list the shards crawled ('-' reads standard input): the manifest is then in its order, "
          + "as an unsharded crawl's."),
      .flag("quiet", short: "q", help: "Print nothing but fatal errors."),
    ]
  )

  static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
    let diagnostics = Diagnostics(console: console, format: try LogFormat.parse(arguments), command: name)
    let isQuiet = arguments.flag("quiet")
    let directories = arguments.positionals
    let shardStates = arguments.values("shard-state")
    if !shardStates.isEmpty && shardStates.count != directories.count {
      throw UsageError(
        "Give '--shard-state <dir>' once per shard directory: \(shardStates.count) for \(directories.count)")
    }
    guard let out = arguments.value("out") else {
      throw UsageError("Missing expected argument '--out <dir>'")
    }
    let listPath = arguments.value("list")
    if let listPath, listPath != "-" {
      do {
        _ = try URLListReader(path: listPath)
      } catch {
        guard case .io(_, _, let message) = error else {
          diagnostics.error(error.description, code: error.code)
          return ExitCode.fatal
        }
        diagnostics.error(
          "Cannot read the URL list '\(listPath)': \(message).",
          hint: "Give a readable file, or '-' for standard input.", code: error.code)
        return ExitCode.fatal
      }
    }
    let output: OutputLayout
    var shards: [OutputLayout] = []
    do {
      output = try StateOption.layout(
        arguments, outputDirectory: out, console: console, isQuiet: isQuiet,
        isJSON: diagnostics.format == .json, command: name)
      for (index, directory) in directories.enumerated() {
        shards.append(
          try OutputLayout.resolving(
            directory, stateDirectory: shardStates.isEmpty ? nil : shardStates[index],
            environment: console.environment))
      }
    } catch {
      diagnostics.error(error.description, code: error.code)
      return ExitCode.fatal
    }
    var openList: (() throws(StoreError) -> URLListReader)?
    if let listPath {
      openList = { () throws(StoreError) -> URLListReader in
        if listPath == "-" { return try URLListReader(fileDescriptor: 0) }
        return try URLListReader(path: listPath)
      }
    }
    let started = Date()
    let summary: ShardMerge.Summary
    do {
      summary = try ShardMerge(shards: shards, output: output).run(openList: openList)
    } catch {
      diagnostics.error(error.description, code: error.code)
      return ExitCode.fatal
    }
    for url in summary.missingURLs where !isQuiet {
      diagnostics.problem(
        url, code: "missingRecord",
        message: "listed, but its shard's manifest has no record of it (did the shard stop early?)",
        fields: ["normalizedURL": url])
    }
    for path in summary.blobs.rejectedPaths {
      diagnostics.problem(
        path, code: "blobMismatch", message: "its bytes do not hash to its name; left out",
        fields: ["path": path])
    }
    let status = summary.missing > 0 || summary.blobs.rejected > 0 ? ExitCode.someFailed : ExitCode.success
    let fields = members(summary)
    let reportPath = output.lastMerge
    var report = fields
    report["schema"] = 1
    report["startedAt"] = Timestamp.iso8601(started.timeIntervalSince1970)
    report["finishedAt"] = Timestamp.iso8601(Date().timeIntervalSince1970)
    report["exitStatus"] = Int(status)
    report["shardDirectories"] = directories
    do {
      try FileSystem.writeAtomically(Array((JSONWriter.line(report) + "\n").utf8), to: reportPath)
    } catch {
      diagnostics.error(error.description, code: error.code)
      return ExitCode.fatal
    }
    if !isQuiet {
      diagnostics.summary(text(summary, manifest: output.manifest, report: reportPath), fields: fields)
    }
    return status
  }

  /// The summary's members, in last-merge.json and the JSON log's summary event.
  static func members(_ summary: ShardMerge.Summary) -> [String: Any] {
    let count = { (outcome: CrawlRecord.Outcome) in summary.outcomes[outcome] ?? 0 }
    return [
      "shards": summary.shards, "records": summary.records, "listed": summary.listed, "kept": summary.kept,
      "outcomes": [
        "ok": count(.ok), "notModified": count(.notModified), "stale": count(.stale),
        "failed": count(.failed),
      ],
      "invalidLines": summary.invalidLines, "duplicates": summary.duplicates,
      "missing": ["total": summary.missing, "urls": summary.missingURLs],
      "blobs": [
        "linked": summary.blobs.linked, "copied": summary.blobs.copied, "present": summary.blobs.present,
        "rejected": summary.blobs.rejected, "bytes": summary.blobs.bytes,
      ],
      "cards": [
        "written": summary.cardsWritten, "unchanged": summary.cardsUnchanged, "made": summary.cardsMade,
        "removed": summary.cardsRemoved,
      ],
      "state": [
        "pages": summary.state.pages, "images": summary.state.images,
        "thumbnailSets": summary.state.thumbnailSets,
      ],
      "manifestReplaced": summary.isManifestReplaced, "seconds": (summary.seconds * 1000).rounded() / 1000,
    ]
  }

  static func text(_ summary: ShardMerge.Summary, manifest: String, report: String) -> String {
    func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
    let count = { (outcome: CrawlRecord.Outcome) in summary.outcomes[outcome] ?? 0 }
    var lines = [
      "Merged \(plural(summary.shards, "shard")): \(plural(summary.records, "record")) "
        + "(\(summary.listed) listed: \(count(.ok)) ok, \(count(.notModified)) not modified, "
        + "\(count(.stale)) stale, \(count(.failed)) failed; \(summary.kept) kept).",
      "Blobs: \(summary.blobs.linked) linked, \(summary.blobs.copied) copied, \(summary.blobs.present) "
        + "already present, \(summary.blobs.rejected) rejected (\(CrawlProgress.bytes(summary.blobs.bytes))).",
      "Cards: \(summary.cardsWritten) written (\(summary.cardsMade) made from their records), "
        + "\(summary.cardsUnchanged) unchanged, \(summary.cardsRemoved) removed. State: "
        + "\(plural(summary.state.pages, "page")), \(plural(summary.state.images, "image")), "
        + "\(plural(summary.state.thumbnailSets, "thumbnail set")) taken in.",
    ]
    if summary.invalidLines > 0 || summary.duplicates > 0 {
      lines.append(
        "List: \(plural(summary.invalidLines, "invalid line")), \(plural(summary.duplicates, "duplicate")).")
    }
    if summary.missing > 0 {
      lines.append("\(plural(summary.missing, "listed URL")) had no record in their shard's manifest.")
    }
    lines.append(
      "Manifest: \(manifest) (\(summary.isManifestReplaced ? "replaced" : "unchanged")), in "
        + String(format: "%.2f s", summary.seconds) + ". Report: \(report)")
    return lines.joined(separator: "\n")
  }
}
