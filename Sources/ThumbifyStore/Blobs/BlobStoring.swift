import ThumbifySystem

/// A blob as stored: where it is, relative to the store's root, and what it is.
package struct StoredBlob: Sendable, Hashable, Codable {
  /// `blobs/ab/cd/<sha256>.<ext>`, relative to the output directory.
  package var path: String
  /// Lower-case hex SHA-256 of the bytes.
  package var sha256: String
  package var bytes: Int
  /// Whether this call wrote the file (false when an identical blob was already there).
  package var isNew: Bool

  package init(path: String, sha256: String, bytes: Int, isNew: Bool) {
    self.path = path
    self.sha256 = sha256
    self.bytes = bytes
    self.isNew = isNew
  }
}

/// A content-addressed blob store: a blob's name is the SHA-256 of its bytes.
package protocol BlobStoring: Sendable {
  func store(_ bytes: [UInt8], fileExtension: String) throws(StoreError) -> StoredBlob
}
