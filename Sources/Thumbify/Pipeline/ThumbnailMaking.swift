/// Makes every variant's thumbnail from one source image's bytes and stores them.
///
/// The production conformance wraps the imaging `Thumbnailer` (decode → resize → encode → blob store);
/// tests use doubles. Called on the crawl's CPU pool, never on the coordinating task.
public protocol ThumbnailMaking: Sendable {
  /// - Parameters:
  ///   - bytes: the encoded source image.
  ///   - source: the image's URL, recorded in the set.
  ///   - variants: the thumbnails to make (all of one role).
  /// - Throws: a `RecordError` whose code is the image or store error's (`undecodableImage`, …).
  func makeThumbnails(of bytes: [UInt8], source: String, variants: [CrawlConfiguration.Variant])
    throws(RecordError) -> ThumbnailSet
}
