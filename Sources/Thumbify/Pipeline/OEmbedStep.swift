import ThumbifyExtracting
import ThumbifyFetching

/// Whether a page's oEmbed endpoint is fetched (`--oembed`, docs/metadata.md "oEmbed"): `never`, or
/// the one the page declares (`discovered`, the default). No endpoint list of known providers is kept.
public enum OEmbedMode: String, Sendable, CaseIterable {
  /// No oEmbed endpoint is fetched.
  case never
  /// The endpoint the page declares in a `<link rel="alternate" type="application/json+oembed">` (or
  /// the XML form) is fetched.
  case discovered
}

/// The oEmbed step between extraction (and rendering) and the image stage, shared by the crawl and
/// `LinkMetadataProvider`: fetches the endpoint the page declares (`PageMetadata.oembed`) through the
/// same fetcher as the page — its SSRF guard, robots.txt, per-host queue and retries — within what
/// is left of the URL's budget, parses it (`OEmbedResponse`) and fills what the page lacks
/// (`PageMetadata.filledIn(fromOEmbed:endpoint:)`). A failure keeps the page's metadata and says why.
package struct OEmbedStep: Sendable {
  package let mode: OEmbedMode
  package let fetcher: any Fetching

  package init(mode: OEmbedMode, fetcher: any Fetching) {
    self.mode = mode
    self.fetcher = fetcher
  }

  /// What the step made of one page.
  package struct Outcome: Sendable {
    package var metadata: PageMetadata
    /// Why the endpoint gave nothing (stage `oembed`): a fetch error, or `oembedInvalid`.
    package var error: RecordError?
    /// The network time the endpoint's fetch used, to charge to the URL's budget.
    package var networkTime: Duration = .zero
  }

  /// `metadata` with its oEmbed endpoint's response filled in, when the mode and the budget allow.
  ///
  /// - Parameters:
  ///   - timeout: what is left of the URL's budget; the fetch is not made when nothing is.
  ///   - priority: its place in the endpoint host's queue (the page's images' priority).
  package func apply(to metadata: PageMetadata, timeout: Duration, priority: Int = 0) async -> Outcome {
    guard mode == .discovered, let endpoint = metadata.oembed else { return Outcome(metadata: metadata) }
    guard timeout > .zero else {
      return Outcome(
        metadata: metadata,
        error: RecordError(
          code: FetchError.timedOut("").code,
          message: "The URL's timeout was used up before its oEmbed endpoint was fetched.", stage: "oembed"))
    }
    let fetched = await fetcher.measuredFetch(
      FetchRequest(url: endpoint, kind: .oembed, timeout: timeout, priority: priority))
    switch fetched.result {
    case .failure(let error):
      return Outcome(
        metadata: metadata, error: RecordError(code: error.code, message: error.description, stage: "oembed"),
        networkTime: fetched.networkTime)
    case .success(let response):
      guard let parsed = OEmbedResponse.parse(response.body, contentType: response.contentType) else {
        return Outcome(
          metadata: metadata,
          error: RecordError(
            code: "oembedInvalid",
            message: "The oEmbed endpoint \(response.finalURL) answered with neither oEmbed JSON nor XML.",
            stage: "oembed"),
          networkTime: fetched.networkTime)
      }
      return Outcome(
        metadata: metadata.filledIn(fromOEmbed: parsed, endpoint: response.finalURL), error: nil,
        networkTime: fetched.networkTime)
    }
  }
}
