import Dispatch
import Foundation
import Synchronization
import ThumbifySystem

// The state database's the persisted robots.txt cache.
extension StateStore {
  /// Every persisted robots.txt cache entry (host → opaque JSON the fetcher understands).
  package func robotsEntries() throws(StoreError) -> [String: String] {
    let rows = try withDatabase { (db) throws(StoreError) in try db.query("SELECT host, entry FROM robots") }
    var entries: [String: String] = [:]
    for row in rows { if let host = row[0].text, let entry = row[1].text { entries[host] = entry } }
    return entries
  }

  /// Replaces the persisted robots.txt cache entries (committing the open batch first).
  package func saveRobotsEntries(_ entries: [String: String]) throws(StoreError) {
    try withOwnTransaction { (db) throws(StoreError) in
      try db.transaction { () throws(StoreError) in
        for (host, entry) in entries {
          try db.query(
            "INSERT OR REPLACE INTO robots(host, entry) VALUES(?, ?)", [.text(host), .text(entry)])
        }
      }
    }
  }
}
