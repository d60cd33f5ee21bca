/// Why `LinkMetadataProvider` or a `LinkMetadata` accessor failed: LinkPresentation's `LPError`, with
/// thumbify's finer cause kept.
///
/// Switch on ``code`` where an app would switch on `LPError.Code`; log ``description`` or look at
/// ``cause`` for what exactly went wrong (DNS, TLS, an HTTP status, an undecodable image, …).
///
/// ```swift
/// do {
///   let metadata = try await provider.metadata(for: url)
/// } catch where error.code == .metadataFetchTimedOut {
///   // show the bare link, try again later
/// }
/// ```
public struct LinkPreviewError: Error, Sendable, Equatable, CustomStringConvertible {
  /// LinkPresentation's error codes (`LPError.Code`), with the same raw values.
  public enum Code: Int, Sendable, CaseIterable {
    /// The cause is not known (`LPError.Code.unknown`).
    case unknown = 1
    /// The page or image could not be fetched or read (`LPError.Code.metadataFetchFailed`).
    case metadataFetchFailed
    /// The call was cancelled: by its task, or by `LinkMetadataProvider.cancel()`
    /// (`LPError.Code.metadataFetchCancelled`).
    case metadataFetchCancelled
    /// The call took longer than its timeout (`LPError.Code.metadataFetchTimedOut`).
    case metadataFetchTimedOut
  }

  /// What went wrong, in thumbify's own terms.
  public enum Cause: Sendable, Equatable {
    /// The page or image fetch failed (`FetchError`: DNS, connect, TLS, HTTP status, robots, …).
    case fetch(FetchError)
    /// The image was fetched but could not be decoded, resized or encoded.
    case thumbnail(ThumbnailError)
    /// The metadata names no image (or icon) to make thumbnails of.
    case noImage
  }

  /// What went wrong, in thumbify's own terms.
  public var cause: Cause

  package init(_ cause: Cause) {
    self.cause = cause
  }

  /// The LinkPresentation code of ``cause``: `FetchError.family` for fetches, failed for images.
  public var code: Code {
    switch cause {
    case .fetch(let error):
      switch error.family {
      case .cancelled: .metadataFetchCancelled
      case .timedOut: .metadataFetchTimedOut
      case .failed: .metadataFetchFailed
      case .unknown: .unknown
      }
    case .thumbnail, .noImage: .metadataFetchFailed
    }
  }

  /// A stable machine-readable code for the cause, as manifests and cards write it (`dns`,
  /// `httpStatus`, `undecodableImage`, `noImage`, …).
  public var causeCode: String {
    switch cause {
    case .fetch(let error): error.code
    case .thumbnail(let error): error.code
    case .noImage: "noImage"
    }
  }

  public var description: String {
    switch cause {
    case .fetch(let error): error.description
    case .thumbnail(let error): error.description
    case .noImage: "The page names no image."
    }
  }

  /// The error a cancelled call throws.
  static let cancelled = LinkPreviewError(.fetch(.cancelled))
}
