import Synchronization
import Thumbify
import ThumbifyStore

/// A `ThumbnailMaking` double: stores one small blob per variant (the source bytes plus the variant's
/// name) in a real `BlobStore`, fails for sources starting with `CORRUPT`, and counts its calls.
package final class StubThumbnailer: ThumbnailMaking {
  package let store: BlobStore
  private let calls = Mutex<[String]>([])

  package init(root: String) { store = BlobStore(root: root) }

  package var sources: [String] { calls.withLock { $0 } }

  package func thumbnails(of data: [UInt8], source: String, variants: [ThumbnailVariant])
    throws(ThumbnailError)
    -> ThumbnailSet
  {
    calls.withLock { $0.append(source) }
    if data.starts(with: Array("CORRUPT".utf8)) {
      throw .image(.corrupt(format: .jpeg, message: "Premature end of JPEG file"))
    }
    var thumbnails: [Thumbnail] = []
    for variant in variants {
      let blob: StoredBlob
      do {
        blob = try store.store(
          data + Array(variant.name.utf8), fileExtension: variant.encoding.format.fileExtension)
      } catch {
        throw .store(error)
      }
      thumbnails.append(
        Thumbnail(
          name: variant.name, path: blob.path, width: variant.box.width, height: variant.box.height,
          bytes: blob.bytes, format: variant.encoding.format, sha256: blob.sha256))
    }
    return ThumbnailSet(
      source: source, width: 1200, height: 630, placeholder: "AAAA", color: "#336699", variants: thumbnails)
  }
}
