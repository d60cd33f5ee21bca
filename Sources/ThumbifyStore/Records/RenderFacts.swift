import ThumbifySystem

/// How a page's card was rendered in headless Chromium (`--render`, docs/rendering.md): why it was
/// rendered, and which metadata fields came from the rendered DOM rather than the served HTML.
public struct RenderFacts: Sendable, Codable, Equatable {
  /// `always` (`--render always`), or the `auto` rule's reason: `noTitleOrImage`, `appShell`.
  public var reason: String
  /// The metadata fields the rendered DOM filled in (`title`, `image`, …), in the metadata's order;
  /// empty when rendering added nothing the served HTML lacked.
  public var fields: [String]
  /// `document.URL` after the scripts ran, when it differs from the served page's (a script's
  /// `location.href = …`).
  public var finalURL: String?

  package init(reason: String, fields: [String], finalURL: String? = nil) {
    self.reason = reason
    self.fields = fields
    self.finalURL = finalURL
  }
}

extension RenderFacts: JSONWritable {
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("fields", fields)
      json.member("finalURL", finalURL)
      json.member("reason", reason)
    }
  }
}
