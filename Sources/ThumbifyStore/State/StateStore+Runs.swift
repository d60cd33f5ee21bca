import Dispatch
import Foundation
import Synchronization
import ThumbifySystem

// The state database's runs: one row per crawl run, so a killed run is resumed.
extension StateStore {
  /// Starts a run, or resumes the last one when it did not finish and used the same `options`.
  package func beginRun(options: String, now: Double = Date().timeIntervalSince1970) throws(StoreError) -> Run
  {
    try withOwnTransaction { (db) throws(StoreError) -> Run in
      try db.transaction { () throws(StoreError) -> Run in
        let last = try db.query("SELECT id, options, finished_at FROM runs ORDER BY id DESC LIMIT 1")
        if let row = last.first, row[2] == .null, row[1].text == options, let id = row[0].integer {
          return Run(id: id, isResumed: true)
        }
        try db.query("INSERT INTO runs(options, started_at) VALUES(?, ?)", [.text(options), .real(now)])
        let id = try db.query("SELECT last_insert_rowid()").first?.first?.integer ?? 0
        return Run(id: id, isResumed: false)
      }
    }
  }

  /// Marks a run finished (committing the open batch first): the next run starts afresh.
  package func finishRun(_ run: Int64, now: Double = Date().timeIntervalSince1970) throws(StoreError) {
    try withOwnTransaction { (db) throws(StoreError) in
      try db.query("UPDATE runs SET finished_at = ? WHERE id = ?", [.real(now), .integer(run)])
    }
  }
}
