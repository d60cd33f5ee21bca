import Thumbify

/// One line of `thumbify thumb`'s `manifest.jsonl`: a thumbnail, or why there is none.
///
/// Keys are written sorted; absent values are omitted.
struct ThumbRecord: Sendable, Codable, Equatable {
  /// The path as given on the command line (`-` for standard input).
  var source: String
  /// The thumbnail's size.
  var width: Int?
  var height: Int?
  /// The source image's full, upright size.
  var sourceWidth: Int?
  var sourceHeight: Int?
  var format: OutputFormat?
  /// Relative to the output directory: `blobs/ab/cd/<sha256>.<ext>`.
  var path: String?
  var bytes: Int?
  var sha256: String?
  /// ThumbHash, base64.
  var placeholder: String?
  /// Dominant colour, `#rrggbb`.
  var color: String?
  var error: Failure?

  /// A failure's stable code and sentence.
  struct Failure: Sendable, Codable, Equatable {
    var code: String
    var message: String
  }

  init(source: String, set: ThumbnailSet) {
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

  init(source: String, error: RecordError) {
    self.source = source
    self.error = Failure(code: error.code, message: error.message)
  }
}
