/// Makes every variant's thumbnail from one source image's bytes and stores them.
///
/// `Thumbnailer` (decode → resize → encode → blob store) is the production conformance; tests use
/// doubles. The crawl calls it on its CPU pool, never on the coordinating task.
package protocol ThumbnailMaking: Sendable {
  /// - Parameters:
  ///   - data: the encoded source image.
  ///   - source: the image's URL, recorded in the set.
  ///   - variants: the thumbnails to make (all of one role).
  func thumbnails(of data: [UInt8], source: String, variants: [ThumbnailVariant]) throws(ThumbnailError)
    -> ThumbnailSet
}

extension Thumbnailer: ThumbnailMaking {}
