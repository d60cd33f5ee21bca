/// An oEmbed response (https://oembed.com, section 2.3.4), JSON or XML, reduced to the fields
/// thumbify reads. Parsing never fails: what is missing or malformed is `nil`, and a body that is not
/// an oEmbed response at all gives `nil` from `parse(_:contentType:)`.
///
/// ```swift
/// let response = OEmbedResponse.parse(body, contentType: "application/json")
/// let metadata = page.filledIn(fromOEmbed: response!, endpoint: endpointURL)
/// ```
package struct OEmbedResponse: Sendable, Equatable {
  /// `photo`, `video`, `link` or `rich` (lower-cased); anything else is kept as given.
  package var type: String?
  package var title: String?
  package var authorName: String?
  package var authorURL: String?
  package var providerName: String?
  package var providerURL: String?
  package var thumbnailURL: String?
  package var thumbnailWidth: Int?
  package var thumbnailHeight: Int?
  /// The photo's URL (type `photo`).
  package var url: String?
  package var width: Int?
  package var height: Int?
  /// The embed markup as given: never stored or shown; only its single iframe is kept
  /// (`iframeURL(endpoint:)`).
  package var html: String?

  package init() {}

  /// The largest body parsed (the fetcher's `.oembed` cap is the same): a longer one is cut there,
  /// and a response cut inside its JSON or XML gives what was complete before the cut.
  package static let maximumBytes = 256 * 1024
  /// Text fields are cut at this many bytes (`html` at `maximumHTMLBytes`).
  static let maximumTextBytes = 4096
  static let maximumHTMLBytes = 64 * 1024

  /// Parses a JSON or XML response: JSON when `contentType` says `json` or the body's first
  /// non-blank byte is `{`; XML when it says `xml` or the body starts with `<`. `nil` when the body is
  /// neither, or holds none of the fields.
  package static func parse(_ body: [UInt8], contentType: String?) -> OEmbedResponse? {
    let bytes = body.prefix(maximumBytes)
    let first = bytes.first { !ASCII.isWhitespace($0) && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
    let type = contentType.map(ASCII.lowercased) ?? ""
    let isJSON = first == UInt8(ascii: "{") || (first != UInt8(ascii: "<") && type.contains("json"))
    let fields: [String: FieldValue]
    if isJSON {
      fields = Array(bytes).withUnsafeBufferPointer { jsonFields($0) }
    } else if first == UInt8(ascii: "<") || type.contains("xml") {
      fields = OEmbedXMLReader.fields(Array(bytes))
    } else {
      return nil
    }
    let response = OEmbedResponse(fields: fields)
    return response == OEmbedResponse() ? nil : response
  }

  /// A field's value: JSON gives numbers and strings, XML only text.
  enum FieldValue: Equatable {
    case text(String)
    case number(Double)
  }

  private static func jsonFields(_ bytes: UnsafeBufferPointer<UInt8>) -> [String: FieldValue] {
    guard case .object(let members)? = LenientJSONParser.parseAll(bytes).first else { return [:] }
    var fields: [String: FieldValue] = [:]
    for (key, value) in members {
      switch value {
      case .string(let text): fields[key] = .text(text)
      case .number(let number): fields[key] = .number(number)
      default: continue
      }
    }
    return fields
  }

  init(fields: [String: FieldValue]) {
    func text(_ key: String, limit: Int = Self.maximumTextBytes) -> String? {
      guard case .text(let value)? = fields[key] else { return nil }
      return TextNormalizer.clean(value, limit: limit)
    }
    func integer(_ key: String) -> Int? {
      switch fields[key] {
      case .number(let number)?: return number >= 1 && number < 1e6 ? Int(number) : nil
      case .text(let value)?: return JSONLDGraph.leadingInteger(value)
      case nil: return nil
      }
    }
    type = text("type").map(ASCII.lowercased)
    title = text("title")
    authorName = text("author_name")
    authorURL = text("author_url")
    providerName = text("provider_name")
    providerURL = text("provider_url")
    thumbnailURL = text("thumbnail_url")
    thumbnailWidth = integer("thumbnail_width")
    thumbnailHeight = integer("thumbnail_height")
    url = text("url")
    width = integer("width")
    height = integer("height")
    if case .text(let value)? = fields["html"], !ASCII.isBlank(value) {
      html = String(decoding: value.utf8.prefix(Self.maximumHTMLBytes), as: UTF8.self)
    }
  }
}
