#if canImport(Glibc)
  import Glibc
#endif

/// Reads a page's card metadata from its bytes: the production `MetadataExtracting`.
///
/// It decodes the bytes (see `DocumentDecoder`), tokenizes the whole page once with
/// `HTMLTokenizer` — metas and JSON-LD in `<body>` count, so it does not stop at `</head>` —
/// and applies the precedence rules documented in `docs/metadata.md`. It is pure: no
/// network, no shared state, safe to call from any thread.
///
/// ```swift
/// let metadata = MetadataExtractor().extract(
///   html: bytes, pageURL: "https://example.com/post", contentType: "text/html; charset=utf-8")
/// print(metadata.title ?? "untitled")
/// ```
public struct MetadataExtractor: MetadataExtracting {
  /// The icon size, in pixels, icons are ranked for.
  public var iconTargetSize: Int
  /// The extraction's clock, in Unix seconds: a date more than a day after it is left out.
  /// Tests set a fixed one.
  public var now: @Sendable () -> Int64

  public init(iconTargetSize: Int = 64, now: @escaping @Sendable () -> Int64 = MetadataExtractor.systemClock)
  {
    self.iconTargetSize = iconTargetSize
    self.now = now
  }

  /// The system clock, in Unix seconds.
  public static let systemClock: @Sendable () -> Int64 = { Int64(time(nil)) }

  public func extract(html: [UInt8], pageURL: String, contentType: String?) -> PageMetadata {
    html.withUnsafeBufferPointer { extract(bytes: $0, pageURL: pageURL, contentType: contentType) }
  }

  /// The same as `extract(html:pageURL:contentType:)` without copying the bytes.
  public func extract(bytes: UnsafeBufferPointer<UInt8>, pageURL: String, contentType: String?)
    -> PageMetadata
  {
    let decoded = DocumentDecoder.decode(bytes, contentType: contentType)
    var collector = MetadataCollector()
    decoded.withUTF8(input: bytes) { buffer in
      var tokenizer = HTMLTokenizer(buffer)
      tokenizer.run(&collector)
    }
    return MetadataRules(collector: collector, pageURL: pageURL, iconTargetSize: iconTargetSize, now: now())
      .metadata()
  }
}
