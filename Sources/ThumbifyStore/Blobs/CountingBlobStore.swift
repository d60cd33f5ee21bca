import Synchronization
import ThumbifySystem

/// A `BlobStoring` that forwards to another store and counts the blobs it newly wrote.
package final class CountingBlobStore: BlobStoring {
  private let base: any BlobStoring
  private let counts = Mutex((blobs: 0, bytes: 0))

  package init(_ base: any BlobStoring) {
    self.base = base
  }

  /// Blobs written (not already present) and their bytes, so far.
  package var written: (blobs: Int, bytes: Int) { counts.withLock { $0 } }

  package func store(_ bytes: [UInt8], fileExtension: String) throws(StoreError) -> StoredBlob {
    let blob = try base.store(bytes, fileExtension: fileExtension)
    if blob.isNew { counts.withLock { $0 = ($0.blobs + 1, $0.bytes + blob.bytes) } }
    return blob
  }
}
