import Synchronization

/// The thumbnails of one picture, encoded and in memory: what a server handler sends or stores.
public struct LinkThumbnails: Sendable, Equatable {
  /// The source image's URL.
  public var source: String
  /// The source image's full size, upright.
  public var width: Int
  /// The source image's full height, upright.
  public var height: Int
  /// ThumbHash of the image, base64: a blurred preview to draw until a thumbnail has loaded.
  public var placeholder: String
  /// Dominant colour, `#rrggbb`.
  public var color: String
  /// One per variant asked for, in the order asked.
  public var variants: [LinkThumbnail]
}

/// One encoded thumbnail.
public struct LinkThumbnail: Sendable, Equatable {
  /// The variant's name (`card`, `card2x`, `icon`, …).
  public var name: String
  /// The thumbnail's width in pixels.
  public var width: Int
  /// The thumbnail's height in pixels.
  public var height: Int
  /// The format `bytes` are encoded in.
  public var format: OutputFormat
  /// The encoded image (WebP, JPEG or PNG, as `format` says).
  public var bytes: [UInt8]
  /// Lower-case hex SHA-256 of `bytes`: the name a crawl's store gives it (`blobs/ab/cd/<sha256>.<ext>`).
  public var sha256: String
}

extension LinkMetadata {
  /// The card image's thumbnails, fetched, decoded and resized now (`LPLinkMetadata.imageProvider`).
  ///
  /// The decode, resize and encode run on the provider's `CPUPool`, never on the cooperative pool, so
  /// a server's request handlers keep running while an image is thumbnailed. The fetch counts
  /// against the provider's default timeout and is cancelled by its `cancel()`.
  ///
  /// - Parameter variants: what to make, at least one; by default the image variants of the default
  ///   set (``ThumbnailVariant/defaultImageVariants``), which a crawl makes too, byte for byte.
  /// - Throws: `LinkPreviewError`: `.noImage` when the metadata names no image (or was made
  ///   without a provider: see ``LinkMetadataProvider/attached(_:)``), `.fetch` when the image cannot
  ///   be fetched, `.thumbnail` when it cannot be decoded.
  public func imageThumbnails(_ variants: [ThumbnailVariant] = ThumbnailVariant.defaultImageVariants)
    async throws(LinkPreviewError) -> LinkThumbnails
  {
    try await thumbnails(of: card.image, variants: variants)
  }

  /// The site icon's thumbnail, like ``imageThumbnails(_:)``.
  ///
  /// - Parameter variant: the icon's size; by default the default set's ``ThumbnailVariant/icon``
  ///   (64×64, centre-cropped, WebP), as a crawl makes it.
  public func iconThumbnail(_ variant: ThumbnailVariant = .icon) async throws(LinkPreviewError)
    -> LinkThumbnail
  {
    let thumbnails = try await thumbnails(of: card.icon, variants: [variant])
    guard let thumbnail = thumbnails.variants.first else { throw LinkPreviewError(.noImage) }
    return thumbnail
  }

  private func thumbnails(of picture: Card.Picture?, variants: [ThumbnailVariant])
    async throws(LinkPreviewError) -> LinkThumbnails
  {
    guard let source = picture?.url, let loader, !variants.isEmpty else { throw LinkPreviewError(.noImage) }
    return try await loader.thumbnails(of: source, variants: variants)
  }
}

/// Fetches a picture and makes its thumbnails for `LinkMetadata`'s accessors: the provider's fetcher,
/// CPU pool and in-flight calls.
struct ThumbnailLoader: Sendable {
  let fetcher: any Fetching
  let pool: CPUPool
  let decoder: any ImageDecoding
  let timeout: Duration
  let calls: InFlightCalls

  func thumbnails(of source: String, variants: [ThumbnailVariant]) async throws(LinkPreviewError)
    -> LinkThumbnails
  {
    try await calls.run { () async throws(LinkPreviewError) -> LinkThumbnails in
      let response: FetchResponse
      do throws(FetchError) {
        response = try await fetcher.fetch(FetchRequest(url: source, kind: .image, timeout: timeout))
      } catch {
        throw LinkPreviewError(.fetch(error))
      }
      let store = MemoryBlobStore()
      let thumbnailer = Thumbnailer(decoder: decoder, store: store)
      let set: ThumbnailSet
      do {
        set = try await pool.run { () throws(ThumbnailError) -> ThumbnailSet in
          try thumbnailer.thumbnails(of: response.body, source: source, variants: variants)
        }
      } catch let error as ThumbnailError {
        throw LinkPreviewError(.thumbnail(error))
      } catch {
        // `CPUPool.run` throws only the body's error or, when the task was cancelled, this.
        throw LinkPreviewError.cancelled
      }
      return LinkThumbnails(
        source: set.source, width: set.width, height: set.height, placeholder: set.placeholder,
        color: set.color,
        variants: set.variants.map {
          LinkThumbnail(
            name: $0.name, width: $0.width, height: $0.height, format: $0.format,
            bytes: store.bytes(sha256: $0.sha256), sha256: $0.sha256)
        })
    }
  }
}

/// A blob store that keeps the blobs in memory, for thumbnails that are returned rather than served
/// from a directory.
final class MemoryBlobStore: BlobStoring {
  // Guarded by the mutex: the thumbnailer stores from a CPU pool thread, the caller reads after.
  private let blobs = Mutex<[String: [UInt8]]>([:])

  func store(_ bytes: [UInt8], fileExtension: String) throws(StoreError) -> StoredBlob {
    let sha256 = SHA256Digest.hex(of: bytes)
    let isNew = blobs.withLock { blobs in
      guard blobs[sha256] == nil else { return false }
      blobs[sha256] = bytes
      return true
    }
    // No directory: the path only names the blob, its bytes are returned.
    return StoredBlob(path: "\(sha256).\(fileExtension)", sha256: sha256, bytes: bytes.count, isNew: isNew)
  }

  func bytes(sha256: String) -> [UInt8] {
    blobs.withLock { $0[sha256] ?? [] }
  }
}
