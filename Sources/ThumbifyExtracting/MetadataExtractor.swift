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
package struct MetadataExtractor: MetadataExtracting {
  /// The icon size, in pixels, icons are ranked for.
  package var iconTargetSize: Int
  /// The extraction's clock, in Unix seconds: a date more than a day after it is left out.
  /// Tests set a fixed one.
  package var now: @Sendable () -> Int64

  package init(iconTargetSize: Int = 64, now: @escaping @Sendable () -> Int64 = MetadataExtractor.systemClock)
  {
    self.iconTargetSize = iconTargetSize
    self.now = now
  }

  /// The system clock, in Unix seconds.
  package static let systemClock: @Sendable () -> Int64 = { Int64(time(nil)) }

  package func extract(html: [UInt8], pageURL: String, contentType: String?) -> PageMetadata {
    html.withUnsafeBufferPointer { extract(bytes: $0, pageURL: pageURL, contentType: contentType) }
  }

  /// The same, with the page's HTTP `Last-Modified` header as the dates' bound when it is earlier
  /// than the clock: a page cannot have been published after the server says it last changed.
  package func extract(html: [UInt8], pageURL: String, contentType: String?, lastModified: String?)
    -> PageMetadata
  {
    html.withUnsafeBufferPointer {
      extract(bytes: $0, pageURL: pageURL, contentType: contentType, lastModified: lastModified)
    }
  }

  /// The same as `extract(html:pageURL:contentType:lastModified:)` without copying the bytes.
  package func extract(
    bytes: UnsafeBufferPointer<UInt8>, pageURL: String, contentType: String?, lastModified: String? = nil
  ) -> PageMetadata {
    let (decoded, collector) = Self.collect(bytes, contentType: contentType)
    let clock = min(now(), lastModified.flatMap(Self.unixTime) ?? .max)
    let (extracted, isPublishedTimeGeneric, publishedTexts) = MetadataRules(
      collector: collector, pageURL: pageURL, iconTargetSize: iconTargetSize, now: clock
    )
    .metadata()
    var metadata = extracted
    if metadata.publishedTime == nil || isPublishedTimeGeneric {
      // No structured source gave a date, or only a generic meta did: the whole page is searched,
      // in a second pass.
      var search = DateSearch(now: clock, language: metadata.lang)
      decoded.withUTF8(input: bytes) { buffer in
        var tokenizer = HTMLTokenizer(buffer)
        tokenizer.looksForDateHints = true
        tokenizer.run(&search)
      }
      // A generic `date` meta is often the day the page was generated: a dated element in the
      // byline (a `<time datetime>`, the URL) outranks it.
      if let found = search.result(url: WebURL(pageURL)), !isPublishedTimeGeneric || found.score >= 40 {
        if isPublishedTimeGeneric { metadata.publishedTimeText = nil }
        metadata.publishedTime = DateParser.format(found.date)
        metadata.publishedTimeSource = found.source.rawValue
      }
    } else if let utc = metadata.publishedTime.flatMap(DateParser.parse), utc.offset == 0, utc.time != nil,
      let found = DateSearch.localDate(
        for: utc, times: publishedTexts + collector.timeDatetimes, url: WebURL(pageURL), now: clock)
    {
      // A structured date in UTC may not be the day the page's readers saw.
      metadata.publishedTimeText = metadata.publishedTime
      metadata.publishedTime = DateParser.format(found.date)
      metadata.publishedTimeSource = found.source.rawValue
    }
    return metadata
  }

  /// An HTTP date (`Wed, 03 Jun 2020 10:00:00 GMT`) in Unix seconds; `nil` for anything else.
  static func unixTime(_ text: String) -> Int64? {
    guard let date = DateParser.parse(text), let time = date.time, let offset = date.offset else {
      return nil
    }
    return DateParser.daysFromCivil(date.year, date.month, date.day) * 86_400
      + Int64(time.hour * 3600 + time.minute * 60 + time.second - offset * 60)
  }

  /// Decodes and tokenizes the page: once, or twice when a declaration in `<head>` that the
  /// prescan did not see changes a tentative encoding (`DocumentDecoder.changingEncoding`).
  /// Returns the decoding the metadata was collected from.
  static func collect(_ bytes: UnsafeBufferPointer<UInt8>, contentType: String?)
    -> (DocumentDecoder.Decoded, MetadataCollector)
  {
    collect(bytes, from: DocumentDecoder.decode(bytes, contentType: contentType))
  }

  /// The same as `collect(_:contentType:)` from a first decoding already made (tests give a
  /// tentative one of their own).
  static func collect(_ bytes: UnsafeBufferPointer<UInt8>, from decoded: DocumentDecoder.Decoded)
    -> (DocumentDecoder.Decoded, MetadataCollector)
  {
    // Most pages' encoding is certain (a BOM, the HTTP header, an early `<meta charset>`): their
    // tokens go straight to the collector, without the watcher's test on every tag.
    guard decoded.tentative != nil else {
      return (decoded, tokenize(decoded, bytes, into: MetadataCollector()))
    }
    // The watcher is in front only while `<head>` lasts: then the same tokenizer goes on into the
    // collector alone, unless the declaration changes the encoding and the page is read again.
    var collector = MetadataCollector()
    var changed: DocumentDecoder.Decoded?
    decoded.withUTF8(input: bytes) { buffer in
      var tokenizer = HTMLTokenizer(buffer)
      var watcher = CharsetDeclarationWatcher(MetadataCollector(), isWatching: true)
      tokenizer.run(&watcher)
      if let declared = watcher.declared {
        changed = DocumentDecoder.changingEncoding(of: decoded, to: declared, bytes: bytes)
        if changed != nil { return }
      }
      tokenizer.run(&watcher.sink)
      collector = watcher.sink
    }
    guard let changed else { return (decoded, collector) }
    return (changed, tokenize(changed, bytes, into: MetadataCollector()))
  }

  private static func tokenize<Sink: HTMLTokenSink>(
    _ decoded: DocumentDecoder.Decoded, _ bytes: UnsafeBufferPointer<UInt8>, into sink: Sink
  ) -> Sink {
    var sink = sink
    decoded.withUTF8(input: bytes) { buffer in
      var tokenizer = HTMLTokenizer(buffer)
      tokenizer.run(&sink)
    }
    return sink
  }
}
