import Foundation

// The cards a stop leaves incomplete (issue 34): a page whose HTML was fetched and read is saved even
// when the stop kept its oEmbed endpoint, image or icon from being fetched (`stopped`: never sent) or
// cut them off (`cancelled`: the second signal, or the end of the grace). The record names what is
// missing (`CrawlRecord.incomplete`) and is never the URL's last good one; the next run completes it.
extension Crawler {
  /// The parts of one page's card a stop left undone, gathered as they are met.
  struct Parts {
    private var list: [String] = []

    /// `CrawlRecord.incomplete`: nil when nothing is missing.
    var missing: [String]? { list.isEmpty ? nil : list }

    /// `error`, unless `isCut`: then `part` is missing, and it has no error (nothing failed).
    mutating func unless(_ isCut: Bool, _ part: String, _ error: RecordError?) -> RecordError? {
      guard isCut else { return error }
      list.append(part)
      return nil
    }

    /// `error`, unless it says that a stop kept `part` from being done.
    mutating func unlessStopped(_ part: String, _ error: RecordError?) -> RecordError? {
      unless(error.map(Self.isStop) ?? false, part, error)
    }

    /// Whether `error` is a stop's, not the part's: a request never sent, or work cancelled (the
    /// crawler cancels its work only when it is stopped at once).
    static func isStop(_ error: RecordError) -> Bool { ImageStage.isStop(error) }
  }

  /// Makes the parts an interrupted attempt of this run left undone (`record.incomplete`) from the
  /// record's metadata, without fetching the page again, and saves the record; it is complete, and the
  /// URL's last good record, when none of them is stopped again. Nil when that cannot be done (a render
  /// was cut short, which needs the page's HTML): the caller crawls the page then.
  func completePage(_ record: CrawlRecord, priority: Int) async throws(StoreError) -> CrawlRecord? {
    guard let missing = record.incomplete, !missing.contains("render"), var metadata = record.metadata,
      let facts = record.fetch
    else { return nil }
    var record = record
    var budget = NetworkBudget(total: configuration.timeout)
    var parts = Parts()
    let imagePriority = Self.imagePriority(ofPage: priority)
    if missing.contains("oembed") {
      let embedding = await oembed.apply(to: metadata, timeout: budget.remaining, priority: imagePriority)
      budget.charge(embedding.networkTime)
      metadata = embedding.metadata
      record.metadata = metadata
      record.oembedError = parts.unlessStopped("oembed", embedding.error)
    }
    // The endpoint may name the card's picture (its thumbnail_url) when the page does not.
    let wantsImage = missing.contains("image") || (missing.contains("oembed") && record.image == nil)
    let wantsIcon = missing.contains("icon")
    let (image, icon) = await thumbnails(
      images: wantsImage ? imageCandidates(metadata) : [],
      icons: wantsIcon ? iconCandidates(metadata, pageURL: facts.finalURL) : [], budget: budget,
      priority: imagePriority)
    if wantsImage {
      record.image = image.set
      record.imageError = parts.unlessStopped("image", image.error)
    }
    if wantsIcon {
      record.icon = icon.set
      record.iconError = parts.unlessStopped("icon", icon.error)
    }
    record.incomplete = parts.missing
    let isComplete = parts.missing == nil
    try save(
      record.normalizedURL, record: record, run: run, isGood: isComplete, etag: facts.etag,
      lastModified: facts.lastModified, fetchedAt: isComplete ? Self.seconds(facts.fetchedAt) ?? clock() : nil
    )
    return record
  }

  /// Seconds since 1970 of a record's `fetchedAt` (ISO 8601, `Timestamp.iso8601`).
  static func seconds(_ timestamp: String) -> Double? {
    ISO8601DateFormatter().date(from: timestamp)?.timeIntervalSince1970
  }
}
