import ThumbifySystem

// The state database's record of decoder deaths (`DecodeJournal`).
extension StateStore {
  /// What the record of deaths says for one thumbify version.
  struct DecodeDeaths {
    /// Sources not to decode: a crash line, or two deaths with the source in flight.
    var poisoned: Set<String> = []
    /// Sources with one forgiven death.
    var suspects: Set<String> = []
  }

  /// Records the deaths a dead attempt left, once per attempt, and drops those of other versions;
  /// committed when it returns.
  func recordDecodeDeaths(_ deaths: [DecodeJournal.Death], attempt: String, version: String)
    throws(StoreError)
  {
    try withOwnTransaction { (db) throws(StoreError) in
      try db.transaction { () throws(StoreError) in
        try db.query("DELETE FROM decode_deaths WHERE version <> ?", [.text(version)])
        for death in deaths {
          try db.query(
            """
            INSERT OR IGNORE INTO decode_deaths(source_sha, attempt, url, crashed, version)
            VALUES(?, ?, ?, ?, ?)
            """,
            [
              .text(death.sourceSHA256), .text(attempt), .text(death.url), .integer(death.crashed ? 1 : 0),
              .text(version),
            ])
        }
      }
    }
  }

  /// The poisoned and suspect sources of `version`.
  func decodeDeaths(version: String) throws(StoreError) -> DecodeDeaths {
    let rows = try withDatabase { (db) throws(StoreError) in
      try db.query(
        """
        SELECT source_sha, MAX(crashed), COUNT(*) FROM decode_deaths WHERE version = ?
        GROUP BY source_sha
        """, [.text(version)])
    }
    var deaths = DecodeDeaths()
    for row in rows {
      guard let sha = row[0].text, let crashed = row[1].integer, let count = row[2].integer else { continue }
      if crashed == 1 || count >= 2 {
        deaths.poisoned.insert(sha)
      } else {
        deaths.suspects.insert(sha)
      }
    }
    return deaths
  }

  /// Forgets the deaths of a source that has decoded since.
  func forgetDecodeDeaths(_ sha: String) throws(StoreError) {
    try write { (db) throws(StoreError) in
      try db.query("DELETE FROM decode_deaths WHERE source_sha = ?", [.text(sha)])
    }
  }
}
