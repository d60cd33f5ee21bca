import Foundation
import ThumbifySystem

/// The production content-addressed store: files under `<root>/blobs/ab/cd/<sha256>.<ext>`.
///
/// A blob is written to a temporary file in its final directory, flushed with
/// `fsync`, and renamed into place, so a reader never sees a torn blob. A blob
/// that already exists is not written again (`isNew == false`), so re-running
/// over the same inputs changes nothing on disk.
///
/// ```swift
/// let store = BlobStore(root: "out")
/// let blob = try store.store(bytes, fileExtension: "webp")
/// blob.path   // "blobs/3f/a2/3fa2….webp"
/// ```
package struct BlobStore: BlobStoring {
  /// The output directory; blob paths are relative to it.
  package var root: String

  package init(root: String) {
    self.root = root
  }

  package func store(_ bytes: [UInt8], fileExtension: String) throws(StoreError) -> StoredBlob {
    let sha256 = SHA256Digest.hex(of: bytes)
    let relative = OutputLayout.blobPath(sha256: sha256, fileExtension: fileExtension)
    let path = FilePath(OutputLayout.path(relative, in: root))
    var status = stat()
    if stat(path.string, &status) == 0, Int(status.st_size) == bytes.count {
      return StoredBlob(path: relative, sha256: sha256, bytes: bytes.count, isNew: false)
    }
    try FileSystem.makeDirectories(path.removingLastComponent().string)
    try FileSystem.writeAtomically(bytes, to: path.string)
    return StoredBlob(path: relative, sha256: sha256, bytes: bytes.count, isNew: true)
  }
}
