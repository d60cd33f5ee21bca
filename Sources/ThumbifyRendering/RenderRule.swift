import ThumbifyExtracting
import ThumbifyFetching

/// When a page is rendered in headless Chromium (`--render`): never, only when its served HTML
/// cannot make its card (`RenderRule`), or always. docs/rendering.md.
public enum RenderMode: String, Sendable, CaseIterable {
  /// Never render (the default): the served HTML's metadata only.
  case never
  /// Render only the pages whose served HTML cannot make a card (`RenderRule`).
  case auto
  /// Render every page.
  case always
}

/// What renders a page: `ChromiumRenderer`, or a test double.
package protocol PageRendering: Sendable {
  /// Renders `url`; `document` is the page already fetched, served to the browser instead of
  /// fetching it again.
  func render(_ url: String, document: FetchResponse?) async throws(RenderError) -> RenderedPage
}

/// The `auto` rule: which served pages need their scripts run before they make a card
/// (docs/rendering.md, "When to render").
package enum RenderRule {
  /// Why `auto` renders a page: `noTitleOrImage` when its served HTML gave neither a title nor
  /// an image; `appShell` when it looks like a script-built app (an empty mount point, a
  /// `<noscript>` asking for JavaScript, or a framework's placeholder title) and gave no OpenGraph
  /// or Twitter title and no description. `nil`: the served HTML makes its card.
  package static func reason(for metadata: PageMetadata, html: [UInt8]) -> String? {
    if metadata.title == nil && metadata.image == nil { return "noTitleOrImage" }
    if metadata.description != nil { return nil }
    if isAppShell(metadata, html: html) { return "appShell" }
    return nil
  }

  /// Whether a page that was not rendered made an empty card because it needs its scripts run
  /// (`CrawlRecord.needsRendering`): `auto` would render it (`reason(for:html:)`), and it looks like
  /// a script-built app — a framework's placeholder title or app-shell markup — rather than a page
  /// that simply has no title or image.
  /// It costs what `auto`'s decision costs: most pages (a title and a description) are decided
  /// without reading the HTML, and the markup is searched at most once.
  package static func needsRendering(_ metadata: PageMetadata, html: [UInt8]) -> Bool {
    switch reason(for: metadata, html: html) {
    case "appShell": return true
    case "noTitleOrImage": return isAppShell(metadata, html: html)
    default: return false
    }
  }

  /// A framework's placeholder title or app-shell markup (`hasAppShellMarkup`).
  private static func isAppShell(_ metadata: PageMetadata, html: [UInt8]) -> Bool {
    let isPlaceholder = metadata.title.map { placeholderTitles.contains($0.lowercased()) } ?? false
    return isPlaceholder || hasAppShellMarkup(html)
  }

  /// Titles the scaffolds of the common frameworks ship with, lower-cased.
  static let placeholderTitles: Set<String> = [
    "react app", "vite app", "vite + react", "vite + react + ts", "vite + vue", "vite + vue + ts",
    "vite + svelte", "vue app", "angular", "my app", "ionic app", "expo", "svelte app", "sveltekit app",
    "app", "document", "loading", "loading…", "loading...",
  ]

  /// Empty mount points (`<div id="root"></div>`, `<div id="app"></div>`, `<app-root></app-root>`)
  /// and a `<noscript>` that asks for JavaScript, found by a case-insensitive byte search (the
  /// served HTML's head and body, before any script ran).
  static func hasAppShellMarkup(_ html: [UInt8]) -> Bool {
    let lowered = ArraySlice(html.prefix(512 * 1024).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
    func contains(_ needle: String) -> Bool { search(Array(needle.utf8), in: lowered) != nil }
    let mounts = [
      #"id="root"></div>"#, #"id="app"></div>"#, #"id=root></div>"#, #"id=app></div>"#,
      #"id="__nuxt"></div>"#, #"id="svelte"></div>"#, "<app-root></app-root>",
    ]
    if mounts.contains(where: contains) { return true }
    guard let noscript = search(Array("<noscript".utf8), in: lowered) else { return false }
    let rest = lowered[noscript...].prefix(2048)
    let end = search(Array("</noscript".utf8), in: rest) ?? rest.endIndex
    let text = String(decoding: rest[..<end], as: UTF8.self)
    return text.contains("javascript")
      && ["enable", "turn on", "required", "requires", "need", "activate"].contains(where: text.contains)
  }

  /// The index in `bytes` where `needle` starts first, without copying either.
  private static func search(_ needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
    guard let first = needle.first else { return nil }
    let last = bytes.endIndex - needle.count
    var start = bytes.startIndex
    while start <= last, let found = bytes[start...last].firstIndex(of: first) {
      if bytes[found..<found + needle.count].elementsEqual(needle) { return found }
      start = found + 1
    }
    return nil
  }
}

extension PageMetadata {
  /// The served page's metadata with the rendered DOM's filling its gaps, and the names of the
  /// fields that came from rendering. What the served HTML states wins where both have a field —
  /// but a framework's placeholder title (`React App`) counts as no title.
  package func filledIn(from rendered: PageMetadata) -> (metadata: PageMetadata, renderedFields: [String]) {
    var merged = self
    var fields: [String] = []
    if let title = merged.title, RenderRule.placeholderTitles.contains(title.lowercased()),
      rendered.title != nil
    {
      merged.title = nil
    }
    func fill<Value>(_ field: WritableKeyPath<PageMetadata, Value?>, _ name: String) {
      guard merged[keyPath: field] == nil, let value = rendered[keyPath: field] else { return }
      merged[keyPath: field] = value
      fields.append(name)
    }
    fill(\.title, "title")
    fill(\.description, "description")
    fill(\.canonicalURL, "canonicalURL")
    fill(\.siteName, "siteName")
    fill(\.type, "type")
    fill(\.lang, "lang")
    if merged.image == nil, rendered.image != nil {
      (merged.image, merged.images) = (rendered.image, rendered.images)
      fields.append("image")
    }
    if merged.icon == nil, rendered.icon != nil {
      (merged.icon, merged.icons) = (rendered.icon, rendered.icons)
      fields.append("icon")
    }
    fill(\.video, "video")
    fill(\.audio, "audio")
    fill(\.oembed, "oembed")
    fill(\.embed, "embed")
    fill(\.author, "author")
    if merged.publishedTime == nil && merged.publishedTimeText == nil,
      rendered.publishedTime != nil || rendered.publishedTimeText != nil
    {
      (merged.publishedTime, merged.publishedTimeText, merged.publishedTimeSource) =
        (rendered.publishedTime, rendered.publishedTimeText, rendered.publishedTimeSource)
      fields.append("publishedTime")
    }
    if merged.modifiedTime == nil && merged.modifiedTimeText == nil,
      rendered.modifiedTime != nil || rendered.modifiedTimeText != nil
    {
      (merged.modifiedTime, merged.modifiedTimeText) = (rendered.modifiedTime, rendered.modifiedTimeText)
      fields.append("modifiedTime")
    }
    fill(\.themeColor, "themeColor")
    fill(\.twitterCard, "twitterCard")
    return (merged, fields)
  }
}
