import Dispatch
import Foundation
import Synchronization
import ThumbifySystem

// The state database's images and their thumbnails, shared by every page that uses them.
extension StateStore {
  /// What is known about the image at `url`.
  package func image(_ url: String) throws(StoreError) -> ImageState {
    let rows = try withDatabase { (db) throws(StoreError) in
      try db.query(
        "SELECT etag, last_modified, source_sha, error, run, fetched_at FROM images WHERE url = ?",
        [.text(url)])
    }
    guard let row = rows.first else { return ImageState() }
    let error = row[3].text.flatMap { try? JSONDecoder().decode(RecordError.self, from: Data($0.utf8)) }
    return ImageState(
      etag: row[0].text, lastModified: row[1].text, sourceSHA256: row[2].text, run: row[4].integer,
      error: error, fetchedAt: row[5].real)
  }

  /// Records the outcome of fetching the image at `url` in `run`.
  package func saveImage(_ url: String, state: ImageState) throws(StoreError) {
    let error = state.error.flatMap { Self.json($0) }
    try write { (db) throws(StoreError) in
      try db.query(
        """
        INSERT OR REPLACE INTO images(url, etag, last_modified, source_sha, error, run, fetched_at)
        VALUES(?, ?, ?, ?, ?, ?, ?)
        """,
        [
          .text(url), state.etag.map(Value.text) ?? .null, state.lastModified.map(Value.text) ?? .null,
          state.sourceSHA256.map(Value.text) ?? .null, error.map(Value.text) ?? .null,
          state.run.map(Value.integer) ?? .null, state.fetchedAt.map(Value.real) ?? .null,
        ])
    }
  }

  /// The thumbnails made earlier from the source bytes with hash `sourceSHA256` for `variants`.
  package func thumbnails(sourceSHA256: String, variants: String) throws(StoreError) -> ThumbnailSet? {
    let rows = try withDatabase { (db) throws(StoreError) in
      try db.query(
        "SELECT result FROM thumbnails WHERE source_sha = ? AND variants = ?",
        [.text(sourceSHA256), .text(variants)])
    }
    return rows.first?.first?.text.flatMap {
      try? JSONDecoder().decode(ThumbnailSet.self, from: Data($0.utf8))
    }
  }

  /// Records the thumbnails made from `sourceSHA256` for `variants` (blobs must already be on disk).
  package func saveThumbnails(_ set: ThumbnailSet, sourceSHA256: String, variants: String) throws(StoreError)
  {
    let json = Self.json(set) ?? "{}"
    try write { (db) throws(StoreError) in
      try db.query(
        "INSERT OR REPLACE INTO thumbnails(source_sha, variants, result) VALUES(?, ?, ?)",
        [.text(sourceSHA256), .text(variants), .text(json)])
    }
  }
}
