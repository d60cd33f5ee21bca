import Foundation

/// The `--render` step between extraction and the image stage, shared by the crawl and
/// `LinkMetadataProvider`: decides whether a fetched page is rendered (`RenderMode`, `RenderRule`),
/// renders it, extracts the rendered DOM and merges it into the served page's metadata
/// (`PageMetadata.filledIn(from:)`: what the served HTML states wins). docs/rendering.md.
package struct RenderStep: Sendable {
  package let mode: RenderMode
  /// What renders; a failure to find or start Chromium is kept and reported per page.
  package let renderer: Result<any PageRendering, RenderError>

  package init(mode: RenderMode, renderer: Result<any PageRendering, RenderError>) {
    self.mode = mode
    self.renderer = renderer
  }

  /// No rendering: the static card, as without `--render`.
  package static let never = RenderStep(mode: .never, renderer: .failure(.browserMissing("rendering is off")))

  /// What the step made of one page: the metadata to make the card of, and the record's notes.
  package struct Outcome: Sendable {
    package var metadata: PageMetadata
    package var facts: RenderFacts?
    package var error: RecordError?
  }

  /// `metadata` (extracted from the served `response`), rendered and merged when the mode says so.
  /// A page that cannot be rendered keeps `metadata`, with a `renderFailed` error saying why.
  package func apply(
    to metadata: PageMetadata, of response: FetchResponse, url: String, extractor: any MetadataExtracting
  ) async -> Outcome {
    let reason: String
    switch mode {
    case .never: return Outcome(metadata: metadata)
    case .always: reason = "always"
    case .auto:
      guard let why = RenderRule.reason(for: metadata, html: response.body) else {
        return Outcome(metadata: metadata)
      }
      reason = why
    }
    do throws(RenderError) {
      let page = try await renderer.get().render(url, document: response)
      // The rendered DOM is UTF-8 whatever the served page's charset: the header says so, and
      // wins over a `<meta charset>` still in it.
      let rendered = extractor.extract(
        html: page.html, pageURL: page.url, contentType: "text/html; charset=utf-8")
      let (merged, fields) = metadata.filledIn(from: rendered)
      let finalURL = page.url == response.finalURL ? nil : page.url
      return Outcome(
        metadata: merged, facts: RenderFacts(reason: reason, fields: fields, finalURL: finalURL))
    } catch {
      return Outcome(
        metadata: metadata,
        error: RecordError(
          code: "renderFailed", message: "\(error.description) (\(error.code); \(reason))", stage: "render"))
    }
  }
}

extension RenderStep.Outcome {
  init(metadata: PageMetadata) { self.init(metadata: metadata, facts: nil, error: nil) }
}

extension RenderStep {
  /// The production step for `mode`: a `ChromiumRenderer` over `fetcher` with Chromium found on
  /// `PATH` (or `executable`), started on the first page that needs it. Without Chromium, every
  /// page to render gets `renderFailed` (the CLI refuses `--render` up front instead).
  package static func chromium(
    mode: RenderMode, fetcher: any Fetching, budget: RenderBudget = RenderBudget(), executable: String? = nil
  ) -> RenderStep {
    guard mode != .never else { return .never }
    do throws(RenderError) {
      let path = try ChromiumLauncher.executable(explicit: executable)
      return RenderStep(
        mode: mode, renderer: .success(ChromiumRenderer(executable: path, fetcher: fetcher, budget: budget)))
    } catch {
      return RenderStep(mode: mode, renderer: .failure(error))
    }
  }

  /// Stops the browser, when one runs (the end of a crawl).
  package func shutdown() {
    if case .success(let renderer as ChromiumRenderer) = renderer { renderer.shutdown() }
  }
}
