import Foundation
import ThumbifySystem

/// What `thumbify merge` leaves for people and monitoring: `<merged state>/last-merge.json`, written
/// atomically, and the exit-status rule of a merge that got to its end (docs/crawl.md, "Merging shards").
package struct MergeReport {
  package var summary: ShardMerge.Summary
  /// The shards' output directories, as given (shard 0 first).
  package var shardDirectories: [String]
  package var started: Date
  package var finished: Date

  package init(summary: ShardMerge.Summary, shardDirectories: [String], started: Date, finished: Date) {
    self.summary = summary
    self.shardDirectories = shardDirectories
    self.started = started
    self.finished = finished
  }

  /// 1 when listed URLs had no record in their shard or blobs did not match their names, else 0.
  package var exitStatus: Int32 {
    summary.missing > 0 || summary.blobs.rejected > 0 ? ExitCode.someFailed : ExitCode.success
  }

  package static let schemaVersion = 1

  /// The summary's members: last-merge.json's, and the JSON log's summary event's.
  package var members: [String: Any] {
    let count = { (outcome: CrawlOutcome) in summary.outcomes[outcome] ?? 0 }
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

  /// last-merge.json's object, on one line (keys sorted).
  package var json: String {
    var object = members
    object["schema"] = Self.schemaVersion
    object["startedAt"] = Timestamp.iso8601(started.timeIntervalSince1970)
    object["finishedAt"] = Timestamp.iso8601(finished.timeIntervalSince1970)
    object["exitStatus"] = Int(exitStatus)
    object["shardDirectories"] = shardDirectories
    return JSONWriter.line(object)
  }

  /// Writes `output.lastMerge` atomically.
  package func write(to output: OutputLayout) throws(StoreError) {
    try FileSystem.writeAtomically(Array((json + "\n").utf8), to: output.lastMerge)
  }
}
