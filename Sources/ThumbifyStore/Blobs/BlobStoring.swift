import ThumbifySystem

/// A blob as stored: where it is, relative to the store's root, and what it is.
public struct StoredBlob: Sendable, Hashable, Codable {
  /// `blobs/ab/cd/<sha256>.<ext>`, relative to the output directory.
  public var path: String
  /// Lower-case hex SHA-256 of the bytes.
  public var sha256: String
  public var bytes: Int
  /// Whether this call wrote the file (false when an identical blob was already there).
  public var isNew: Bool

  public init(path: String, sha256: String, bytes: Int, isNew: Bool) {
    self.path = path
    self.sha256 = sha256
    self.bytes = bytes
    self.isNew = isNew
  }
}

/// A content-addressed blob store: a blob's name is the SHA-256 of its bytes.
public protocol BlobStoring: Sendable {
  func store(_ bytes: [UInt8], fileExtension: String) throws(StoreError) -> StoredBlob
}
