/// Why a source image produced no thumbnails: the image stage or the store failed.
public enum ThumbnailError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The image could not be decoded, resized or encoded.
  case image(ImageError)
  /// The thumbnail could not be written to the blob store.
  case store(StoreError)

  /// The stable manifest code of the underlying error (`undecodableImage`, `storageFailed`, …).
  public var code: String {
    switch self {
    case .image(let error): error.code
    case .store(let error): error.code
    }
  }

  public var description: String {
    switch self {
    case .image(let error): error.description
    case .store(let error): error.description
    }
  }
}
