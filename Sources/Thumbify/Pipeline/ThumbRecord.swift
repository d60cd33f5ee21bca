/// One line of `thumbify thumb`'s `manifest.jsonl`: a thumbnail, or why there is none.
///
/// Keys are written sorted; absent values are omitted.
public struct ThumbRecord: Sendable, Codable, Equatable {
  /// The path as given on the command line (`-` for standard input).
  public var source: String
  /// The thumbnail's size.
  public var width: Int?
  public var height: Int?
  /// The source image's full, upright size.
  public var sourceWidth: Int?
  public var sourceHeight: Int?
  public var format: OutputFormat?
  /// Relative to the output directory: `blobs/ab/cd/<sha256>.<ext>`.
  public var path: String?
  public var bytes: Int?
  public var sha256: String?
  /// ThumbHash, base64.
  public var placeholder: String?
  /// Dominant colour, `#rrggbb`.
  public var color: String?
  /// Why there is no thumbnail (`stage` is never set).
  public var error: RecordError?

  public init(source: String, set: ThumbnailSet) {
    self.source = source
    let thumbnail = set.variants.first
    width = thumbnail?.width
    height = thumbnail?.height
    sourceWidth = set.width
    sourceHeight = set.height
    format = thumbnail?.format
    path = thumbnail?.path
    bytes = thumbnail?.bytes
    sha256 = thumbnail?.sha256
    placeholder = set.placeholder
    color = set.color
  }

  public init(source: String, error: RecordError) {
    self.source = source
    self.error = error
  }
}
